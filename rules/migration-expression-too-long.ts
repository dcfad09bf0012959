import { MIGRATION_LIMITS, expressionBytes, stillBeforeCheck } from '../src/policy/migration-preview.js';
import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'migration-expression-too-long',
    title: 'Every bypass rule to migrate has an expression within the managed-rules migration\'s 4 KB limit',
    description:
      'The migration carries the firewall rules that bypass the previous managed rules (action bypass, product waf), and fails for a zone where one of them has an expression longer than 4 KB, counted in bytes of UTF-8: an expression well under the rules language\'s 4,096-character limit can still be over it when it holds non-ASCII text. Such a zone needs the vendor\'s support to migrate.',
    severity: 'high',
    category: 'migration',
    scope: 'zone',
    resource: 'firewall_rule',
    messages: {
      tooLong:
        'this bypass rule is to be migrated and its filter expression is {{bytes}} bytes of UTF-8 ({{characters}} characters), over the {{limit}}-byte limit of the managed-rules migration: migrating this zone needs the vendor\'s support',
    },
    remediation:
      'Split the expression over several rules, or replace long lists of values (IP addresses, paths, countries) with an IP list or shorter patterns, until every expression is at most 4,096 bytes.',
    references: ['API spec: Errors, rule 7 (a firewall rule expression longer than 4 KB)', 'API spec: Limits (firewall rule expression length: at most 4 KB)'],
    optionHelp: {
      maxBytes: 'the longest bypass-rule expression, in bytes of UTF-8, the migration carries without the vendor\'s support',
    },
  },
  defaultOptions: { maxBytes: MIGRATION_LIMITS.expressionBytes as number },
  check(ctx) {
    if (!stillBeforeCheck(ctx)) return;

    // Only the rules the migration carries are measured; other firewall rules stay as they are.
    const expressions = ctx.zone.bypassRulesToMigrate();
    if (!expressions.known) return ctx.unknown(ctx.zone.resource, expressions.reason);
    const filters = ctx.zone.filters();
    let flagged = false;
    for (const { rule, expression } of expressions.items) {
      const resource = { type: 'firewall_rule', id: rule.id, name: rule.description || null };
      if (expression === null) {
        // No expression because the filters were not read is unknown; a deleted filter has none to migrate.
        if (!filters.known && !rule.filterDeleted) {
          ctx.unknown(resource, filters.reason);
          flagged = true;
        }
        continue;
      }
      const bytes = expressionBytes(expression);
      if (bytes <= ctx.options.maxBytes) continue;
      ctx.fail(resource, 'tooLong', { bytes, characters: [...expression].length, limit: ctx.options.maxBytes });
      flagged = true;
    }
    if (!flagged) ctx.pass();
  },
});
