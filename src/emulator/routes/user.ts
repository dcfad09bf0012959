import { param, type RequestContext } from '../http/context.js';
import { CODES, fail, ok } from '../http/envelope.js';
import type { Route } from '../http/router.js';
import type { Invite } from '../state.js';
import { isObject } from './filter-input.js';
import { notFound } from './lookup.js';

/** A pending invite past its expiry reads as expired (without a read changing the state). */
function current(invite: Invite, now: Date): Invite {
  return invite.status === 'pending' && Date.parse(invite.expires_on) < now.getTime() ? { ...invite, status: 'expired' } : invite;
}

function storedInvite(ctx: RequestContext): Invite {
  const id = param(ctx, 'invite_id');
  return ctx.org.state.invites.find((i) => i.id === id) ?? notFound('invite', id);
}

/** Accepting an invite makes its account, and the account's zones, visible to the user. */
function answerInvite(ctx: RequestContext) {
  const invite = storedInvite(ctx);
  const state = current(invite, ctx.org.clock.now()).status;
  const body = ctx.body();
  const status = isObject(body) ? body['status'] : undefined;
  if (status !== 'accepted' && status !== 'rejected') {
    throw fail(400, CODES.validation, 'status must be "accepted" or "rejected"', { source: { pointer: '/status' } });
  }
  if (state !== 'pending') throw fail(400, CODES.inviteState, `invite is ${state} and can no longer be ${status}`);
  invite.status = status;
  // The invite is the user's, the membership the account's: logged in the invited account (a guess,
  // docs/dataset-format.md), so that its admins see who joined.
  const change = { type: 'update', product: 'members', resourceType: 'invite', resourceId: invite.id, description: `Invite ${status}` } as const;
  ctx.record({ ...change, scope: 'memberships', accountId: invite.organization_id, request: body, response: { ...invite } });
  if (status === 'accepted') {
    const account = ctx.org.accountsById.get(invite.organization_id);
    if (account) account.member = true;
    ctx.org.touch();
  }
  return ok(invite);
}

export const userRoutes: Route[] = [
  { method: 'GET', template: '/user', handler: (ctx) => ok({ id: ctx.org.state.user.id, email: ctx.org.state.user.email, two_factor_authentication_enabled: true }) },
  { method: 'GET', template: '/user/tokens/verify', handler: (ctx) => ok({ id: ctx.org.state.user.id, status: 'active', not_before: null, expires_on: null }) },
  // Not paginated in the real API: the whole list, no result_info.
  { method: 'GET', template: '/user/invites', handler: (ctx) => ok(ctx.org.state.invites.map((i) => current(i, ctx.org.clock.now()))) },
  { method: 'GET', template: '/user/invites/{invite_id}', handler: (ctx) => ok(current(storedInvite(ctx), ctx.org.clock.now())) },
  { method: 'PATCH', template: '/user/invites/{invite_id}', handler: answerInvite },
];
