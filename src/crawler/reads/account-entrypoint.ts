import { readDeclarationOf, fillPath, PARTITIONS } from '../../cloudflare/reads.js';
import type { ReadModule } from './zone-read.js';

/**
 * The account's managed-phase entry point, which can deploy managed rules to its zones (Enterprise,
 * vendor docs: WAF, deploy managed rulesets at the account level): read once per account and scan,
 * kept with each of its zones. An Enterprise zone asks too when the account list did not say the
 * account's type (an account-owned token cannot list accounts).
 */
export const accountEntrypoint: ReadModule = {
  ...readDeclarationOf('account_entrypoint'),
  // One call per account, shared by its zones: read on every scan, never carried.
  dueByDate: () => true,
  async run(kit, { zone }) {
    const accountId = zone.account?.id;
    const type = typeof accountId === 'string' ? kit.accounts.accountType(accountId) : undefined;
    if (typeof accountId !== 'string' || !(type === 'enterprise' || (type === undefined && zone.plan?.legacy_id === 'enterprise'))) {
      kit.book.skip(zone, 'account_entrypoint', 'account-level entry points deploy managed rules on Enterprise accounts only');
      return;
    }
    const { api, paging } = PARTITIONS.account_entrypoint;
    await kit.accountReads.object(zone, accountId, 'account_entrypoint', fillPath(api, { account_id: accountId }), paging.absentCode);
  },
};
