import { legacyWafSwitchedOff, WAF_PLAN_DEFAULTS, WAF_PLANS_FROM } from '../src/policy/checks/legacy-waf.js';
import { rulesetNeverRuns, rulesetStanding } from '../src/policy/checks/managed-phase-view.js';
import { MANAGED_RULESET_ID } from '../src/cloudflare/waf-migration/config.js';
import { defineRule } from '../src/policy/rule.js';

const NOT_DEPLOYED = 'managed-ruleset-not-deployed';

export default defineRule({
  meta: {
    id: 'managed-rules-disabled',
    title: 'The zone is protected by managed rules, previous or new',
    description:
      'The managed rules block common attacks (SQL injection, cross-site scripting, known CMS exploits) without anyone writing a rule. With both the previous and the new managed rules disabled, none of that runs and only custom firewall rules stand between the internet and the origin. One problem, one finding: a zone that has not migrated and whose `waf` setting is read off is left to legacy-waf-off, which reports the same fact naming the switch; a migrated zone whose new managed rules are disabled is left to managed-ruleset-not-deployed where that rule runs on it and finds the managed ruleset not running at all (not deployed, its execute rule disabled, skipped for every request, or turned off by a ruleset-wide override), naming the rule to change. This rule reports the zones where the setting was not read, or where neither of those rules states it.',
    severity: 'high',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone',
    messages: {
      neither: 'neither the previous nor the new managed rules are enabled (migration state {{state}}): the zone has no managed-rule protection',
    },
    remediation:
      'Deploy the new managed rules (migrating the zone enables them). The previous managed rules are being retired: switching them back on only bridges the time until the migration.',
    references: ['API spec: Managed-rules migration (status: old and new managed rules enabled or disabled)', 'API spec: States and transitions'],
    optionHelp: {
      plans: "legacy-waf-off's option of that name, which this rule follows (set it there): plans (legacy plan ids) that include managed rules; zones on other plans pass",
      rulesetPlans: "managed-ruleset-not-deployed's `plans`, which this rule follows (set it there): the plans whose migrated zones that rule judges, and this rule leaves to it",
    },
    // Each setting is the rule's that reports what this one leaves to it, so the two agree on the zones.
    optionsFrom: [WAF_PLANS_FROM, { rule: NOT_DEPLOYED, options: ['rulesetPlans'], named: { rulesetPlans: 'plans' } }],
  },
  defaultOptions: { ...WAF_PLAN_DEFAULTS, rulesetPlans: ['pro', 'business', 'enterprise'] as readonly string[] },
  check(ctx) {
    const status = ctx.zone.migrationStatus();
    if (!status.known) return ctx.unknown(ctx.zone.resource, status.reason);
    if (!status.value) return ctx.unknown(ctx.zone.resource, 'the migration status endpoint returned no status');
    const { oldWaf, newWaf, state } = status.value;
    if (oldWaf === 'enabled' || newWaf === 'enabled') return ctx.pass();
    if (oldWaf === 'disabled' && newWaf === 'disabled') {
      // The Free plan never had the previous managed rules: nothing there was switched off.
      const plan = ctx.zone.plan;
      if (plan === null) return ctx.unknown(ctx.zone.resource, 'the zone record does not name its plan, so whether it includes managed rules is not known');
      if (!ctx.options.plans.includes(plan)) return ctx.pass();
      // One fact, one finding: legacy-waf-off reports it, naming the switch that turned them off.
      if (legacyWafSwitchedOff(ctx.zone, ctx.options.plans)) return ctx.pass();
      // One fact, one finding: on a migrated zone, managed-ruleset-not-deployed reports the managed
      // ruleset not running at all, naming the rule (or its absence) that keeps it off. Left to it
      // only where it runs on the zone and finds exactly that; otherwise said here.
      if (ctx.runs(NOT_DEPLOYED) && rulesetNeverRuns(rulesetStanding(ctx.zone, ctx.options.rulesetPlans, MANAGED_RULESET_ID))) return ctx.pass();
      return ctx.fail(ctx.zone.resource, 'neither', { state: state ?? 'not given', oldWaf, newWaf, plan });
    }
    ctx.unknown(ctx.zone.resource, 'the migration status does not say whether the previous and new managed rules are enabled');
  },
});
