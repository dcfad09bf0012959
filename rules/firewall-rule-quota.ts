import { judgeQuota, PLAN_RULE_QUOTAS } from '../src/policy/checks/plan-quota.js';
import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'firewall-rule-quota',
    title: 'Firewall rules leave headroom under the plan quota',
    description:
      'Each plan allows a fixed number of firewall rules per zone. The vendor has upgraded firewall rules to custom rules, and the firewall rules API now shows the same rules: a zone with custom rules is judged by custom-rules-quota alone, so that no rule counts twice; this rule judges zones whose firewall rules have no custom rules beside them. At the quota, the next rule (often an emergency block during an incident) is refused, and a single-call create may leave its filter behind.',
    severity: 'medium',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone',
    reads: ['custom_entrypoint'],
    messages: {
      atQuota: '{{count}} firewall rules: the {{plan}} plan quota of {{quota}} is reached; the next rule will be refused',
      nearQuota: '{{count}} firewall rules of the {{plan}} plan quota of {{quota}} ({{percent}}%)',
    },
    remediation: 'Merge rules with the same action into one expression, delete unused rules, or move the zone to a plan with a larger quota.',
    references: [
      'API spec: Limits (a rule quota exists for firewall rules)',
      'vendor docs: firewall rules availability (rules per zone by plan)',
      'vendor docs: firewall rules upgrade (firewall rules were upgraded to custom rules; the Firewall Rules API is unsupported since 2025-06-15)',
    ],
    optionHelp: {
      quotas: 'rules allowed per zone, by plan (legacy plan id)',
      warnAt: 'share of the quota (0 to 1) from which a medium finding is raised',
    },
  },
  defaultOptions: { quotas: { ...PLAN_RULE_QUOTAS } as Record<string, number>, warnAt: 0.8 },
  check(ctx) {
    // The vendor upgraded firewall rules to custom rules: where the zone has custom rules, the
    // firewall rules API shows the same rules, and custom-rules-quota counts them once.
    const custom = ctx.zone.customRules();
    if (custom.known && custom.value && custom.value.rules.length > 0) return ctx.pass();
    const rules = ctx.zone.firewallRules();
    if (!rules.known) return ctx.unknown(ctx.zone.resource, rules.reason);
    judgeQuota(ctx, rules.items.length, 'rule', 'firewall-rule-quota');
  },
});
