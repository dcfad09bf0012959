import { readDeclarationOf } from '../../cloudflare/reads.js';
import type { ReadModule } from './zone-read.js';

/**
 * The members of the zone's account, with their roles and whether each has two-factor
 * authentication (vendor's API reference: List Members, `GET /accounts/{account_id}/members`, page
 * paging, at most 50 a page): read once per account and scan, by the first of its zones to get
 * here, into the account's own partition. A member turning two-factor on or off is a change of
 * their user, which no account audit log records, and members join and leave through the
 * membership endpoints: nothing says when the list can have changed, so it is read on every scan
 * (one request per 50 members of each account), never carried.
 */
export const accountMembers: ReadModule = {
  ...readDeclarationOf('account_members'),
  dueByDate: () => true,
  async run(kit, { zone }) {
    if (!kit.reads?.accounts?.includes('account_members')) return;
    const accountId = zone.account?.id;
    if (typeof accountId !== 'string') return;
    await kit.readAccountList(accountId, 'account_members', 'accountMembers');
  },
};
