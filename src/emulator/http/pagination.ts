import { CODES, fail, ok, type Answer, type ApiFailure, type ResultInfo } from './envelope.js';
import { Hang, type RequestContext } from './context.js';

/**
 * Page/per_page pagination with each endpoint's limits (docs/api-surface.md). Where the API is not
 * documented: a per_page out of range is clamped, and result_info.per_page says so (clients must
 * read it); a page past the end answers 200 with an empty result.
 */
export interface PageLimits {
  defaultPerPage: number;
  minPerPage: number;
  maxPerPage: number;
  /** Whether result_info carries total_pages (zones, DNS records and certificate packs do). */
  totalPages: boolean;
}

export const LIMITS = {
  accounts: { defaultPerPage: 20, minPerPage: 5, maxPerPage: 50, totalPages: false },
  zones: { defaultPerPage: 20, minPerPage: 5, maxPerPage: 50, totalPages: true },
  dnsRecords: { defaultPerPage: 100, minPerPage: 1, maxPerPage: 5_000_000, totalPages: true },
  certificatePacks: { defaultPerPage: 20, minPerPage: 5, maxPerPage: 50, totalPages: true },
  firewallRules: { defaultPerPage: 25, minPerPage: 5, maxPerPage: 100, totalPages: false },
  filters: { defaultPerPage: 25, minPerPage: 5, maxPerPage: 100, totalPages: false },
  legacyWaf: { defaultPerPage: 50, minPerPage: 5, maxPerPage: 100, totalPages: false },
  // vendor's API reference, List Members: 5 to 50 a page, 20 by default.
  members: { defaultPerPage: 20, minPerPage: 5, maxPerPage: 50, totalPages: true },
} satisfies Record<string, PageLimits>;

/** Anything with a size and random access: arrays and the lazy DNS record store. */
export interface Indexed<T> {
  readonly size: number;
  at(index: number): T;
}

export function indexed<T>(items: readonly T[]): Indexed<T> {
  return { size: items.length, at: (i) => items[i]! };
}

/** A positive whole number of the query (`fallback` when absent), else the `refusal` of the value given (cut to 40 characters). */
export function wholeQuery(ctx: RequestContext, key: string, fallback: number, refusal: (raw: string) => ApiFailure): number {
  const raw = ctx.query.get(key);
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw refusal(raw.slice(0, 40));
  return Number(raw);
}

function positiveInt(ctx: RequestContext, key: string, fallback: number): number {
  const refusal = (raw: string) => fail(400, CODES.invalidPagination, `${key} must be a positive whole number, got "${raw}"`);
  return wholeQuery(ctx, key, fallback, refusal);
}

/** The text of a cursor this API gave (opaque to clients: base64url), or undefined when none is given. */
export function cursorText(ctx: RequestContext, valid: RegExp): string | undefined {
  const raw = ctx.query.get('cursor');
  if (raw === null || raw === '') return undefined;
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  if (!valid.test(text)) {
    throw fail(400, CODES.validation, 'cursor is not one this API gave: pass result_info.cursor of the previous answer unchanged');
  }
  return text;
}

export function paginate<T>(ctx: RequestContext, items: Indexed<T>, limits: PageLimits, serialize: (item: T) => unknown): Answer {
  const page = positiveInt(ctx, 'page', 1);
  const requested = positiveInt(ctx, 'per_page', limits.defaultPerPage);
  const perPage = Math.min(limits.maxPerPage, Math.max(limits.minPerPage, requested));
  if (ctx.list.timeoutPerPage !== null && perPage > ctx.list.timeoutPerPage) throw new Hang();

  const servedPage = ctx.list.repeatPage ? 1 : page;
  const start = (servedPage - 1) * perPage;
  const end = Math.min(items.size, start + perPage);
  const result = Array.from({ length: Math.max(0, end - start) }, (_, k) => serialize(items.at(start + k)));
  if (ctx.list.shortPages && result.length === perPage && perPage > 1) result.pop();

  const info: ResultInfo = { page, per_page: perPage, count: result.length, total_count: items.size };
  if (limits.totalPages) info.total_pages = Math.ceil(items.size / perPage);
  if (ctx.list.noTotals) {
    delete info.total_count;
    delete info.total_pages;
  }
  return ok(result, info);
}

/** `direction` is asc/desc in the wild and ASC/DESC in the spec: accept both. */
export function direction(ctx: RequestContext): 1 | -1 {
  const raw = ctx.query.get('direction');
  if (raw === null || raw === '') return 1;
  const d = raw.toLowerCase();
  if (d !== 'asc' && d !== 'desc') throw fail(400, CODES.validation, `direction must be asc or desc, got "${raw.slice(0, 40)}"`);
  return d === 'asc' ? 1 : -1;
}

export function orderField(ctx: RequestContext, allowed: readonly string[]): string | undefined {
  const raw = ctx.query.get('order');
  if (raw === null || raw === '') return undefined;
  if (!allowed.includes(raw)) {
    throw fail(400, CODES.validation, allowed.length ? `order must be one of ${allowed.join(', ')}` : 'this list cannot be ordered');
  }
  return raw;
}

export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return -1;
  if (b === undefined || b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}
