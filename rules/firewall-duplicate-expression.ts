import { createHash } from 'node:crypto';
import { defineRule } from '../src/policy/rule.js';
import { normaliseExpression } from '../src/common/expression-text.js';
import { shorten } from '../src/common/printable.js';
import { passUnlessFailed } from '../src/policy/checks/zone-security.js';
import type { FirewallRule } from '../src/policy/zone-view.js';

const SHOWN = 5;

const label = (rule: FirewallRule): string => (rule.description ? `${shorten(rule.description, 60)} (${rule.id})` : rule.id);

/**
 * Whether rules sharing one expression duplicate each other: rules on one filter with different
 * actions are the spec's recommended reuse; two filters, or one action twice on a filter, are not.
 */
function duplicated(rules: FirewallRule[]): boolean {
  const filters = new Set<string>();
  const uses = new Set<string>();
  for (const rule of rules) {
    const filter = rule.filterId ?? `rule:${rule.id}`;
    const use = `${filter}\u0000${rule.action ?? ''}`;
    if (uses.has(use)) return true;
    filters.add(filter);
    uses.add(use);
  }
  return filters.size > 1;
}

export default defineRule({
  meta: {
    id: 'firewall-duplicate-expression',
    title: 'Each firewall expression is written once',
    description:
      'Rules that repeat one expression drift apart: the next edit fixes one copy and leaves the other, and the rule that runs first silently decides what the later ones ever see. They also spend the plan rule quota.',
    severity: 'low',
    category: 'firewall',
    scope: 'zone',
    resource: 'expression',
    messages: {
      duplicate: '{{count}} firewall rules run this expression: {{rules}}',
    },
    remediation:
      'Keep one filter for the expression and reference it from every rule that needs it (one rule per action); delete the redundant rules and their filters.',
    references: [
      'API spec: Endpoints, Firewall rules (rule 3: one filter reused by several rules)',
      'API spec: Resources and their fields (Filter)',
      'vendor docs: rules language (whitespace separates tokens; string literals are compared exactly)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const expressions = ctx.zone.ruleExpressions();
    if (!expressions.known) return ctx.unknown(ctx.zone.resource, expressions.reason);
    const byExpression = new Map<string, FirewallRule[]>();
    for (const { rule, expression } of expressions.items) {
      if (expression === null) continue;
      // Whitespace between tokens is not significant; inside a quoted string it is part of the value.
      const key = normaliseExpression(expression);
      if (key === '') continue;
      const group = byExpression.get(key);
      if (group) group.push(rule);
      else byExpression.set(key, [rule]);
    }
    passUnlessFailed(ctx, (fail) => {
      for (const [expression, rules] of byExpression) {
        if (rules.length < 2 || !duplicated(rules)) continue;
        const shown = rules.slice(0, SHOWN).map(label);
        if (rules.length > SHOWN) shown.push(`and ${rules.length - SHOWN} more`);
        // The id is the expression's hash: the same duplicate keeps its fingerprint from scan to scan.
        const id = createHash('sha256').update(expression).digest('hex').slice(0, 16);
        fail({ type: 'expression', id, name: shorten(expression, 80) }, 'duplicate', { count: rules.length, rules: shown, ruleIds: rules.map((r) => r.id) });
      }
    });
  },
});
