import { expressionBytes, mapAction, MIGRATION_LIMITS, owaspPackage, paranoiaLabel, SENSITIVITY_MAPPING, sensitivityRow, thresholdLabel } from '../src/policy/migration-preview.js';
import { defineRule } from '../src/policy/rule.js';
import type { ZoneView } from '../src/policy/zone-view.js';

const n = (x: number) => x.toLocaleString('en-US');

/**
 * What would make the migration fail today, from the same data as the rules that report each
 * (migration-incompatible, -too-many-firewall-rules, -expression-too-long), at the spec's limits.
 */
function blockersOf(zone: ZoneView): string[] {
  const blockers: string[] = [];
  const check = zone.migrationCheck();
  if (check.known && check.value?.compatible === false) blockers.push('blocked until its URI-based overrides are deleted');
  const rules = zone.firewallRules();
  if (rules.known && rules.items.length > MIGRATION_LIMITS.firewallRules) {
    blockers.push(`${n(rules.items.length)} firewall rules, more than the ${n(MIGRATION_LIMITS.firewallRules)} the migration carries, need the vendor's support`);
  }
  const expressions = zone.ruleExpressions();
  const long = expressions.known ? expressions.items.filter((e) => e.expression !== null && expressionBytes(e.expression) > MIGRATION_LIMITS.expressionBytes).length : 0;
  if (long > 0) blockers.push(`${long} firewall rule expression(s) longer than ${n(MIGRATION_LIMITS.expressionBytes)} bytes need the vendor's support`);
  return blockers;
}

export default defineRule({
  meta: {
    id: 'migration-pending',
    title: 'The zone no longer relies on the previous managed rules',
    description:
      'The previous managed rules are being retired in favour of the new ruleset-based ones, and the migration is irreversible. A zone still running them should migrate on its own terms, knowing what it will get (paranoia level, score threshold, action) and whether it can validate first, rather than be moved when the previous rules stop.',
    severity: 'medium',
    category: 'migration',
    scope: 'zone',
    resource: 'zone',
    messages: {
      pending:
        'the zone still runs the previous managed rules and has not started migrating. Migrating maps sensitivity {{sensitivity}} to {{paranoiaLevel}} with score threshold {{scoreThreshold}}; action: {{action}}; {{validation}}{{blockers}}',
      sensitivityNotRead:
        'the zone still runs the previous managed rules and has not started migrating. Its OWASP sensitivity was not read ({{reason}}), so the paranoia level and score threshold it would get are not known; {{validation}}{{blockers}}',
    },
    remediation:
      'Check the preview against what the zone needs, recreate the group and rule overrides the migration drops, remove what blocks it, then migrate: on Enterprise in validation mode first, on other plans in one step at a quiet time.',
    references: [
      'API spec: Migration mapping rules (sensitivity table; Simulate becomes Log)',
      'API spec: States and transitions (validation mode for Enterprise zones only)',
      'API spec: Managed-rules migration, rule 3 (the intended sequence)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const migration = ctx.zone.migration();
    if (!migration.known) return ctx.unknown(ctx.zone.resource, migration.reason);
    if (!migration.value) return ctx.unknown(ctx.zone.resource, 'the migration status endpoint returned no status');
    const { state, oldWaf, migrated } = migration.value;
    // Under way (validation) or done: migration-validation-stalled watches the former.
    if (migrated || state === 'validation') return ctx.pass();
    if (state !== 'start') return ctx.unknown(ctx.zone.resource, `the migration state "${state ?? 'none'}" is not one zonewarden knows`);
    // A zone with the previous managed rules switched off has nothing running to migrate from.
    if (oldWaf === 'disabled') return ctx.pass();
    if (oldWaf !== 'enabled') return ctx.unknown(ctx.zone.resource, 'the migration status does not say whether the previous managed rules are enabled');

    const plan = ctx.zone.plan;
    const validationMode = plan === 'enterprise';
    const blockerList = blockersOf(ctx.zone);
    const common = {
      state,
      validationMode,
      validation: validationMode
        ? 'validation mode is available (Enterprise): the new managed rules can run before the previous ones until the switch'
        : `the ${plan ?? 'unknown'} plan has no validation mode: enabling the new managed rules disables the previous ones at once`,
      blockerList,
      blockers: blockerList.length ? `. Before it can migrate: ${blockerList.join('; ')}` : '',
    };

    const packages = ctx.zone.wafPackages();
    if (!packages.known) return ctx.fail(ctx.zone.resource, 'sensitivityNotRead', { ...common, reason: packages.reason });
    const owasp = owaspPackage(packages.items);
    const sensitivity = owasp?.sensitivity ?? null;
    const row = sensitivityRow(sensitivity);
    const mapped = SENSITIVITY_MAPPING[row];
    const action = mapAction(owasp?.actionMode ?? null);
    ctx.fail(ctx.zone.resource, 'pending', {
      ...common,
      paranoiaLevel: paranoiaLabel(mapped),
      scoreThreshold: thresholdLabel(mapped),
      sensitivity: row === 'default' ? `${sensitivity ?? (owasp ? 'not set' : 'not set (no OWASP package)')}, as the Default row,` : row,
      action:
        action === null
          ? 'not known (the OWASP package states none)'
          : owasp?.actionMode?.toLowerCase() === 'simulate'
            ? 'log (Simulate becomes Log)'
            : action,
    });
  },
});
