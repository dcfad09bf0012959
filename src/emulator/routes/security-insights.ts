import { param, queryBool, queryList, type RequestContext } from '../http/context.js';
import { CODES, fail, ok } from '../http/envelope.js';
import type { Route } from '../http/router.js';
import { accountInsights, dismissedOf, type InsightIssue } from '../security-insights.js';
import { accountFor, notFound } from './lookup.js';

/**
 * The vendor's scanner's findings (vendor's API reference: security center, insights), from the model
 * of the scanner (security-insights.ts): the list, paged inside `result` (no result_info), its counts,
 * and dismissing. `per_page` 25 by default, at most 100 (vendor's SDK reference); outside the range,
 * 400 code 1004 (the emulator's guess).
 */

const DEFAULT_PER_PAGE = 25;
const MAX_PER_PAGE = 100;

function whole(ctx: RequestContext, name: string, fallback: number, max: number): number {
  const raw = ctx.query.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw fail(400, CODES.invalidPagination, `${name} must be a whole number from 1 to ${max}`);
  return n;
}

function filtered(ctx: RequestContext): InsightIssue[] {
  const account = accountFor(ctx);
  const dismissed = queryBool(ctx.query, 'dismissed');
  const classes = queryList(ctx.query, 'issue_class');
  const types = queryList(ctx.query, 'issue_type');
  const severities = queryList(ctx.query, 'severity').map((s) => s.toLowerCase());
  return accountInsights(ctx.org, account.id).filter(
    (i) =>
      (dismissed === undefined || i.dismissed === dismissed) &&
      (classes.length === 0 || classes.includes(i.issue_class)) &&
      (types.length === 0 || types.includes(i.issue_type)) &&
      (severities.length === 0 || severities.includes(i.severity.toLowerCase())),
  );
}

function listInsights(ctx: RequestContext) {
  const issues = filtered(ctx);
  const page = whole(ctx, 'page', 1, Number.MAX_SAFE_INTEGER);
  const perPage = whole(ctx, 'per_page', DEFAULT_PER_PAGE, MAX_PER_PAGE);
  return ok({ count: issues.length, page, per_page: perPage, issues: issues.slice((page - 1) * perPage, page * perPage) });
}

function countsBy(key: 'issue_class' | 'severity' | 'issue_type') {
  return (ctx: RequestContext) => {
    const counts = new Map<string, number>();
    for (const i of filtered(ctx)) counts.set(i[key], (counts.get(i[key]) ?? 0) + 1);
    return ok([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([value, count]) => ({ count, value })));
  };
}

function dismiss(ctx: RequestContext) {
  const account = accountFor(ctx);
  const id = param(ctx, 'issue_id');
  if (!accountInsights(ctx.org, account.id).some((i) => i.id === id)) throw notFound('insight', id);
  const body = ctx.body() as { dismiss?: unknown } | null;
  const set = dismissedOf(ctx.org);
  if (body?.dismiss === false) set.delete(id);
  else set.add(id);
  return ok(null);
}

const BASE = '/accounts/{account_id}/security-center/insights';

export const securityInsightRoutes: Route[] = [
  { method: 'GET', template: BASE, handler: listInsights },
  { method: 'GET', template: `${BASE}/class`, handler: countsBy('issue_class') },
  { method: 'GET', template: `${BASE}/severity`, handler: countsBy('severity') },
  { method: 'GET', template: `${BASE}/type`, handler: countsBy('issue_type') },
  { method: 'PUT', template: `${BASE}/{issue_id}/dismiss`, handler: dismiss },
];
