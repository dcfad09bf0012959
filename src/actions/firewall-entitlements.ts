import { usesRegex } from '../common/expression-text.js';

/** What a zone's plan lets a rule use, checked before any write (vendor docs: firewall rules actions and availability). */

/** What a bypass rule may skip (vendor docs: firewall rules, bypass action). */
export const BYPASS_PRODUCTS = ['zoneLockdown', 'uaBlock', 'bic', 'hot', 'securityLevel', 'rateLimit', 'waf'] as const;

const REGEX_PLANS = new Set(['business', 'enterprise']);

export interface EntitlementRequest {
  expression: string;
  action: string;
  products?: readonly string[];
}

/** Why the request cannot work on this zone, as a one-line message; null when it can (or the plan is not known). */
export function entitlementProblem(zone: { name: string; plan: string | null }, request: EntitlementRequest): string | null {
  const products = request.products ?? [];
  if (request.action === 'bypass' && products.length === 0) {
    return `--action bypass needs --products, the features it skips: some of ${BYPASS_PRODUCTS.join(', ')} (e.g. --products waf)`;
  }
  if (request.action !== 'bypass' && products.length > 0) return `--products applies to --action bypass only; drop it for --action ${request.action}`;
  const unknown = products.filter((p) => !(BYPASS_PRODUCTS as readonly string[]).includes(p));
  if (unknown.length) return `--products ${unknown.join(', ')} is not a product a bypass rule can skip; use some of ${BYPASS_PRODUCTS.join(', ')}`;
  return planProblem(zone, request);
}

/** What the plan does not allow of a rule (vendor docs: custom rules availability: log Enterprise, regex Business and up). */
export function planProblem(zone: { name: string; plan: string | null }, request: { expression: string; action: string }): string | null {
  // An unknown plan is left to the API to judge: refusing could block an entitled zone.
  if (zone.plan === null) return null;
  if (request.action === 'log' && zone.plan !== 'enterprise') {
    return `--action log is available on Enterprise zones only and ${zone.name} is on the ${zone.plan} plan: use another action, e.g. managed_challenge (nothing was written)`;
  }
  if (usesRegex(request.expression) && !REGEX_PLANS.has(zone.plan)) {
    return `the expression uses a regular expression (matches or ~), which needs a Business or Enterprise plan, and ${zone.name} is on the ${zone.plan} plan: use eq, contains, in or wildcard instead (nothing was written)`;
  }
  return null;
}
