import { defineRule } from '../src/policy/rule.js';
import { legacyWafSwitchedOff, WAF_PLAN_DEFAULTS } from '../src/policy/checks/legacy-waf.js';
import { settingOrAnswer } from '../src/policy/checks/zone-security.js';

export default defineRule({
  meta: {
    id: 'legacy-waf-off',
    title: 'A paid zone that has not migrated keeps its previous WAF switched on',
    description:
      'Until a zone migrates to the new managed rules, the legacy `waf` setting switches its previous managed rules on or off as a whole. Off on a paid zone means the rules it pays for do not run; a migrated zone no longer has the switch. One problem, one finding: such a zone runs no managed rules at all (before the migration the new ones are not enabled), which this rule reports, naming the switch; managed-rules-disabled leaves the zone to it.',
    severity: 'high',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone',
    reads: ['setting:waf'],
    messages: { off: 'the WAF setting is off on this {{plan}} zone, which has not migrated: its managed rules do not run' },
    remediation: 'Migrate the zone to the new managed rules (they are deployed by the migration), or until then turn the WAF setting on (`PATCH /zones/{zone_id}/settings/waf` with `on`).',
    references: ['vendor docs: zone settings (waf: on, off; paid plans)', 'API spec: Managed-rules migration'],
    optionHelp: { plans: 'plans (legacy plan ids) whose zones have the WAF setting; zones on other plans pass (managed-rules-disabled follows it)' },
  },
  defaultOptions: WAF_PLAN_DEFAULTS,
  check(ctx) {
    const plan = ctx.zone.plan;
    if (plan !== null && !ctx.options.plans.includes(plan)) return ctx.pass();
    const migration = ctx.zone.migration();
    if (!migration.known) return ctx.unknown(ctx.zone.resource, migration.reason);
    // After the migration the switch is gone: managed-ruleset-not-deployed judges the new rules.
    if (migration.value?.migrated) return ctx.pass();
    if (plan === null) return ctx.unknown(ctx.zone.resource, 'the zone record does not name its plan, so whether it has the WAF setting is not known');
    const setting = settingOrAnswer(ctx, 'waf');
    if (!setting) return;
    if (legacyWafSwitchedOff(ctx.zone, ctx.options.plans)) return ctx.fail(ctx.zone.resource, 'off', { plan });
    ctx.pass();
  },
});
