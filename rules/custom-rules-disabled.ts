import { defineRule } from '../src/policy/rule.js';
import { customRuleRef, customRulesOrAnswer, passUnlessFailed } from '../src/policy/checks/zone-security.js';

export default defineRule({
  meta: {
    id: 'custom-rules-disabled',
    title: 'Custom rules that are kept are enabled',
    description:
      'A disabled custom rule protects nothing yet counts against the plan quota, and reads as protection to anyone reviewing the rule list. Either it is needed and should run, or it should go. A disabled rule whose expression is over the limit is also reported by custom-rules-expression-too-long: two problems, and enabling it, an edit, needs the expression split first.',
    severity: 'low',
    category: 'firewall',
    scope: 'zone',
    resource: 'custom_rule',
    reads: ['custom_entrypoint'],
    messages: { disabled: 'custom rule {{rule}} ({{action}}) is disabled' },
    remediation: 'Enable the rule if its protection is wanted, else delete it from the entry point.',
    references: ['vendor docs: rulesets (rule enabled, default true)'],
  },
  defaultOptions: {},
  check(ctx) {
    const entrypoint = customRulesOrAnswer(ctx);
    if (!entrypoint) return;
    passUnlessFailed(ctx, (fail) => {
      for (const rule of entrypoint.rules) {
        if (!rule.enabled) fail(customRuleRef(rule), 'disabled', { rule: rule.description || rule.id, action: rule.action ?? 'no action' });
      }
    });
  },
});
