import {
  ACTION_RESULTS,
  ACTION_TYPES,
  ACTOR_CONTEXTS,
  ACTOR_TYPES,
  RESOURCE_SCOPES,
  retentionStart,
  type AuditEntry,
  type LogPosition,
} from '../audit-log.js';
import { queryList, type RequestContext } from '../http/context.js';
import { CODES, fail, ok } from '../http/envelope.js';
import { cursorText, wholeQuery } from '../http/pagination.js';
import type { Route } from '../http/router.js';
import { accountFor } from './lookup.js';

/**
 * `GET /accounts/{account_id}/logs/audit` (vendor's API reference: account audit logs, version 2):
 * the window `since` to `before`, cursor paging, `direction`, and filters on the entries' fields,
 * each also in a `.not` form. The emulator's guesses: docs/dataset-format.md, "Audit log".
 */

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** True when y-m-d names a real day (Date.parse rolls 2026-02-30 over into March). */
function realDay(y: string, m: string, d: string): boolean {
  const t = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return t.getUTCFullYear() === Number(y) && t.getUTCMonth() === Number(m) - 1 && t.getUTCDate() === Number(d);
}

function instant(ctx: RequestContext, key: 'since' | 'before'): number {
  const raw = ctx.query.get(key);
  const expected = 'a date such as 2026-10-31 (read as UTC) or an RFC 3339 time such as 2026-10-31T12:00:00Z';
  if (raw === null || raw === '') throw fail(400, CODES.validation, `${key} is required: ${expected}`);
  const m = DATE.exec(raw) ?? RFC3339.exec(raw);
  const ms = m && realDay(m[1]!, m[2]!, m[3]!) ? Date.parse(DATE.test(raw) ? `${raw}T00:00:00Z` : raw) : Number.NaN;
  if (Number.isNaN(ms)) throw fail(400, CODES.validation, `${key} must be ${expected}; got "${raw.slice(0, 64)}"`);
  return ms;
}

function limitOf(ctx: RequestContext): number {
  const refusal = (raw: string) => fail(400, CODES.validation, `limit must be a whole number from 1 to ${MAX_LIMIT}; got "${raw}"`);
  return Math.min(MAX_LIMIT, wholeQuery(ctx, 'limit', DEFAULT_LIMIT, refusal));
}

function directionOf(ctx: RequestContext): 'asc' | 'desc' {
  const raw = ctx.query.get('direction');
  if (raw === null || raw === '') return 'desc';
  const d = raw.toLowerCase();
  if (d !== 'asc' && d !== 'desc') throw fail(400, CODES.validation, `direction must be asc or desc; got "${raw.slice(0, 40)}"`);
  return d;
}

/** The cursor: the last entry's time and sequence. */
export function encodeCursor(p: LogPosition): string {
  return Buffer.from(`v1:${p.ms}:${p.seq}`).toString('base64url');
}

const CURSOR = /^v1:(-?\d+):(\d+)$/;

function decodeCursor(ctx: RequestContext): LogPosition | undefined {
  const [, ms, seq] = CURSOR.exec(cursorText(ctx, CURSOR) ?? '') ?? [];
  return ms === undefined ? undefined : { ms: Number(ms), seq: Number(seq) };
}

/** The vendor's filters: `<part>_<field>` is the entry's `<part>.<field>`, `id` and `audit_log_id` its id. */
const FILTER_NAMES = ['id', 'audit_log_id', 'account_name', 'action_result', 'action_type', 'actor_context', 'actor_email', 'actor_id', 'actor_ip_address', 'actor_token_id', 'actor_token_name',
  'actor_type', 'raw_cf_ray_id', 'raw_method', 'raw_status_code', 'raw_uri', 'resource_id', 'resource_product', 'resource_scope', 'resource_type', 'zone_id', 'zone_name'];
/** The vocabulary of the filters that have one. */
const VOCABULARY: Record<string, readonly string[]> = { action_result: ACTION_RESULTS, action_type: ACTION_TYPES, actor_context: ACTOR_CONTEXTS, actor_type: ACTOR_TYPES, resource_scope: RESOURCE_SCOPES };

function fieldOf(name: string): (e: AuditEntry) => string | undefined {
  if (name === 'id' || name === 'audit_log_id') return (e) => e.id;
  const [part, key] = [name.slice(0, name.indexOf('_')), name.slice(name.indexOf('_') + 1)];
  return (e) => {
    const value = (e as unknown as Record<string, Record<string, unknown> | undefined>)[part]?.[key];
    return value === undefined ? undefined : String(value);
  };
}

/** Every filter given: `name=a&name=b` (or `name=a,b`) keeps entries with one of them, `name.not=...` drops them. */
function filtersOf(ctx: RequestContext): (e: AuditEntry) => boolean {
  const tests: Array<(e: AuditEntry) => boolean> = [];
  for (const name of FILTER_NAMES) {
    const [field, values] = [fieldOf(name), VOCABULARY[name]];
    for (const [key, keep] of [[name, true], [`${name}.not`, false]] as const) {
      const wanted = queryList(ctx.query, key);
      if (wanted.length === 0) continue;
      const unknown = values && wanted.find((v) => !values.includes(v));
      if (unknown !== undefined) throw fail(400, CODES.validation, `${key} must be some of ${values!.join(', ')}; got "${unknown.slice(0, 40)}"`);
      tests.push((e) => {
        const value = field(e);
        return (value !== undefined && wanted.includes(value)) === keep;
      });
    }
  }
  return (e) => tests.every((t) => t(e));
}

function listAuditLog(ctx: RequestContext) {
  const { id } = accountFor(ctx);
  if (!ctx.query.get('since') && !ctx.query.get('before')) throw fail(400, CODES.validation, 'since and before are required: dates such as 2026-10-31 (read as UTC) or RFC 3339 times such as 2026-10-31T12:00:00Z');
  const since = instant(ctx, 'since');
  const before = instant(ctx, 'before');
  if (since >= before) throw fail(400, CODES.validation, 'since must be earlier than before');
  const page = ctx.org.audit.page({
    accountId: id,
    // Vendor: entries are kept 18 months. An older since still answers, with nothing older in it.
    sinceMs: Math.max(since, retentionStart(ctx.org.clock.now())),
    beforeMs: before,
    direction: directionOf(ctx),
    keep: filtersOf(ctx),
    after: decodeCursor(ctx),
    limit: limitOf(ctx),
  });
  return ok(page.entries, { count: String(page.entries.length), cursor: page.next ? encodeCursor(page.next) : '' });
}

export const AUDIT_LOG_ROUTE = 'GET /accounts/{account_id}/logs/audit';

export const auditLogRoutes: Route[] = [{ method: 'GET', template: '/accounts/{account_id}/logs/audit', handler: listAuditLog }];
