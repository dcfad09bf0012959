import { defineRule } from '../src/policy/rule.js';
import { shorten } from '../src/common/printable.js';

export default defineRule({
  meta: {
    id: 'invite-pending',
    title: 'No invitation to an organisation is left pending',
    description:
      "A pending invite is an organisation the scanning user was asked to audit but cannot see yet: none of that account's zones are in the scan, so the report is silent about them.",
    severity: 'low',
    category: 'scan',
    scope: 'organisation',
    resource: 'invite',
    messages: {
      pending:
        "a pending invite to {{organization}} from {{invitedBy}} (expires {{expires}}): the scan cannot see that account's zones until it is accepted; accept it with `zonewarden invites accept`",
    },
    remediation: 'Accept the invite with `zonewarden invites accept` (or reject it if the account is not to be audited), then scan again.',
    references: ['API spec: Endpoints (PATCH /user/invites/{id}), Resources and their fields (User invite)', 'vendor docs: Invites (status pending, accepted, rejected, expired)'],
  },
  defaultOptions: {},
  check(ctx) {
    const user = { type: 'user', id: 'invites', name: 'invites' };
    const invites = ctx.snapshot.invites();
    if (!invites.known) return ctx.unknown(user, invites.reason);
    if (invites.items.length === 0) return ctx.pass(user);
    const now = ctx.now.getTime();
    for (const invite of invites.items) {
      const resource = { type: 'invite', id: invite.id, name: invite.organizationName };
      // Without a status the invite may be open or not: saying it passes would hide an unseen organisation.
      if (invite.status === null) {
        ctx.unknown(resource, 'the invite has no status');
        continue;
      }
      // An invite past its expiry can no longer be accepted, whatever its status still says.
      const open = invite.status === 'pending' && (invite.expiresOn === null || invite.expiresOn.getTime() > now);
      if (!open) {
        ctx.pass(resource);
        continue;
      }
      ctx.fail(resource, 'pending', {
        organization: invite.organizationName ?? invite.organizationId ?? 'an unnamed organisation',
        // The sender is free text set by the inviting organisation: a name can run to hundreds of characters.
        invitedBy: invite.invitedBy === null ? 'an unknown sender' : shorten(invite.invitedBy, 80),
        expires: invite.expiresOn?.toISOString() ?? 'at an unknown time',
      });
    }
  },
});
