import { readDeclarationOf } from '../../cloudflare/reads.js';
import type { ReadModule } from './zone-read.js';

/**
 * The members of the zone's account, with roles and two-factor state (vendor's API reference: List
 * Members, 50 a page), read once per account and scan into the account's partition. Two-factor
 * turned off is a change of the user, which no account audit log records: read on every scan.
 */
export const accountMembers: ReadModule = {
  ...readDeclarationOf('account_members'),
  dueByDate: () => true,
  async run(kit, { zone }) {
    if (!kit.reads?.accounts?.includes('account_members')) return;
    const accountId = zone.account?.id;
    if (typeof accountId !== 'string') return;
    await kit.accountReads.list(accountId, 'account_members', 'accountMembers');
  },
};
