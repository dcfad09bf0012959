import { MIGRATION_LIMITS, stillToMigrate } from '../src/policy/migration-preview.js';
import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'migration-too-many-firewall-rules',
    title: 'The zone has no more firewall rules than the managed-rules migration can carry',
    description:
      'The migration to the new managed rules fails for a zone with more than 200 firewall rules; such a zone cannot migrate on its own and needs the vendor\'s support, which takes time the retirement of the previous managed rules may not leave.',
    severity: 'high',
    category: 'migration',
    scope: 'zone',
    resource: 'zone',
    messages: {
      tooMany: '{{count}} firewall rules, more than the {{limit}} the managed-rules migration can carry: migrating this zone needs the vendor\'s support',
    },
    remediation:
      'Merge firewall rules with the same action into one expression and delete unused ones until at most 200 remain, or plan the migration with the vendor\'s support.',
    references: ['API spec: Errors, rule 7 (more than 200 firewall rules to migrate)', 'API spec: Limits (firewall rules that can be migrated: at most 200)'],
    optionHelp: {
      maxRules: 'the most firewall rules the migration carries without the vendor\'s support',
    },
  },
  defaultOptions: { maxRules: MIGRATION_LIMITS.firewallRules as number },
  check(ctx) {
    if (!stillToMigrate(ctx)) return;

    const rules = ctx.zone.firewallRules();
    if (!rules.known) return ctx.unknown(ctx.zone.resource, rules.reason);
    // Paused rules count: the migration carries every rule.
    const count = rules.items.length;
    if (count > ctx.options.maxRules) return ctx.fail(ctx.zone.resource, 'tooMany', { count, limit: ctx.options.maxRules });
    ctx.pass();
  },
});
