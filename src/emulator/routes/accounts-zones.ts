import { queryList, type RequestContext } from '../http/context.js';
import { CODES, fail, ok } from '../http/envelope.js';
import { compareValues, direction, indexed, LIMITS, orderField, paginate } from '../http/pagination.js';
import type { Route } from '../http/router.js';
import { defaultMembers, MEMBER_STATUSES, serializeMember, type Member } from '../members.js';
import { MANAGED_PHASE } from '../security.js';
import * as serialize from '../serialize.js';
import type { Zone } from '../state.js';
import { accountFor, combine, entrypointOrMissing, textMatcher, textPredicate, zoneFor } from './lookup.js';

function listAccounts(ctx: RequestContext) {
  orderField(ctx, []);
  const dir = direction(ctx);
  const name = ctx.query.get('name');
  const matcher = name ? textMatcher(name) : () => true;
  const accounts = ctx.org
    .visibleAccounts()
    .filter((a) => matcher(a.name))
    .sort((a, b) => dir * compareValues(a.name, b.name) || compareValues(a.id, b.id));
  return paginate(ctx, indexed(accounts), LIMITS.accounts, serialize.account);
}

function getAccount(ctx: RequestContext) {
  return ok(serialize.account(accountFor(ctx)));
}

const MEMBER_ORDER: Record<string, (m: Member) => unknown> = {
  'user.first_name': (m) => m.user.first_name,
  'user.last_name': (m) => m.user.last_name,
  'user.email': (m) => m.user.email,
  status: (m) => m.status,
};

/** `GET /accounts/{account_id}/members` (vendor's API reference: List Members), with its filter, order and paging. */
function listMembers(ctx: RequestContext) {
  const account = accountFor(ctx);
  const status = ctx.query.get('status');
  if (status !== null && !(MEMBER_STATUSES as readonly string[]).includes(status)) throw fail(400, CODES.validation, `status must be one of ${MEMBER_STATUSES.join(', ')}`);
  const key = MEMBER_ORDER[orderField(ctx, Object.keys(MEMBER_ORDER)) ?? 'user.email']!;
  const dir = direction(ctx);
  const members = (account.members ?? defaultMembers(account.id, ctx.org.state.user.email))
    .filter((m) => status === null || m.status === status)
    .sort((a, b) => dir * compareValues(key(a), key(b)) || compareValues(a.id, b.id));
  return paginate(ctx, indexed(members), LIMITS.members, serializeMember);
}

/**
 * The account's managed entry point (vendor's API reference: get an account entry point ruleset),
 * `kind: "root"`, Enterprise accounts only (vendor docs: WAF, deploy managed rulesets at the account
 * level). Another account: 403 code 10000, the emulator's guess (what the API answers in the wild
 * when the caller may not use a feature).
 */
function getAccountManagedEntrypoint(ctx: RequestContext) {
  const account = accountFor(ctx);
  if (account.type !== 'enterprise') throw fail(403, CODES.authentication, 'Authentication error');
  return ok(entrypointOrMissing(account.managedEntrypoint, MANAGED_PHASE));
}

/** vendor's API reference: Notification policies, list: every policy in one answer (the vendor's SDKs read one page). */
function listNotificationPolicies(ctx: RequestContext) {
  return ok((accountFor(ctx).notificationPolicies ?? []).map((p) => ({ ...p, filters: { ...p.filters } })));
}

const ZONE_ORDER: Record<string, (z: Zone, ctx: RequestContext) => unknown> = {
  name: (z) => z.name,
  status: (z) => z.status,
  'account.id': (z) => z.accountId,
  'account.name': (z, ctx) => ctx.org.accountsById.get(z.accountId)?.name,
  'plan.id': (z) => serialize.planId(z),
};

const ZONE_STATUSES = ['initializing', 'pending', 'active', 'moved'];

function listZones(ctx: RequestContext) {
  const q = ctx.query;
  const predicates: Array<(z: Zone) => boolean> = [];
  const accountIds = queryList(q, 'account.id');
  if (accountIds.length) predicates.push((z) => accountIds.includes(z.accountId));
  predicates.push(...textPredicate(q.get('account.name'), (z: Zone) => ctx.org.accountsById.get(z.accountId)?.name ?? ''));
  predicates.push(...textPredicate(q.get('name'), (z: Zone) => z.name));
  const statuses = queryList(q, 'status');
  for (const s of statuses) {
    if (!ZONE_STATUSES.includes(s)) throw fail(400, CODES.validation, `status must be one of ${ZONE_STATUSES.join(', ')}`);
  }
  if (statuses.length) predicates.push((z) => statuses.includes(z.status));
  const keep = combine(ctx, predicates);
  const order = orderField(ctx, Object.keys(ZONE_ORDER)) ?? 'name';
  const key = ZONE_ORDER[order]!;
  const dir = direction(ctx);
  // Paging through the list repeats the same filter and sort for every page: do it once.
  const signature = [...q].filter(([k]) => k !== 'page' && k !== 'per_page').map(([k, v]) => `${k}=${v}`).join('&');
  const zones = ctx.org.memo(`zones?${signature}`, () =>
    ctx.org
      .visibleZones()
      .filter(keep)
      .sort((a, b) => dir * compareValues(key(a, ctx), key(b, ctx)) || compareValues(a.name, b.name)),
  );
  return paginate(ctx, indexed(zones), LIMITS.zones, (z) => serialize.zoneJson(z, ctx.org));
}

export const accountAndZoneRoutes: Route[] = [
  { method: 'GET', template: '/accounts', handler: listAccounts },
  { method: 'GET', template: '/accounts/{account_id}', handler: getAccount },
  { method: 'GET', template: '/accounts/{account_id}/members', handler: listMembers },
  { method: 'GET', template: '/accounts/{account_id}/alerting/v3/policies', handler: listNotificationPolicies },
  { method: 'GET', template: `/accounts/{account_id}/rulesets/phases/${MANAGED_PHASE}/entrypoint`, handler: getAccountManagedEntrypoint },
  { method: 'GET', template: '/zones', handler: listZones },
  { method: 'GET', template: '/zones/{zone_id}', handler: (ctx) => ok(serialize.zone(zoneFor(ctx), ctx.org)) },
];
