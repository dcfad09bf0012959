import { defineRule, type ResourceRef } from '../src/policy/rule.js';

/** Counted in code points, as the rules language counts characters: an emoji is one, not two. */
function lengthOver(expression: string, max: number): number | null {
  // A string has at least as many UTF-16 units as code points: most expressions need no count.
  if (expression.length <= max) return null;
  const length = [...expression].length;
  return length > max ? length : null;
}

export default defineRule({
  meta: {
    id: 'firewall-expression-too-long',
    title: 'Firewall expressions stay within the rules language limit',
    description:
      'The rules language accepts expressions of at most 4,096 characters. A longer one cannot be saved again once edited, and blocks the managed-rules migration (which needs the vendor for expressions over 4 KB). One finding a filter: a filter no firewall rule uses runs nowhere and is left to filter-orphaned (delete it, or split it before a rule uses it); when the rules were not read, every filter is judged.',
    severity: 'medium',
    category: 'firewall',
    scope: 'zone',
    resource: 'filter',
    messages: {
      filterTooLong: 'the filter expression is {{length}} characters long, over the limit of {{limit}}',
      ruleTooLong: 'the expression of this firewall rule is {{length}} characters long, over the limit of {{limit}}',
    },
    remediation:
      'Split the expression into several filters and rules, or move long lists of addresses or paths into fewer, broader conditions (ranges, prefixes), until each is within the limit.',
    references: ['vendor docs: Rule expression length limit of the rules language: 4,096 characters', 'API spec: Errors (rule 7) and Limits (expression length for the migration)'],
    optionHelp: { maxCharacters: 'longest expression allowed, in characters (Unicode code points)' },
  },
  defaultOptions: { maxCharacters: 4096 },
  check(ctx) {
    const max = ctx.options.maxCharacters;
    const filters = ctx.zone.filters();
    const expressions = ctx.zone.ruleExpressions();
    // Either list alone covers the expressions rules run: every rule's filter is in the filters
    // list, and each rule carries a copy of its filter. Only with neither is nothing known.
    if (!filters.known && !expressions.known) return ctx.unknown(ctx.zone.resource, `${filters.reason}; ${expressions.reason}`);
    let failed = false;
    const judge = (expression: string | null, messageId: string, resource: () => ResourceRef) => {
      const length = expression === null ? null : lengthOver(expression, max);
      if (length === null) return;
      failed = true;
      ctx.fail(resource(), messageId, { length, limit: max });
    };
    if (filters.known) {
      // A filter no rule uses is filter-orphaned's: it runs nowhere, so its length blocks nothing yet.
      const rules = ctx.zone.firewallRules();
      const used = rules.known ? new Set(rules.items.map((r) => r.filterId)) : null;
      for (const f of filters.items) {
        if (used === null || used.has(f.id)) judge(f.expression, 'filterTooLong', () => ({ type: 'filter', id: f.id, name: f.description }));
      }
    }
    if (expressions.known) {
      // Rules whose expression was judged with their filter above are not reported twice.
      for (const { rule, filter, expression } of expressions.items) {
        if (filter === null) judge(expression, 'ruleTooLong', () => ({ type: 'firewall_rule', id: rule.id, name: rule.description || null }));
      }
    }
    if (!failed) ctx.pass();
  },
});
