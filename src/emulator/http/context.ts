import type { Change } from '../audit-log.js';
import type { Organisation } from '../state.js';
import { CODES, fail } from './envelope.js';

/**
 * Which API the emulator plays: `classic`, the specification's; `retired`, today's, where the previous
 * managed rules answer 410 Gone and filters and firewall rules refuse writes (code 10020).
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
  /** Notes a resource the request changed; logged with the answer's status, also a failure's (inline filters stay). */
  record(change: Change): void;
}

/** Fault switches that change how lists are served (EmulatorOptions says what each does). */
export interface ListBehaviour {
  repeatPage: boolean;
  timeoutPerPage: number | null;
  shortPages: boolean;
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
