import { isBroadExpression, matchesEverything } from '../src/policy/broad-expression.js';
import { defineRule } from '../src/policy/rule.js';
import { customRuleRef, customRulesOrAnswer } from '../src/policy/zone-security.js';

const MANAGED_PHASE = 'http_request_firewall_managed';

/** What a skip rule's action_parameters switch off, in words; null when it skips nothing that protects. */
function skipped(parameters: Record<string, unknown>): string | null {
  const what: string[] = [];
  if (parameters['ruleset'] === 'current') what.push('every later custom rule');
  const phases = Array.isArray(parameters['phases']) ? parameters['phases'].filter((p): p is string => typeof p === 'string') : [];
  if (phases.includes(MANAGED_PHASE)) what.push('the managed rules');
  const others = phases.filter((p) => p !== MANAGED_PHASE);
  if (others.length) what.push(`the phases ${others.join(', ')}`);
  const products = Array.isArray(parameters['products']) ? parameters['products'].filter((p): p is string => typeof p === 'string') : [];
  if (products.length) what.push(`the products ${products.join(', ')}`);
  return what.length ? what.join(' and ') : null;
}

export default defineRule({
  meta: {
    id: 'custom-rules-broad-skip',
    title: 'Skip rules exempt specific traffic, not a whole site',
    description:
      'A custom rule with the `skip` action switches off the rules after it, the managed rules or other security products for the requests it matches. Matched on `true` or on the host name alone, it exempts every request to the site: the protection is still listed but no longer runs.',
    severity: 'high',
    category: 'firewall',
    scope: 'zone',
    resource: 'custom_rule',
    reads: ['custom_entrypoint'],
    messages: { broadSkip: 'custom rule {{rule}} skips {{skipped}} for every request{{scope}} (expression: {{expression}})' },
    remediation:
      'Narrow the skip rule to the traffic that needs the exemption (a source IP list, a path, a verified bot) and to the managed rules that misfire on it, rather than the whole phase.',
    references: ['vendor docs: custom rules (skip action; action_parameters ruleset "current", phases, products)', 'vendor docs: rulesets (managed phase entry point)'],
  },
  defaultOptions: {},
  check(ctx) {
    const entrypoint = customRulesOrAnswer(ctx);
    if (!entrypoint) return;
    let failed = false;
    for (const rule of entrypoint.rules) {
      if (rule.action !== 'skip' || !rule.enabled || !isBroadExpression(rule.expression)) continue;
      const what = skipped(rule.parameters);
      if (!what) continue;
      const expression = rule.expression ?? '(none)';
      const scope = matchesEverything(rule.expression) ? '' : ' to the host';
      ctx.fail(customRuleRef(rule), 'broadSkip', { rule: rule.description || rule.id, skipped: what, scope, expression: expression.length > 120 ? `${expression.slice(0, 117)}...` : expression });
      failed = true;
    }
    if (!failed) ctx.pass();
  },
});
