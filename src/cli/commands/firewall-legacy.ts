import { createFirewallRule, retirementNote } from '../../actions/firewall.js';
import { FirewallCreateError, planFirewallRule, type RuleRequest } from '../../actions/firewall-plan.js';
import type { ZoneTarget } from '../../actions/zones.js';
import { EXIT } from '../../common/errors.js';
import { shorten } from '../../common/printable.js';
import type { WriteSession } from '../write-session.js';

/** `firewall create --legacy`: the spec's two calls (the filter, then the rule that references it), or --emergency's one. */
export async function createLegacyRule(
  session: WriteSession,
  zone: ZoneTarget,
  request: RuleRequest,
  quotas: Readonly<Record<string, number>>,
  options: { yes: boolean; emergency: boolean },
  say: (text: string) => void,
): Promise<number> {
  const { yes } = options;
  let plan;
  try {
    plan = await planFirewallRule(session.client, zone, request, quotas);
  } catch (err) {
    const note = retirementNote(err);
    if (note === '') throw err;
    throw new FirewallCreateError(`reading the zone's filters and firewall rules failed: ${(err as Error).message}.${note}`);
  }
  say(`zone ${zone.name} (${zone.plan ?? 'unknown'} plan): ${plan.rules} firewall rule(s)${plan.quota === null ? '' : ` of ${plan.quota} allowed`}`);
  if (plan.existingRuleId) {
    say(`rule ${plan.existingRuleId} already runs this expression with action ${request.action}: nothing to do`);
    return EXIT.ok;
  }
  if (plan.pausedRuleId) say(`rule ${plan.pausedRuleId} does the same but is paused, so it does not count: ${yes ? 'creating' : 'would create'} an active rule (delete the paused one if it is no longer wanted)`);
  const expression = shorten(request.expression, 120);
  say(plan.existingFilterId ? `${yes ? 'reusing' : 'would reuse'} filter ${plan.existingFilterId}: ${expression}` : `${yes ? 'creating' : 'would create'} a filter: ${expression}`);
  say(`${yes ? 'creating' : 'would create'} a rule: action ${request.action}${request.products ? `, skipping ${request.products.join(', ')}` : ''}${request.description ? `, "${request.description}"` : ''}${request.priority !== undefined ? `, priority ${request.priority}` : ''}${options.emergency && !plan.existingFilterId ? ', filter inline (--emergency)' : ''}`);
  if (!yes) {
    say('dry run: nothing was written; add --yes to create it');
    return EXIT.ok;
  }
  let result;
  try {
    result = await createFirewallRule(session.client, session.log, plan, { emergency: options.emergency });
  } catch (err) {
    // A refusal after a write still rescans, so the audit sees a filter left without its rule.
    await session.rescan([zone.name]);
    throw err;
  }
  say(`created rule ${result.ruleId ?? '(id not returned)'}${result.filterId ? ` with filter ${result.filterId}${result.filterReused ? ' (reused)' : ''}` : ' with its filter inline'} on ${zone.name}`);
  await session.rescan([zone.name]);
  return EXIT.ok;
}
