import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { CUSTOM_PHASE, readEntrypoint, type CustomRulePlan, type Entrypoint } from './custom-rule-plan.js';
import { isPermanent } from './firewall.js';
import { FirewallCreateError } from './firewall-plan.js';
import type { ActionLog } from './log.js';

/**
 * Writing a WAF custom rule as the vendor documents it (WAF, "Create custom rules via API"): added
 * to the zone's entry point, or the entry point created with it (`POST /zones/{id}/rulesets`). Not
 * a `PUT`, which would replace the rules of an entry point someone created since our read; the
 * create is refused then (400 code 20217 on `/kind`). After a failure that may have passed, the
 * entry point is read back and the rule looked for by its `ref`, so it is never written twice.
 */

export interface CustomRuleResult {
  rulesetId: string | null;
  ruleId: string | null;
  version: string | null;
  /** The write created the zone's entry point. */
  createdEntrypoint: boolean;
  /** The rule was found by its ref after a failure that may have passed: its message. */
  foundAfter?: string;
}

const COMMAND = 'firewall create';
/** Writes tried in all: the first, and one more once reading back showed the first did not land. */
const ATTEMPTS = 2;

/** A failure after which the zone is known unchanged, so there is nothing to rescan (others may have written). */
export class NothingWrittenError extends FirewallCreateError {}

/** The entry point was created by someone else after our read: nothing was written; plan again against it. */
export class EntrypointAppearedError extends NothingWrittenError {}

/** The create's refusal of a second entry point for the phase (in the wild: code 20217, pointer `/kind`, "exceeded maximum number of zone rulesets for phase"). */
const RULESET_VALIDATION = 20217;
export const entrypointExists = (err: unknown): boolean =>
  err instanceof ApiError && err.status === 400 && err.apiErrors.some((e) => e.code === RULESET_VALIDATION && e.pointer === '/kind');

interface Ruleset {
  id?: unknown;
  version?: unknown;
  rules?: Array<{ id?: unknown; ref?: unknown }>;
}

function resultOf(ruleset: Ruleset | null | undefined, ref: string, createdEntrypoint: boolean): CustomRuleResult | null {
  const rule = ruleset?.rules?.find((r) => r.ref === ref);
  if (!ruleset || !rule) return null;
  return {
    rulesetId: typeof ruleset.id === 'string' ? ruleset.id : null,
    ruleId: typeof rule.id === 'string' ? rule.id : null,
    version: typeof ruleset.version === 'string' ? ruleset.version : null,
    createdEntrypoint,
  };
}

/** One write: a rule added to the entry point there is, or the entry point created with it. */
async function write(client: ApiClient, plan: CustomRulePlan, entrypoint: Entrypoint | null): Promise<Ruleset> {
  const zone = encodeURIComponent(plan.zone.id);
  if (entrypoint) {
    const body = { ...plan.rule, ...(plan.position ? { position: plan.position } : {}) };
    return (await client.request<Ruleset>('POST', `/zones/${zone}/rulesets/${encodeURIComponent(entrypoint.id)}/rules`, { body })).result;
  }
  const ruleset = { name: 'default', kind: 'zone', phase: CUSTOM_PHASE, rules: [plan.rule] };
  return (await client.request<Ruleset>('POST', `/zones/${zone}/rulesets`, { body: ruleset })).result;
}

export async function createCustomRule(client: ApiClient, log: ActionLog, plan: CustomRulePlan): Promise<CustomRuleResult> {
  const { zone } = plan;
  const ref = String(plan.rule['ref']);
  const where = { command: COMMAND, zone: { id: zone.id, name: zone.name } };
  const name = plan.request.description ?? null;
  const detail = { phase: CUSTOM_PHASE, ref, action: plan.request.action, enabled: plan.request.enabled, ...(plan.position ? { position: plan.position } : {}) };
  let entrypoint = plan.entrypoint;
  for (let attempt = 1; ; attempt++) {
    const creating = entrypoint === null;
    try {
      const answer = await write(client, plan, entrypoint);
      const result = resultOf(answer, ref, creating) ?? { rulesetId: typeof answer?.id === 'string' ? answer.id : null, ruleId: null, version: null, createdEntrypoint: creating };
      log.record({ ...where, action: 'custom_rule.create', target: { type: 'custom_rule', id: result.ruleId, name }, outcome: 'ok', detail: { ...detail, rulesetId: result.rulesetId, version: result.version, createdEntrypoint: creating } });
      return result;
    } catch (err) {
      log.recordFailure({ ...where, action: 'custom_rule.create', target: { type: 'custom_rule', id: null, name }, detail: { ...detail, createdEntrypoint: creating, attempt } }, err);
      if (creating && entrypointExists(err)) {
        throw new EntrypointAppearedError(`the zone's ${CUSTOM_PHASE} entry point was created by someone else after it was read (nothing was written; run the same command again to add the rule to it)`);
      }
      if (isPermanent(err)) throw new NothingWrittenError(`the custom rule was refused: ${(err as Error).message} (nothing was written)`);
      // The write may have happened: the entry point is read back and the rule looked for by its ref.
      let current: Entrypoint | null;
      try {
        current = await readEntrypoint(client, zone.id);
      } catch (readErr) {
        throw new FirewallCreateError(
          `writing the custom rule failed (${(err as Error).message}) and reading the entry point back to see whether it landed failed too (${(readErr as Error).message}): run the same command again, it looks for the rule (ref ${ref}) before writing`,
        );
      }
      const landed = resultOf(current as Ruleset | null, ref, creating);
      if (landed) {
        const found = { ...landed, foundAfter: (err as Error).message };
        log.record({ ...where, action: 'custom_rule.create', target: { type: 'custom_rule', id: landed.ruleId, name }, outcome: 'ok', detail: { ...detail, rulesetId: landed.rulesetId, version: landed.version, readBackAfter: (err as Error).message } });
        return found;
      }
      if (attempt >= ATTEMPTS) {
        throw new NothingWrittenError(`writing the custom rule failed ${attempt} times (last: ${(err as Error).message}) and the entry point does not have it (ref ${ref}): nothing was written; run the same command again later`);
      }
      // Our create did not land, yet the zone has an entry point now: someone else's, planned against again.
      if (creating && current) throw new EntrypointAppearedError(`the zone's ${CUSTOM_PHASE} entry point was created by someone else while the create failed (${(err as Error).message}; nothing was written)`);
      entrypoint = current;
    }
  }
}
