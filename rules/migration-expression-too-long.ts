import { LANGUAGE_MAX_CHARACTERS, migrationBlockingExpressions } from '../src/policy/checks/migration-long-expressions.js';
import { MIGRATION_LIMITS } from '../src/cloudflare/waf-migration/preview.js';
import { stillBeforeCheck } from '../src/policy/checks/migration-checks.js';
import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'migration-expression-too-long',
    title: 'Every bypass rule to migrate has an expression within the managed-rules migration\'s 4 KB limit',
    description:
      'The migration carries the firewall rules that bypass the previous managed rules (action bypass, product waf), and fails for a zone where one of them has an expression longer than 4 KB, counted in bytes of UTF-8: an expression well under the rules language\'s 4,096-character limit can still be over it when it holds non-ASCII text. Such a zone needs the vendor\'s support to migrate. One problem, one finding: such a rule (and a filter only such rules use) is reported here, not by firewall-expression-too-long, and the finding says when the expression is also over the rules language\'s 4,096 characters (the rule cannot be saved again once edited).',
    severity: 'high',
    category: 'migration',
    scope: 'zone',
    resource: 'firewall_rule',
    messages: {
      tooLong:
        'this bypass rule is to be migrated and its filter expression is {{bytes}} bytes of UTF-8 ({{characters}} characters), over the {{limit}}-byte limit of the managed-rules migration: migrating this zone needs the vendor\'s support',
      tooLongToEdit:
        'this bypass rule is to be migrated and its filter expression is {{bytes}} bytes of UTF-8 ({{characters}} characters), over the {{limit}}-byte limit of the managed-rules migration: migrating this zone needs the vendor\'s support; being over the rules language\'s {{languageLimit}} characters too, the rule cannot be saved again once edited',
    },
    remediation:
      'Split the expression over several rules, or replace long lists of values (IP addresses, paths, countries) with an IP list or shorter patterns, until every expression is at most 4,096 bytes.',
    references: [
      'API spec: Errors, rule 7 (a firewall rule expression longer than 4 KB)',
      'API spec: Limits (firewall rule expression length: at most 4 KB)',
      'vendor docs: Rule expression length limit of the rules language: 4,096 characters',
    ],
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
    // No expression because the filters were not read is unknown; a deleted filter has none to migrate.
    for (const { rule, expression } of expressions.items) {
      if (expression !== null || filters.known || rule.filterDeleted) continue;
      ctx.unknown({ type: 'firewall_rule', id: rule.id, name: rule.description || null }, filters.reason);
      flagged = true;
    }
    // The rules over the limit, as firewall-expression-too-long leaves them to this rule.
    for (const { rule, expression, bytes } of migrationBlockingExpressions(ctx.zone, ctx.options.maxBytes)) {
      const characters = [...expression].length;
      const messageId = characters > LANGUAGE_MAX_CHARACTERS ? 'tooLongToEdit' : 'tooLong';
      ctx.fail({ type: 'firewall_rule', id: rule.id, name: rule.description || null }, messageId, { bytes, characters, limit: ctx.options.maxBytes, languageLimit: LANGUAGE_MAX_CHARACTERS });
      flagged = true;
    }
    if (!flagged) ctx.pass();
  },
});
