import { acceptInvites, pendingInvites, zonesOfAccounts, type PendingInvite } from '../../actions/invites.js';
import { printable } from '../../common/printable.js';
import { EXIT, UsageError } from '../../common/errors.js';
import { defineCommand } from '../command.js';
import { commonOptions, configFrom } from '../common.js';
import { openWriteSession } from '../write-session.js';

function line(i: PendingInvite): string {
  const organisation = `${i.organizationName ?? '(no organisation name)'} (organisation ${i.organizationId ?? 'unknown'})`;
  return printable(`  ${i.id}  ${organisation}  invited by ${i.invitedBy ?? 'unknown'}${i.expiresOn ? `, expires ${i.expiresOn}` : ''}`);
}

export const invitesCommand = defineCommand({
  name: 'invites',
  summary: 'list pending invitations and accept them (dry run unless --yes)',
  description: `
'zonewarden invites accept' lists the invitations to other organisations that are pending, and
accepts the ones chosen with --id, or with --all those from the organisations named with
--organization ID (repeatable) or the config file's "organizations" list: an invitation is a
grant of access from whoever sent it, so --all never accepts one from an organisation you did not
name. Without --yes it only says what it would accept. Until an invitation is accepted the scan
cannot see that organisation's zones; once accepted, they are scanned at once. Every acceptance,
and every refusal by the API, is recorded in the database's audit log; if any acceptance fails,
the command says which and exits 1.`,
  args: [{ name: 'action', help: 'accept' }],
  options: {
    all: { type: 'boolean', help: 'accept every pending invitation from the organisations named with --organization' },
    id: { type: 'list', value: 'ID', help: 'accept this invitation' },
    yes: { type: 'boolean', help: 'do it: without it nothing is written' },
    ...commonOptions('organizations', 'baseUrl', 'db', 'config', 'concurrency', 'budget', 'budgetWindow', 'perSecond', 'timeout', 'retries', 'retryWait', 'quiet', 'verbose'),
  },
  examples: [
    'zonewarden invites accept',
    'zonewarden invites accept --all --organization 7e16e189370958d4a5d8e47681896ba4 --yes',
    'zonewarden invites accept --id 4f5f0c14a2a41d5063dcf8fd0a40ba6a --yes',
  ],
  async run(o, io, args) {
    if (args[0] !== 'accept') throw new UsageError(`invites: unknown action ${args[0] ?? ''}; the action is accept, e.g. zonewarden invites accept --all`);
    if (o.all && o.id.length) throw new UsageError('give --all or --id, not both');
    const config = configFrom(o, io);
    const session = openWriteSession(config, io);
    try {
      const pending = await pendingInvites(session.client);
      if (pending.length === 0) {
        io.stdout('no pending invitations\n');
        return EXIT.ok;
      }
      io.stdout(`${pending.length} pending invitation(s):\n${pending.map(line).join('\n')}\n`);
      const unknown = o.id.filter((id) => !pending.some((p) => p.id === id));
      if (unknown.length) throw new UsageError(`${unknown.join(', ')} is not a pending invitation; the pending ones are listed above`);
      if (o.all && config.organizations.length === 0) {
        throw new UsageError(
          '--all accepts invitations only from organisations you name: add --organization ID (repeatable; the ids are listed above) or an "organizations" list to the config file',
        );
      }
      const named = new Set(config.organizations);
      const chosen = o.all ? pending.filter((p) => p.organizationId !== null && named.has(p.organizationId)) : pending.filter((p) => o.id.includes(p.id));
      if (o.all) {
        const passedOver = pending.filter((p) => !chosen.includes(p));
        if (passedOver.length) io.stdout(`not accepting ${passedOver.length} invitation(s) from organisations not named with --organization: ${passedOver.map((p) => p.id).join(', ')}\n`);
      }
      if (chosen.length === 0) {
        io.stdout('choose with --all or --id ID, and add --yes to accept\n');
        return EXIT.ok;
      }
      if (!o.yes) {
        io.stdout(`would accept ${chosen.length} invitation(s); dry run: nothing was written, add --yes to accept\n`);
        return EXIT.ok;
      }
      const outcomes = await acceptInvites(session.client, session.log, chosen, 'invites accept');
      for (const r of outcomes) io.stdout(`${printable(r.ok ? `accepted ${r.invite.id} (${r.invite.organizationName ?? ''})` : `failed ${r.invite.id}: ${r.error}`)}\n`);
      const joined = outcomes.filter((r) => r.ok && r.invite.organizationId).map((r) => r.invite.organizationId as string);
      if (joined.length) await session.rescan(await zonesOfAccounts(session.client, joined));
      const failed = outcomes.filter((r) => !r.ok);
      if (failed.length === 0) return EXIT.ok;
      // Some writes went through and some did not: not a usage error, and the failures must be unmissable.
      io.stderr(`${printable(`${failed.length} of ${outcomes.length} invitation(s) could not be accepted: ${failed.map((r) => `${r.invite.id} (${r.error})`).join('; ')}`)}\n`);
      return EXIT.findings;
    } finally {
      await session.close();
    }
  },
});
