import { defineRule } from '../src/policy/rule.js';
import { customRuleRef, customRulesOrAnswer, passUnlessFailed } from '../src/policy/checks/zone-security.js';

export default defineRule({
  meta: {
    id: 'custom-rules-expression-too-long',
    title: 'Custom rule expressions stay within the 4,096-character limit',
    description:
      'A rule expression may be at most 4,096 characters, as for firewall rules. A rule over it (written before the limit was enforced, or through another path) cannot be updated as it is: the next edit is refused until it is split. A disabled rule over the limit is also reported by custom-rules-disabled: two problems, each with its own fix.',
    severity: 'medium',
    category: 'firewall',
    scope: 'zone',
    resource: 'custom_rule',
    reads: ['custom_entrypoint'],
    messages: { tooLong: 'the expression of custom rule {{rule}} is {{length}} characters, over the limit of {{limit}}' },
    remediation: 'Split the rule into several with the same action, or move long value sets into a list (`$list_name`) the expression refers to.',
    references: ['vendor docs: rulesets (rule expression)', 'API spec: Limits (expressions of at most 4,096 characters)'],
    optionHelp: { limit: 'the longest expression allowed, in characters' },
  },
  defaultOptions: { limit: 4096 },
  check(ctx) {
    const entrypoint = customRulesOrAnswer(ctx);
    if (!entrypoint) return;
    passUnlessFailed(ctx, (fail) => {
      for (const rule of entrypoint.rules) {
        const length = rule.expression?.length ?? 0;
        if (length > ctx.options.limit) fail(customRuleRef(rule), 'tooLong', { rule: rule.description || rule.id, length, limit: ctx.options.limit });
      }
    });
  },
});
