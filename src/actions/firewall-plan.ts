import type { ApiClient } from '../api/client.js';
import { LIST_ENDPOINTS } from '../api/endpoints.js';
import { ZonewardenError } from '../common/errors.js';
import { entitlementProblem } from './firewall-entitlements.js';
import { listAll } from './lists.js';
import type { ZoneTarget } from './zones.js';

/**
 * What `firewall create --legacy` checks before anything is written: the request, the quota, and
 * an active filter to reuse or rule that already does the job (paused ones never count).
 */

export const FIREWALL_ACTIONS = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'allow', 'log', 'bypass'] as const;
/** The rules language's limit, in characters (code points). */
export const MAX_EXPRESSION_CHARACTERS = 4096;

export class FirewallCreateError extends ZonewardenError {
  constructor(message: string) {
    super('ZW_FIREWALL_CREATE', message);
  }
}

export interface RuleRequest {
  expression: string;
  action: string;
  description?: string;
  priority?: number;
  /** What a bypass rule skips. */
  products?: string[];
}

export interface FilterItem {
  id?: unknown;
  expression?: unknown;
  paused?: unknown;
}
export interface RuleItem {
  id?: unknown;
  action?: unknown;
  paused?: unknown;
  filter?: { id?: unknown } | null;
}

export interface FirewallPlan {
  zone: ZoneTarget;
  request: RuleRequest;
  /** An active filter with exactly this expression that exists already (left by an earlier run, or shared). */
  existingFilterId: string | null;
  /** An active rule on an active filter that already does exactly this: nothing to do. */
  existingRuleId: string | null;
  /** A paused rule that would do this: it does not count, and is named so the user can remove it. */
  pausedRuleId: string | null;
  /** The zone's filters before this run: a filter not among them after a failure is this run's. */
  knownFilterIds: ReadonlySet<string>;
  rules: number;
  quota: number | null;
}

/** The rules language's own limits, checked before anything is read or written: not empty, at most 4,096 characters. */
export function checkExpressionText(expression: string): void {
  const characters = [...expression].length;
  if (expression.trim() === '') throw new FirewallCreateError('--expression is empty: give the rule expression, e.g. --expression \'ip.src eq 192.0.2.1\'');
  if (characters > MAX_EXPRESSION_CHARACTERS) {
    throw new FirewallCreateError(`the expression is ${characters.toLocaleString('en-US')} characters, over the rules language's limit of 4,096: split it over several rules`);
  }
}

/** Checks before any write: the expression's length, the action, and the zone's quota headroom. */
export async function planFirewallRule(client: ApiClient, zone: ZoneTarget, request: RuleRequest, quotas: Readonly<Record<string, number>>): Promise<FirewallPlan> {
  checkExpressionText(request.expression);
  if (!(FIREWALL_ACTIONS as readonly string[]).includes(request.action)) {
    throw new FirewallCreateError(`--action ${request.action} is not a firewall rule action; use one of ${FIREWALL_ACTIONS.join(', ')}`);
  }
  const problem = entitlementProblem(zone, request);
  if (problem) throw new FirewallCreateError(problem);
  const params = { zone_id: zone.id };
  // Whole lists or none: a short rule list would overstate the quota's headroom.
  const rules = await listAll<RuleItem>(client, LIST_ENDPOINTS.firewallRules, params);
  const filters = await listAll<FilterItem>(client, LIST_ENDPOINTS.filters, params);
  const same = filters.filter((f) => f.expression === request.expression && typeof f.id === 'string');
  const active = same.find((f) => f.paused !== true);
  const paused = same.find((f) => f.paused === true);
  if (!active && paused) {
    // The API refuses a second filter with the same text and would hand back the paused one: a rule on it never matches.
    const users = rules.filter((r) => r.filter?.id === paused.id).map((r) => String(r.id));
    throw new FirewallCreateError(
      `filter ${String(paused.id)} already has this expression but is paused, so a rule on it would never match${users.length ? ` (rules using it: ${users.join(', ')})` : ''}: unpause it with PUT /zones/${zone.id}/filters/${String(paused.id)} {"paused": false} if those rules may run, or delete it, then run the command again (nothing was written)`,
    );
  }
  const existingFilterId = active ? String(active.id) : null;
  const matching = existingFilterId ? rules.filter((r) => r.filter?.id === existingFilterId && r.action === request.action) : [];
  const existingRuleId = (matching.find((r) => r.paused !== true)?.id as string | undefined) ?? null;
  const pausedRuleId = existingRuleId ? null : ((matching.find((r) => r.paused === true)?.id as string | undefined) ?? null);
  const quota = zone.plan === null ? null : (quotas[zone.plan] ?? null);
  if (!existingRuleId && quota !== null && rules.length >= quota) {
    throw new FirewallCreateError(
      `${zone.name} has ${rules.length} firewall rules, the ${zone.plan} plan's quota of ${quota}: delete or merge a rule first (nothing was written)`,
    );
  }
  const knownFilterIds = new Set(filters.map((f) => f.id).filter((id): id is string => typeof id === 'string'));
  return { zone, request, existingFilterId, existingRuleId, pausedRuleId, knownFilterIds, rules: rules.length, quota };
}
