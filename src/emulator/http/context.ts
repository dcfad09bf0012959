import type { Change } from '../audit-log.js';
import type { Organisation } from '../state.js';
import { CODES, fail } from './envelope.js';

/**
 * Which API the emulator plays: `classic`, the specification's, where the previous managed-rules
 * endpoints and the writes to filters and firewall rules still work; `retired`, today's, where the
 * former answer 410 Gone and the latter are refused (code 10020, maintenance mode), as after the
 * vendor retired them (custom rules are written through the rulesets API in both).
 */
export type ApiEra = 'classic' | 'retired';

/** What a route handler sees of one request. */
export interface RequestContext {
  method: string;
  routeKey: string;
  params: Record<string, string>;
  query: URLSearchParams;
  org: Organisation;
  /** The parsed JSON body; throws the API's malformed-JSON failure when there is none. */
  body(): unknown;
  list: ListBehaviour;
  apiEra: ApiEra;
  /**
   * Notes a resource this request created, updated or deleted. The server writes the audit log
   * entry once the answer's status is known, also when the request then fails (a refused firewall
   * rules POST still leaves its inline filters behind).
   */
  record(change: Change): void;
}

/** Fault switches that change how lists are served (see faults.ts). */
export interface ListBehaviour {
  /** Serve page 1 for every page, as broken real endpoints do. */
  repeatPage: boolean;
  /** A page whose per_page is above this never answers. */
  timeoutPerPage: number | null;
  /** Full pages lose their last item: short pages that are not the last, as in the wild. */
  shortPages: boolean;
  /** result_info without total_count and total_pages (as some answers in the wild). */
  noTotals: boolean;
}

/** Thrown by a handler to leave the request unanswered (the client must time out). */
export class Hang extends Error {}

export function param(ctx: RequestContext, name: string): string {
  const v = ctx.params[name];
  if (v === undefined) throw new Error(`route has no parameter ${name}`);
  return v;
}

/** Query values: repeated keys and comma-separated values both count (`type=A&type=MX`, `type=A,MX`). */
export function queryList(query: URLSearchParams, key: string): string[] {
  return query
    .getAll(key)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

export function queryBool(query: URLSearchParams, key: string): boolean | undefined {
  const v = query.get(key);
  if (v === null) return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw fail(400, CODES.validation, `${key} must be true or false`);
}
