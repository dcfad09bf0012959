import type { RequestContext } from '../http/context.js';
import { CODES, fail } from '../http/envelope.js';
import { compareValues, direction, indexed, LIMITS, orderField, paginate } from '../http/pagination.js';
import type { Route } from '../http/router.js';
import { defaultMembers, MEMBER_STATUSES, serializeMember, type Member } from '../members.js';
import { accountFor } from './lookup.js';

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

export const accountMemberRoutes: Route[] = [{ method: 'GET', template: '/accounts/{account_id}/members', handler: listMembers }];
