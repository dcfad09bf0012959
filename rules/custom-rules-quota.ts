import { judgeQuota, PLAN_RULE_QUOTAS } from '../src/policy/checks/plan-quota.js';
import { defineRule } from '../src/policy/rule.js';
import { customRulesOrAnswer } from '../src/policy/checks/zone-security.js';

export default defineRule({
  meta: {
    id: 'custom-rules-quota',
    title: 'Custom rules leave headroom under the plan quota',
    description:
      'The custom rules phase (`http_request_firewall_custom`) replaced firewall rules and keeps a per-plan quota of rules per zone. At the quota, the next rule (often an emergency block during an incident) is refused.',
    severity: 'medium',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone',
    reads: ['custom_entrypoint'],
    messages: {
      atQuota: '{{count}} custom rules: the {{plan}} plan quota of {{quota}} is reached; the next rule will be refused',
      nearQuota: '{{count}} custom rules of the {{plan}} plan quota of {{quota}} ({{percent}}%)',
    },
    remediation: 'Merge rules with the same action into one expression (lists help), delete rules no longer needed, or move the zone to a plan with a larger quota.',
    references: ['vendor docs: rulesets (http_request_firewall_custom entry point)', 'vendor docs: custom rules availability (rules per zone by plan)'],
    optionHelp: {
      quotas: 'custom rules allowed per zone, by plan (legacy plan id)',
      warnAt: 'share of the quota (0 to 1) from which a medium finding is raised',
    },
  },
  defaultOptions: { quotas: { ...PLAN_RULE_QUOTAS } as Record<string, number>, warnAt: 0.8 },
  check(ctx) {
    const entrypoint = customRulesOrAnswer(ctx);
    if (!entrypoint) return;
    judgeQuota(ctx, entrypoint.rules.length, 'custom rules', 'custom-rules-quota');
  },
});
