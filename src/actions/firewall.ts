import type { ApiClient } from '../api/client.js';
import { LIST_ENDPOINTS } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import { ZonewardenError } from '../shared/errors.js';
import { listAll } from './lists.js';
import type { ActionLog } from './log.js';
import type { ZoneTarget } from './zones.js';

/**
 * Creating a firewall rule the way the spec recommends: the filter first, through the filters
 * interface, then the rule that references it. Either call can be refused; a filter left without
 * its rule is reported with its id and reused by the next run, so running the same command again
 * finishes the job instead of leaving an orphan behind.
 */

export const FIREWALL_ACTIONS = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'allow', 'log', 'bypass'] as const;
/** The rules language's limit, in characters (code points). */
export const MAX_EXPRESSION_CHARACTERS = 4096;

/** Codes that refuse the rule after an inline filter was already created (spec, Errors 5). */
const QUOTA_EXCEEDED = 10019;
const NOT_ENTITLED = 10020;
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
}

interface FilterItem {
  id?: unknown;
  expression?: unknown;
}
interface RuleItem {
  id?: unknown;
  action?: unknown;
  filter?: { id?: unknown } | null;
}

export interface FirewallPlan {
  zone: ZoneTarget;
  request: RuleRequest;
  /** A filter with exactly this expression that exists already (left by an earlier run, or shared). */
  existingFilterId: string | null;
  /** A rule that already does exactly this: nothing to do. */
  existingRuleId: string | null;
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
  const params = { zone_id: zone.id };
  // Whole lists or none: a short rule list would overstate the quota's headroom.
  const rules = await listAll<RuleItem>(client, LIST_ENDPOINTS.firewallRules, params);
  const filters = await listAll<FilterItem>(client, LIST_ENDPOINTS.filters, params);
  const existingFilterId = (filters.find((f) => f.expression === request.expression)?.id as string | undefined) ?? null;
  const existingRuleId = existingFilterId
    ? ((rules.find((r) => r.filter?.id === existingFilterId && r.action === request.action)?.id as string | undefined) ?? null)
    : null;
  const quota = zone.plan === null ? null : (quotas[zone.plan] ?? null);
  if (!existingRuleId && quota !== null && rules.length >= quota) {
    throw new FirewallCreateError(
      `${zone.name} has ${rules.length} firewall rules, the ${zone.plan} plan's quota of ${quota}: delete or merge a rule first (nothing was written)`,
    );
  }
  return { zone, request, existingFilterId, existingRuleId, rules: rules.length, quota };
}

export interface FirewallResult {
  filterId: string | null;
  filterReused: boolean;
  ruleId: string | null;
}

const COMMAND = 'firewall create';

function ruleBody(request: RuleRequest, filter: Record<string, unknown>): Record<string, unknown>[] {
  return [{ filter, action: request.action, ...(request.description ? { description: request.description } : {}), ...(request.priority !== undefined ? { priority: request.priority } : {}) }];
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

export async function createFirewallRule(client: ApiClient, log: ActionLog, plan: FirewallPlan, options: { emergency: boolean }): Promise<FirewallResult> {
  const { zone, request } = plan;
  const where = { command: COMMAND, zone: { id: zone.id, name: zone.name } };
  const rulesPath = `/zones/${encodeURIComponent(zone.id)}/firewall/rules`;
  const filtersPath = `/zones/${encodeURIComponent(zone.id)}/filters`;
  let filterId = plan.existingFilterId;
  let reused = filterId !== null;

  if (options.emergency && filterId === null) {
    // The single call: filter and rule together. A refusal may still leave the filter behind.
    const inline = { expression: request.expression, ...(request.description ? { description: request.description } : {}) };
    try {
      const answer = await client.request<unknown[]>('POST', rulesPath, { body: ruleBody(request, inline) });
      const ruleId = firstId(answer.result);
      log.record({ ...where, action: 'rule.create', target: { type: 'firewall_rule', id: ruleId, name: request.description ?? null }, outcome: 'ok', detail: { inline: true, action: request.action } });
      return { filterId: null, filterReused: false, ruleId };
    } catch (err) {
      const duplicate = duplicateOf(err);
      if (duplicate === null) {
        const orphan = err instanceof ApiError && (err.hasCode(QUOTA_EXCEEDED) || err.hasCode(NOT_ENTITLED)) ? await findFilter(client, zone.id, request.expression) : null;
        log.recordFailure({ ...where, action: 'rule.create', target: { type: 'firewall_rule', id: null, name: request.description ?? null }, detail: { inline: true, orphanFilterId: orphan } }, err);
        const left = orphan ? ` The filter ${orphan} was created without its rule and is kept: run the same command again to finish with it.` : '';
        throw new FirewallCreateError(`the rule was refused: ${(err as Error).message}.${left}`);
      }
      // The API refused the write as a duplicate: logged as such, and its filter is reused.
      log.recordFailure({ ...where, action: 'rule.create', target: { type: 'firewall_rule', id: null, name: request.description ?? null }, detail: { inline: true, reusedFilterId: duplicate } }, err);
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
    log.recordFailure({ ...where, action: 'rule.create', target: { type: 'firewall_rule', id: null, name: request.description ?? null }, detail: { filterId, filterReused: reused } }, err);
    throw new FirewallCreateError(
      `the filter ${filterId} is in place but the rule was refused: ${(err as Error).message}. The filter is kept: fix the cause and run the same command again to finish with it`,
    );
  }
}

async function findFilter(client: ApiClient, zoneId: string, expression: string): Promise<string | null> {
  try {
    const filters = await listAll<FilterItem>(client, LIST_ENDPOINTS.filters, { zone_id: zoneId });
    const match = filters.find((f) => f.expression === expression)?.id;
    return typeof match === 'string' ? match : null;
  } catch {
    return null;
  }
}
