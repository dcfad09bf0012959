import { queryList, type RequestContext } from '../http/context.js';
import { CODES, fail, ok } from '../http/envelope.js';
import { compareValues, direction, indexed, LIMITS, orderField, paginate } from '../http/pagination.js';
import type { Route } from '../http/router.js';
import * as serialize from '../serialize.js';
import type { Zone } from '../state.js';
import { accountFor, combine, textMatcher, textPredicate, zoneFor } from './lookup.js';

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
  { method: 'GET', template: '/zones', handler: listZones },
  { method: 'GET', template: '/zones/{zone_id}', handler: (ctx) => ok(serialize.zone(zoneFor(ctx), ctx.org)) },
];
