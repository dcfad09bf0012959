import { migrationBlockingExpressions } from '../src/policy/checks/migration-long-expressions.js';
import { MIGRATION_LIMITS } from '../src/cloudflare/waf-migration/preview.js';
import { defineRule, type ResourceRef } from '../src/policy/rule.js';
import { passUnlessFailed } from '../src/policy/checks/zone-security.js';

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
      'The rules language accepts expressions of at most 4,096 characters. A longer one cannot be saved again once edited, and blocks the managed-rules migration (which needs the vendor for expressions over 4 KB). One finding a filter: a filter no firewall rule uses runs nowhere and is left to filter-orphaned (delete it, or split it before a rule uses it); when the rules were not read, every filter is judged. On a zone still to migrate to the new managed rules (before its compatibility check), a bypass rule the migration carries whose expression is over the migration\'s 4 KB is left to migration-expression-too-long, which says what it blocks and that it cannot be edited, and so is a filter only such rules use.',
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
    optionHelp: {
      maxCharacters: 'longest expression allowed, in characters (Unicode code points)',
      maxBytes: "migration-expression-too-long's option of that name, which this rule follows (set it there): the bypass rules over it on a zone still to migrate are left to that rule",
    },
    optionsFrom: { rule: 'migration-expression-too-long', options: ['maxBytes'] },
  },
  defaultOptions: { maxCharacters: 4096, maxBytes: MIGRATION_LIMITS.expressionBytes as number },
  check(ctx) {
    const max = ctx.options.maxCharacters;
    const filters = ctx.zone.filters();
    const expressions = ctx.zone.ruleExpressions();
    // Either list alone covers the expressions rules run: every rule's filter is in the filters
    // list, and each rule carries a copy of its filter. Only with neither is nothing known.
    if (!filters.known && !expressions.known) return ctx.unknown(ctx.zone.resource, `${filters.reason}; ${expressions.reason}`);
    passUnlessFailed(ctx, (fail) => {
      const judge = (expression: string | null, messageId: string, resource: () => ResourceRef) => {
        const length = expression === null ? null : lengthOver(expression, max);
        if (length !== null) fail(resource(), messageId, { length, limit: max });
      };
      // The bypass rules that block the migration are migration-expression-too-long's: one expression, one finding.
      const leftToMigration = new Set(migrationBlockingExpressions(ctx.zone, ctx.options.maxBytes).map((b) => b.rule.id));
      if (filters.known) {
        // A filter no rule uses is filter-orphaned's: it runs nowhere, so its length blocks nothing yet.
        // A filter used only by rules left to the migration rule is left with them.
        const rules = ctx.zone.firewallRules();
        const judged = rules.known ? new Set(rules.items.filter((r) => !leftToMigration.has(r.id)).map((r) => r.filterId)) : null;
        for (const f of filters.items) {
          if (judged === null || judged.has(f.id)) judge(f.expression, 'filterTooLong', () => ({ type: 'filter', id: f.id, name: f.description }));
        }
      }
      if (expressions.known) {
        // Rules whose expression was judged with their filter above are not reported twice.
        for (const { rule, filter, expression } of expressions.items) {
          if (filter === null && !leftToMigration.has(rule.id)) judge(expression, 'ruleTooLong', () => ({ type: 'firewall_rule', id: rule.id, name: rule.description || null }));
        }
      }
    });
  },
});
