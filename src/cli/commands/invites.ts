import { acceptInvites, pendingInvites, zonesOfAccounts, type PendingInvite } from '../../actions/invites.js';
import { printable } from '../../shared/printable.js';
import { EXIT, UsageError } from '../../shared/errors.js';
import { defineCommand } from '../command.js';
import { commonOptions, configFrom } from '../common.js';
import { openWriteSession } from '../write-session.js';

function line(i: PendingInvite): string {
  return printable(`  ${i.id}  ${i.organizationName ?? i.organizationId ?? '(no organisation name)'}  invited by ${i.invitedBy ?? 'unknown'}${i.expiresOn ? `, expires ${i.expiresOn}` : ''}`);
}

export const invitesCommand = defineCommand({
  name: 'invites',
  summary: 'list pending invitations and accept them (dry run unless --yes)',
  description: `
'zonewarden invites accept' lists the invitations to other organisations that are pending, and
accepts the ones chosen with --all or --id. Without --yes it only says what it would accept.
Until an invitation is accepted the scan cannot see that organisation's zones; once accepted,
they are scanned at once. Every acceptance, and every refusal by the API, is recorded in the
database's audit log.`,
  args: [{ name: 'action', help: 'accept' }],
  options: {
    all: { type: 'boolean', help: 'accept every pending invitation' },
    id: { type: 'list', value: 'ID', help: 'accept this invitation (repeatable)' },
    yes: { type: 'boolean', help: 'do it: without it nothing is written' },
    ...commonOptions('baseUrl', 'db', 'config', 'concurrency', 'budget', 'budgetWindow', 'perSecond', 'timeout', 'retries', 'retryWait', 'quiet', 'verbose'),
  },
  examples: ['zonewarden invites accept', 'zonewarden invites accept --all', 'zonewarden invites accept --id 4f5f0c14a2a41d5063dcf8fd0a40ba6a --yes'],
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
      const chosen = o.all ? pending : pending.filter((p) => o.id.includes(p.id));
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
      return outcomes.every((r) => r.ok) ? EXIT.ok : EXIT.usage;
    } finally {
      await session.close();
    }
  },
});
