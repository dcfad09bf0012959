import { firstFew, MIGRATION_LIMITS } from '../src/cloudflare/waf-migration/preview.js';
import { stillBeforeCheck } from '../src/policy/checks/migration-checks.js';
import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'migration-too-many-firewall-rules',
    title: 'The zone has no more bypass rules to migrate than the managed-rules migration can carry',
    description:
      'The migration carries the firewall rules that bypass the previous managed rules (action bypass, product waf) into the new configuration, and fails for a zone with more than 200 of them; such a zone cannot migrate on its own and needs the vendor\'s support, which takes time the retirement of the previous managed rules may not leave. Other firewall rules are not migrated and do not count.',
    severity: 'high',
    category: 'migration',
    scope: 'zone',
    resource: 'zone',
    messages: {
      tooMany:
        '{{count}} firewall rules bypass the previous managed rules and are to be migrated ({{rules}}), more than the {{limit}} the managed-rules migration can carry: migrating this zone needs the vendor\'s support',
    },
    remediation:
      'Merge the bypass rules of the previous managed rules into fewer expressions and delete unused ones until at most 200 remain, or plan the migration with the vendor\'s support.',
    references: ['API spec: Errors, rule 7 (more than 200 firewall rules to migrate)', 'API spec: Limits (firewall rules that can be migrated: at most 200)'],
    optionHelp: {
      maxRules: 'the most bypass rules the migration carries without the vendor\'s support',
    },
  },
  defaultOptions: { maxRules: MIGRATION_LIMITS.firewallRules as number },
  check(ctx) {
    if (!stillBeforeCheck(ctx)) return;

    const bypass = ctx.zone.bypassRulesToMigrate();
    if (!bypass.known) return ctx.unknown(ctx.zone.resource, bypass.reason);
    // Paused bypass rules count: the spec counts the rules with the action, not their state.
    const count = bypass.items.length;
    if (count <= ctx.options.maxRules) return ctx.pass();
    // Named in the order they run, so the first few are the ones a reader finds first in the dashboard.
    const ordered = [...bypass.items].sort((a, b) => (a.rule.priority ?? Infinity) - (b.rule.priority ?? Infinity));
    ctx.fail(ctx.zone.resource, 'tooMany', {
      count,
      limit: ctx.options.maxRules,
      rules: firstFew(ordered.map(({ rule }) => rule.description || rule.id), 3),
      ruleIds: ordered.map(({ rule }) => rule.id),
    });
  },
});
