import { defineRule } from '../src/policy/rule.js';

const DAY = 86_400_000;

export default defineRule({
  meta: {
    id: 'migration-validation-stalled',
    title: 'A migration in validation mode is finished within weeks',
    description:
      'Validation mode runs the new managed rules before the previous ones so their effect can be checked; it is a step, not a place to stay. A zone left in it keeps two rule sets to maintain, and the previous managed rules it still relies on are being retired.',
    severity: 'medium',
    category: 'migration',
    scope: 'zone',
    resource: 'zone',
    messages: {
      stalled: 'the migration has been in validation mode for {{days}} days (since {{since}}), longer than {{limit}} days: finish it or find out what holds it',
    },
    remediation:
      'Review what the new managed rules logged during validation, adjust their overrides, then finish the migration (PUT the entry point with waf_migration=pending), which disables the previous managed rules.',
    references: ['API spec: States and transitions (validation mode -> new version only)', 'API spec: Managed-rules migration, rule 3 (the intended sequence)'],
    optionHelp: {
      days: 'how many days a zone may stay in validation mode before it is reported',
    },
  },
  defaultOptions: { days: 14 },
  check(ctx) {
    const migration = ctx.zone.migration();
    if (!migration.known) return ctx.unknown(ctx.zone.resource, migration.reason);
    if (!migration.value) return ctx.unknown(ctx.zone.resource, 'the migration status endpoint returned no status');
    const { state, since } = migration.value;
    if (state !== 'validation') return ctx.pass();
    if (!since) return ctx.unknown(ctx.zone.resource, 'the migration status does not say when validation mode began (no created time)');
    const elapsed = ctx.now.getTime() - since.getTime();
    const limit = ctx.options.days * DAY;
    // Exactly the limit is still within it: only longer than `days` days is stalled.
    if (elapsed <= limit) return ctx.pass();
    ctx.fail(ctx.zone.resource, 'stalled', { days: Math.floor(elapsed / DAY), since: since.toISOString().slice(0, 10), limit: ctx.options.days });
  },
});
