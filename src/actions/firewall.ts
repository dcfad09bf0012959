import type { ApiClient } from '../api/client.js';
import { LIST_ENDPOINTS } from '../api/endpoints.js';
import { ApiAuthError, ApiError, ApiRequestError } from '../api/errors.js';
import { ZonewardenError } from '../shared/errors.js';
import { entitlementProblem } from './firewall-entitlements.js';
import { listAll } from './lists.js';
import type { ActionLog } from './log.js';
import type { ZoneTarget } from './zones.js';

/**
 * Creating a firewall rule the way the spec recommends: the filter first, through the filters
 * interface, then the rule that references it. What the plan allows is checked before anything is
 * written. When the rule is then refused for good (a 4xx: quota, a missing feature, a bad field),
 * the filter this run created is deleted again (the spec's reverse-order deletion); when the
 * failure may pass (a 5xx, the network), the filter is kept and the next run reuses it. A paused
 * filter or rule never counts as doing the job: an emergency block on it would never match.
 */

export const FIREWALL_ACTIONS = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'allow', 'log', 'bypass'] as const;
/** The rules language's limit, in characters (code points). */
export const MAX_EXPRESSION_CHARACTERS = 4096;

const DUPLICATE_FILTER = 10102;

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

interface FilterItem {
  id?: unknown;
  expression?: unknown;
  paused?: unknown;
}
interface RuleItem {
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

/** Checks before any write: the expression's length, the action, and the zone's quota headroom. */
export async function planFirewallRule(client: ApiClient, zone: ZoneTarget, request: RuleRequest, quotas: Readonly<Record<string, number>>): Promise<FirewallPlan> {
  const characters = [...request.expression].length;
  if (request.expression.trim() === '') throw new FirewallCreateError('--expression is empty: give the filter expression, e.g. --expression \'ip.src eq 192.0.2.1\'');
  if (characters > MAX_EXPRESSION_CHARACTERS) {
    throw new FirewallCreateError(`the expression is ${characters.toLocaleString('en-US')} characters, over the rules language's limit of 4,096: split it over several rules`);
  }
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

export interface FirewallResult {
  filterId: string | null;
  filterReused: boolean;
  ruleId: string | null;
}

const COMMAND = 'firewall create';

function ruleBody(request: RuleRequest, filter: Record<string, unknown>): Record<string, unknown>[] {
  return [
    {
      filter,
      action: request.action,
      ...(request.products?.length ? { products: request.products } : {}),
      ...(request.description ? { description: request.description } : {}),
      ...(request.priority !== undefined ? { priority: request.priority } : {}),
    },
  ];
}

function firstId(result: unknown): string | null {
  const first = Array.isArray(result) ? (result[0] as { id?: unknown } | undefined) : undefined;
  return typeof first?.id === 'string' ? first.id : null;
}

/** The existing filter an error 10102 names in `meta.id`. */
function duplicateOf(err: unknown): string | null {
  if (!(err instanceof ApiError) || !err.hasCode(DUPLICATE_FILTER)) return null;
  const id = err.apiErrors.find((e) => e.code === DUPLICATE_FILTER)?.meta?.['id'];
  return typeof id === 'string' ? id : null;
}

/** A refusal a retry will not change (a 4xx or `success: false`): unlike a 5xx or a lost connection. */
const isPermanent = (err: unknown): boolean => err instanceof ApiRequestError || err instanceof ApiAuthError;

type Where = { command: string; zone: { id: string; name: string } };

/**
 * After the rule step failed: deletes the filter this run created when the failure is permanent,
 * and says what happened to it (the end of the error message).
 */
async function settleFilter(client: ApiClient, log: ActionLog, where: Where, filterId: string, err: unknown): Promise<string> {
  if (!isPermanent(err)) return ` The filter ${filterId} is kept: the failure may pass, and running the same command again finishes the job with it.`;
  try {
    await client.request('DELETE', `/zones/${encodeURIComponent(where.zone.id)}/filters/${encodeURIComponent(filterId)}`);
    log.record({ ...where, action: 'filter.delete', target: { type: 'filter', id: filterId, name: null }, outcome: 'ok', detail: { reason: 'its rule was refused' } });
    return ` The filter ${filterId} this run created was deleted again: nothing is left behind.`;
  } catch (deleteErr) {
    log.recordFailure({ ...where, action: 'filter.delete', target: { type: 'filter', id: filterId, name: null }, detail: { reason: 'its rule was refused', orphanFilterId: filterId } }, deleteErr);
    return ` Deleting the filter ${filterId} this run created failed too (${(deleteErr as Error).message}): it is left without a rule; delete it (DELETE /zones/${where.zone.id}/filters/${filterId}) or run the same command again to use it.`;
  }
}

export async function createFirewallRule(client: ApiClient, log: ActionLog, plan: FirewallPlan, options: { emergency: boolean }): Promise<FirewallResult> {
  const { zone, request } = plan;
  const where = { command: COMMAND, zone: { id: zone.id, name: zone.name } };
  const rulesPath = `/zones/${encodeURIComponent(zone.id)}/firewall/rules`;
  const filtersPath = `/zones/${encodeURIComponent(zone.id)}/filters`;
  const ruleTarget = { type: 'firewall_rule', id: null, name: request.description ?? null };
  let filterId = plan.existingFilterId;
  let reused = filterId !== null;

  if (options.emergency && filterId === null) {
    // The single call: filter and rule together. A refusal may still leave the filter behind (spec, Errors 5).
    const inline = { expression: request.expression, ...(request.description ? { description: request.description } : {}) };
    try {
      const answer = await client.request<unknown[]>('POST', rulesPath, { body: ruleBody(request, inline) });
      const ruleId = firstId(answer.result);
      log.record({ ...where, action: 'rule.create', target: { type: 'firewall_rule', id: ruleId, name: request.description ?? null }, outcome: 'ok', detail: { inline: true, action: request.action } });
      return { filterId: null, filterReused: false, ruleId };
    } catch (err) {
      const duplicate = duplicateOf(err);
      if (duplicate === null) {
        // Read back rather than trust error codes the spec does not list: a filter that was not there before is this run's.
        const orphan = await findNewFilter(client, zone.id, request.expression, plan.knownFilterIds);
        const landed = typeof orphan === 'string' ? await findRule(client, zone.id, orphan, request.action) : null;
        if (typeof orphan === 'string' && landed) return landedAfterAll(log, where, { filterId: orphan, filterReused: false, ruleId: landed }, err);
        log.recordFailure({ ...where, action: 'rule.create', target: ruleTarget, detail: { inline: true, orphanFilterId: orphan } }, err);
        const left =
          orphan === undefined
            ? ` Whether the call left a filter behind could not be read back: look for a filter with this expression (zonewarden api /zones/${zone.id}/filters) before running again.`
            : orphan === null
              ? ''
              : await settleFilter(client, log, where, orphan, err);
        throw new FirewallCreateError(`the rule was refused: ${(err as Error).message}.${left}`);
      }
      // The API refused the write as a duplicate: logged as such, and its filter is reused.
      log.recordFailure({ ...where, action: 'rule.create', target: ruleTarget, detail: { inline: true, reusedFilterId: duplicate } }, err);
      filterId = duplicate;
      reused = true;
    }
  }

  if (filterId === null) {
    const body = [{ expression: request.expression, ...(request.description ? { description: request.description } : {}) }];
    try {
      const answer = await client.request<unknown[]>('POST', filtersPath, { body });
      filterId = firstId(answer.result);
      log.record({ ...where, action: 'filter.create', target: { type: 'filter', id: filterId, name: request.description ?? null }, outcome: 'ok', detail: { expression: request.expression } });
    } catch (err) {
      const duplicate = duplicateOf(err);
      if (duplicate === null) {
        log.recordFailure({ ...where, action: 'filter.create', target: { type: 'filter', id: null, name: request.description ?? null }, detail: { expression: request.expression } }, err);
        throw new FirewallCreateError(`the filter was refused, nothing was created: ${(err as Error).message}`);
      }
      log.recordFailure({ ...where, action: 'filter.create', target: { type: 'filter', id: null, name: request.description ?? null }, detail: { expression: request.expression, reusedFilterId: duplicate } }, err);
      filterId = duplicate;
      reused = true;
    }
    if (filterId === null) throw new FirewallCreateError('the API created the filter but did not say its id: look for it with zonewarden api /zones/ZONE/filters before running again');
  }

  try {
    const answer = await client.request<unknown[]>('POST', rulesPath, { body: ruleBody(request, { id: filterId }) });
    const ruleId = firstId(answer.result);
    log.record({ ...where, action: 'rule.create', target: { type: 'firewall_rule', id: ruleId, name: request.description ?? null }, outcome: 'ok', detail: { filterId, filterReused: reused, action: request.action } });
    return { filterId, filterReused: reused, ruleId };
  } catch (err) {
    // A write that failed in transit may have happened: read back before deciding anything.
    const landed = isPermanent(err) ? null : await findRule(client, zone.id, filterId, request.action);
    if (landed) return landedAfterAll(log, where, { filterId, filterReused: reused, ruleId: landed }, err);
    log.recordFailure({ ...where, action: 'rule.create', target: ruleTarget, detail: { filterId, filterReused: reused } }, err);
    // A filter that was there before (shared, or an earlier run's) is never deleted.
    const settled = reused ? ` The filter ${filterId} was there before and is kept.` : await settleFilter(client, log, where, filterId, err);
    throw new FirewallCreateError(`the rule was refused: ${(err as Error).message}.${settled}`);
  }
}

/** The rule call failed in transit but the rule is there: recorded as created, with the error it came through. */
function landedAfterAll(log: ActionLog, where: Where, result: FirewallResult, err: unknown): FirewallResult {
  log.record({ ...where, action: 'rule.create', target: { type: 'firewall_rule', id: result.ruleId, name: null }, outcome: 'ok', detail: { filterId: result.filterId, readBackAfter: (err as Error).message } });
  return result;
}

/** A filter with this expression that was not among `known`: the one a failed inline call left. Null when none, undefined when reading fails. */
async function findNewFilter(client: ApiClient, zoneId: string, expression: string, known: ReadonlySet<string>): Promise<string | null | undefined> {
  try {
    const filters = await listAll<FilterItem>(client, LIST_ENDPOINTS.filters, { zone_id: zoneId });
    const match = filters.find((f) => f.expression === expression && typeof f.id === 'string' && !known.has(f.id))?.id;
    return typeof match === 'string' ? match : null;
  } catch {
    return undefined;
  }
}

/** An active rule with this action on this filter, read back; null when none, or when reading fails. */
async function findRule(client: ApiClient, zoneId: string, filterId: string, action: string): Promise<string | null> {
  try {
    const rules = await listAll<RuleItem>(client, LIST_ENDPOINTS.firewallRules, { zone_id: zoneId });
    const match = rules.find((r) => r.filter?.id === filterId && r.action === action && r.paused !== true)?.id;
    return typeof match === 'string' ? match : null;
  } catch {
    return null;
  }
}
