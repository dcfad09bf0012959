import { NO_ENTRYPOINT } from './entrypoint.js';
import type { ZoneRead } from './zone-read.js';

/**
 * The account's managed-phase entry point, whose execute rules can deploy managed rules to its
 * zones (an Enterprise feature, vendor docs: WAF, deploy managed rulesets at the account level):
 * read once per Enterprise account and scan, whatever tonight's plan for its zones, and kept with
 * each of its zones so that every zone's verdict and drift see the same one. A zone on an
 * Enterprise plan asks too when the account list did not say the account's type (an
 * account-owned token cannot list accounts, and a failed list says nothing).
 */
export const accountEntrypoint: ZoneRead = {
  name: 'account managed rules entry point',
  endpoint: 'GET /accounts/{account_id}/rulesets/phases/http_request_firewall_managed/entrypoint',
  scope: 'account',
  partitions: ['account_entrypoint'],
  refresh: 'date',
  // A token without the account's rulesets permission still audits every zone's own entry point.
  optional: true,
  // One call per account, shared by its zones: read on every scan, never carried.
  dueByDate: () => true,
  async run(kit, { zone }) {
    const accountId = zone.account?.id;
    const type = typeof accountId === 'string' ? kit.accountType(accountId) : undefined;
    if (typeof accountId !== 'string' || !(type === 'enterprise' || (type === undefined && zone.plan?.legacy_id === 'enterprise'))) {
      kit.skip(zone, 'account_entrypoint', 'account-level entry points deploy managed rules on Enterprise accounts only');
      return;
    }
    const path = `/accounts/${encodeURIComponent(accountId)}/rulesets/phases/http_request_firewall_managed/entrypoint`;
    await kit.readAccountObject(zone, accountId, 'account_entrypoint', path, NO_ENTRYPOINT);
  },
};
