import type { RequestContext } from '../http/context.js';
import { CODES, fail, ok } from '../http/envelope.js';
import type { Route } from '../http/router.js';
import { MANAGED_PHASE } from '../security.js';
import { accountFor, entrypointOrMissing } from './lookup.js';

/**
 * The account's managed entry point (vendor's API reference: get an account entry point ruleset),
 * `kind: "root"`, Enterprise accounts only (vendor docs: WAF, deploy managed rulesets at the account
 * level). Another account: 403 code 10000, the emulator's guess (what the API answers in the wild
 * when the caller may not use a feature).
 */
function getAccountManagedEntrypoint(ctx: RequestContext) {
  const account = accountFor(ctx);
  if (account.type !== 'enterprise') throw fail(403, CODES.authentication, 'Authentication error');
  return ok(entrypointOrMissing(account.managedEntrypoint, MANAGED_PHASE));
}

/** vendor's API reference: Notification policies, list: every policy in one answer (the vendor's SDKs read one page). */
function listNotificationPolicies(ctx: RequestContext) {
  return ok((accountFor(ctx).notificationPolicies ?? []).map((p) => ({ ...p, filters: { ...p.filters } })));
}

export const accountRulesetRoutes: Route[] = [
  { method: 'GET', template: '/accounts/{account_id}/alerting/v3/policies', handler: listNotificationPolicies },
  { method: 'GET', template: `/accounts/{account_id}/rulesets/phases/${MANAGED_PHASE}/entrypoint`, handler: getAccountManagedEntrypoint },
];
