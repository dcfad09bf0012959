import type { RequestContext } from '../http/context.js';
import { CODES, fail, ok } from '../http/envelope.js';
import type { Route } from '../http/router.js';
import { MANAGED_PHASE } from '../security.js';
import { accountFor } from './lookup.js';

/**
 * The account-level managed entry point, `GET /accounts/{account_id}/rulesets/phases/
 * http_request_firewall_managed/entrypoint` (vendor's API reference: account rulesets, get an
 * account entry point ruleset): a ruleset of `kind: "root"` whose rules deploy managed rules to the
 * account's zones. Enterprise accounts only (vendor docs: WAF, deploy managed rulesets at the account
 * level). Before any rule is written: 404 code 10003, as for a zone's entry point. A non-Enterprise
 * account: 403 code 10000 "Authentication error", the emulator's guess (the vendor does not publish
 * the answer; 10000 is what the API answers when the caller may not use a feature in the wild).
 */
function getAccountManagedEntrypoint(ctx: RequestContext) {
  const account = accountFor(ctx);
  if (account.type !== 'enterprise') throw fail(403, CODES.authentication, 'Authentication error');
  if (!account.managedEntrypoint) throw fail(404, CODES.rulesetNotFound, `could not find entrypoint ruleset in the ${MANAGED_PHASE} phase`);
  return ok(account.managedEntrypoint);
}

/**
 * `GET /accounts/{account_id}/alerting/v3/policies` (vendor's API reference: Notification policies,
 * list): every policy of the account in one answer, unpaged (the vendor's SDKs read it as a single page).
 */
function listNotificationPolicies(ctx: RequestContext) {
  const account = accountFor(ctx);
  return ok((account.notificationPolicies ?? []).map((p) => ({ ...p, filters: { ...p.filters } })));
}

export const accountRulesetRoutes: Route[] = [
  { method: 'GET', template: '/accounts/{account_id}/alerting/v3/policies', handler: listNotificationPolicies },
  { method: 'GET', template: `/accounts/{account_id}/rulesets/phases/${MANAGED_PHASE}/entrypoint`, handler: getAccountManagedEntrypoint },
];
