import type { ApiClient } from '../api/client.js';
import { LIST_ENDPOINTS } from '../api/endpoints.js';
import { ApiAuthError, ApiError, ApiGoneError, ApiRequestError } from '../api/errors.js';
import { FirewallCreateError, type FilterItem, type FirewallPlan, type RuleItem, type RuleRequest } from './firewall-plan.js';
import { listAll } from './lists.js';
import type { ActionLog } from './log.js';

/**
 * `firewall create --legacy`, as the spec recommends: the filter first, then the rule on it. When
 * the rule is refused for good (a 4xx), this run's filter is deleted again (the spec's reverse-order
 * deletion); when the failure may pass (a 5xx, the network), it is kept for the next run to reuse.
 */

const DUPLICATE_FILTER = 10102;
/** The refusal of today's API, seen in the wild: code 10020, `firewallrules.api.maintenance_mode ...`. */
const NOT_ACCEPTED = 10020;

/** What to do instead when the API refused the write because firewall rules are retired; '' otherwise. */
export function retirementNote(err: unknown): string {
  const retired = err instanceof ApiGoneError || (err instanceof ApiError && err.hasCode(NOT_ACCEPTED) && /maintenance_mode/i.test(err.message));
  return retired
    ? ' The vendor retired firewall rules and the filters API on 2025-06-15 (they were upgraded to WAF custom rules), and this API no longer takes them: run the same command without --legacy to write a WAF custom rule through the rulesets API.'
    : '';
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
export const isPermanent = (err: unknown): boolean => err instanceof ApiRequestError || err instanceof ApiAuthError || err instanceof ApiGoneError;

type Where = { command: string; zone: { id: string; name: string } };

/** After the rule step failed: deletes this run's filter when the failure is permanent; says what became of it. */
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
        throw new FirewallCreateError(`the rule was refused: ${(err as Error).message}.${left}${retirementNote(err)}`);
      }
      // The API refused the write as a duplicate: logged as such, and its filter is reused.
      log.recordFailure({ ...where, action: 'rule.create', target: ruleTarget, detail: { inline: true, reusedFilterId: duplicate } }, err);
      await refusePaused(client, zone.id, duplicate);
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
        throw new FirewallCreateError(`the filter was refused, nothing was created: ${(err as Error).message}.${retirementNote(err)}`);
      }
      log.recordFailure({ ...where, action: 'filter.create', target: { type: 'filter', id: null, name: request.description ?? null }, detail: { expression: request.expression, reusedFilterId: duplicate } }, err);
      await refusePaused(client, zone.id, duplicate);
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
    throw new FirewallCreateError(`the rule was refused: ${(err as Error).message}.${settled}${retirementNote(err)}`);
  }
}

/** The filter a duplicate answer names is reused only once read back as active: a rule on a paused one never matches. */
async function refusePaused(client: ApiClient, zoneId: string, filterId: string): Promise<void> {
  let paused: unknown;
  try {
    paused = (await client.get<{ paused?: unknown }>(`/zones/${encodeURIComponent(zoneId)}/filters/${encodeURIComponent(filterId)}`)).result.paused;
  } catch (err) {
    throw new FirewallCreateError(`the API named filter ${filterId} as having this expression, but reading it back to check it is not paused failed (${(err as Error).message}): run the command again (nothing was written)`);
  }
  if (paused === true) {
    throw new FirewallCreateError(`the API named filter ${filterId} as having this expression, and it is paused, so a rule on it would never match: unpause or delete it, then run the command again (nothing was written)`);
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
