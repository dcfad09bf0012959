import { createCustomRule, EntrypointAppearedError, NothingWrittenError, type CustomRuleResult } from '../../actions/custom-rule.js';
import { planCustomRule, type CustomRulePlan, type CustomRuleRequest } from '../../actions/custom-rule-plan.js';
import type { ZoneTarget } from '../../actions/zones.js';
import { EXIT } from '../../common/errors.js';
import { shorten } from '../../common/printable.js';
import type { WriteSession } from '../write-session.js';

/** Where the rule goes, as the dry run says it. */
function where(plan: CustomRulePlan): string {
  const position = plan.request.position;
  if (position === undefined) return 'last';
  if (!('rule' in position) || !plan.position) return position.kind;
  return 'before' in plan.position ? `before rule ${plan.position.before}` : `after rule ${plan.position.after}`;
}

/** `firewall create` (today's API): a WAF custom rule, added to the zone's custom rules entry point or created with it. */
export async function createCustom(
  session: WriteSession,
  zone: ZoneTarget,
  request: CustomRuleRequest,
  quotas: Readonly<Record<string, number>>,
  yes: boolean,
  say: (text: string) => void,
): Promise<number> {
  const plan = await planCustomRule(session.client, zone, request, quotas);
  say(`zone ${zone.name} (${zone.plan ?? 'unknown'} plan): ${plan.rules} custom rule(s)${plan.quota === null ? '' : ` of ${plan.quota} allowed`}`);
  if (plan.existing) {
    const state = plan.existing.enabled === false ? ' (disabled, as asked)' : '';
    say(`custom rule ${String(plan.existing.id)}${state} already runs this expression with action ${request.action}: nothing to do`);
    return EXIT.ok;
  }
  const doing = yes ? 'creating' : 'would create';
  if (plan.disabled) say(`custom rule ${String(plan.disabled.id)} does the same but is disabled, so it does not count: ${doing} an enabled rule (delete the disabled one if it is no longer wanted)`);
  const params = plan.rule['action_parameters'] ? `, skipping ${JSON.stringify(plan.rule['action_parameters'])}` : '';
  const what = `action ${request.action}${params}${request.description ? `, "${request.description}"` : ''}${request.enabled ? '' : ', disabled'}, ref ${String(plan.rule['ref'])}`;
  say(
    plan.entrypoint
      ? `${yes ? 'adding' : 'would add'} a custom rule to entry point ${plan.entrypoint.id} (${where(plan)}): ${what}`
      : `${doing} the zone's custom rules entry point with the rule: ${what}`,
  );
  say(`expression: ${shorten(request.expression, 120)}`);
  if (!yes) {
    say('dry run: nothing was written; add --yes to create it');
    return EXIT.ok;
  }
  let result: CustomRuleResult;
  try {
    result = await writeRule(session, zone, plan);
  } catch (err) {
    if (err instanceof EntrypointAppearedError) return await replanned(session, zone, request, quotas, say, err);
    throw err;
  }
  return await created(session, zone, result, say);
}

/** The write; a failure after which the rule may be there after all rescans, so the database shows what the zone has. */
async function writeRule(session: WriteSession, zone: ZoneTarget, plan: CustomRulePlan): Promise<CustomRuleResult> {
  try {
    return await createCustomRule(session.client, session.log, plan);
  } catch (err) {
    if (!(err instanceof NothingWrittenError)) await session.rescan([zone.name]);
    throw err;
  }
}

async function created(session: WriteSession, zone: ZoneTarget, result: CustomRuleResult, say: (text: string) => void): Promise<number> {
  const found = result.foundAfter ? ` (its answer was lost: ${result.foundAfter}; found by its ref)` : '';
  say(`created custom rule ${result.ruleId ?? '(id not returned)'} on ${zone.name}: entry point ${result.rulesetId ?? '(id not returned)'}${result.createdEntrypoint ? ' (created)' : ''}, version ${result.version ?? '?'}${found}`);
  await session.rescan([zone.name]);
  return EXIT.ok;
}

/**
 * The entry point appeared between our read and the create, which was refused: the rule is planned again against it
 * and added to it. Once: a second race is reported, not chased.
 */
async function replanned(
  session: WriteSession,
  zone: ZoneTarget,
  request: CustomRuleRequest,
  quotas: Readonly<Record<string, number>>,
  say: (text: string) => void,
  appeared: EntrypointAppearedError,
): Promise<number> {
  say(`${appeared.message}: reading it again`);
  // Planned again as at first: an identical rule means nothing to do; the quota and --position are refused before any write.
  const plan = await planCustomRule(session.client, zone, request, quotas);
  if (plan.existing) {
    say(`custom rule ${String(plan.existing.id)} of the new entry point already runs this expression with action ${request.action}: nothing to do`);
    return EXIT.ok;
  }
  say(plan.entrypoint ? `adding the custom rule to entry point ${plan.entrypoint.id} (${where(plan)}), ref ${String(plan.rule['ref'])}` : `the entry point is gone again: creating it with the rule`);
  return await created(session, zone, await writeRule(session, zone, plan), say);
}
