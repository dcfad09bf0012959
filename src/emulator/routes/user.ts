import { param, type RequestContext } from '../http/context.js';
import { CODES, fail, ok } from '../http/envelope.js';
import type { Route } from '../http/router.js';
import type { Invite } from '../state.js';
import { isObject } from './filter-input.js';
import { notFound } from './lookup.js';

/** A pending invite past its expiry is expired, whatever it was stored as. */
function current(invite: Invite, now: Date): Invite {
  if (invite.status === 'pending' && Date.parse(invite.expires_on) < now.getTime()) invite.status = 'expired';
  return invite;
}

function findInvite(ctx: RequestContext): Invite {
  const id = param(ctx, 'invite_id');
  const invite = ctx.org.state.invites.find((i) => i.id === id);
  return invite ? current(invite, ctx.org.clock.now()) : notFound('invite', id);
}

/** Accepting an invite makes its account, and the account's zones, visible to the user. */
function answerInvite(ctx: RequestContext) {
  const invite = findInvite(ctx);
  const body = ctx.body();
  const status = isObject(body) ? body['status'] : undefined;
  if (status !== 'accepted' && status !== 'rejected') {
    throw fail(400, CODES.validation, 'status must be "accepted" or "rejected"', { source: { pointer: '/status' } });
  }
  if (invite.status !== 'pending') throw fail(400, CODES.inviteState, `invite is ${invite.status} and can no longer be ${status}`);
  invite.status = status;
  if (status === 'accepted') {
    const account = ctx.org.accountsById.get(invite.organization_id);
    if (account) account.member = true;
    ctx.org.touch();
  }
  return ok(invite);
}

export const userRoutes: Route[] = [
  { method: 'GET', template: '/user', handler: (ctx) => ok({ id: ctx.org.state.user.id, email: ctx.org.state.user.email, two_factor_authentication_enabled: true }) },
  {
    method: 'GET',
    template: '/user/tokens/verify',
    handler: (ctx) => ok({ id: ctx.org.state.user.id, status: 'active', not_before: null, expires_on: null }),
  },
  // Not paginated in the real API: the whole list, no result_info.
  { method: 'GET', template: '/user/invites', handler: (ctx) => ok(ctx.org.state.invites.map((i) => current(i, ctx.org.clock.now()))) },
  { method: 'GET', template: '/user/invites/{invite_id}', handler: (ctx) => ok(findInvite(ctx)) },
  { method: 'PATCH', template: '/user/invites/{invite_id}', handler: answerInvite },
];
