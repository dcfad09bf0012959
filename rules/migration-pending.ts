import { owaspFromConfig, owaspFromMapping, type OwaspOutcome } from '../src/cloudflare/waf-migration/config.js';
import { againstLimits } from '../src/cloudflare/waf-migration/carry.js';
import { MIGRATION_LIMITS } from '../src/cloudflare/waf-migration/preview.js';
import { defineRule } from '../src/policy/rule.js';
import type { ZoneView } from '../src/policy/zone-view.js';

const n = (x: number) => x.toLocaleString('en-US');

/** What would make the migration fail today, from the data of the rules that report each, at the spec's limits. */
function blockersOf(zone: ZoneView): string[] {
  const blockers: string[] = [];
  const check = zone.migrationCheck();
  if (check.known && check.value?.compatible === false) {
    // URI-based overrides are the usual cause; the limits below are the other documented ones.
    const overrides = zone.wafOverrides();
    blockers.push(overrides.known && overrides.items.length ? `blocked until its ${overrides.items.length} URI-based override(s) are deleted` : 'the compatibility check refuses it (migration-incompatible says why)');
  }
  // Only the bypass rules are migrated, so only they count towards the limits.
  const bypass = zone.bypassRulesToMigrate();
  if (!bypass.known) return blockers;
  const { tooMany, long } = againstLimits(bypass.items);
  if (tooMany) blockers.push(`${n(bypass.items.length)} bypass rules to migrate, more than the ${n(MIGRATION_LIMITS.firewallRules)} the migration carries, need the vendor's support`);
  if (long > 0) blockers.push(`${long} bypass rule expression(s) longer than ${n(MIGRATION_LIMITS.expressionBytes)} bytes need the vendor's support`);
  return blockers;
}

/** The preview in the finding's data, one key a field, so reports and JSON consumers read it directly. */
const previewData = (o: OwaspOutcome) => ({ owasp: o.text, previewSource: o.source, owaspEnabled: o.enabled, paranoiaLevel: o.paranoiaLevel, scoreThreshold: o.scoreThreshold, action: o.action });

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
      pending: 'the zone still runs the previous managed rules and has not started migrating. After migrating, {{owasp}}; {{validation}}{{blockers}}',
      sensitivityNotRead:
        'the zone still runs the previous managed rules and has not started migrating. Neither its migration configuration nor its OWASP sensitivity was read ({{reason}}), so the paranoia level and score threshold it would get are not known; {{validation}}{{blockers}}',
    },
    remediation:
      'Check the preview against what the zone needs, recreate the group and rule overrides the migration drops, remove what blocks it, then migrate: on Enterprise in validation mode first, on other plans in one step at a quiet time.',
    references: [
      'API spec: Managed-rules migration (GET waf_migration/config: the equivalent new configuration)',
      'API spec: Migration mapping rules (sensitivity table; Simulate becomes Log)',
      'Vendor migration guide: OWASP sensitivity off deploys the new OWASP ruleset disabled',
      'API spec: States and transitions (validation mode for Enterprise zones only)',
      'API spec: Managed-rules migration, rule 3 (the intended sequence)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const migration = ctx.zone.migration();
    if (!migration.known) return ctx.unknown(ctx.zone.resource, migration.reason);
    if (!migration.value) return ctx.unknown(ctx.zone.resource, 'the migration status endpoint returned no status');
    const { state, stage, oldWaf } = migration.value;
    // Under way (validation) or done: migration-validation-stalled watches the former.
    if (stage === 'complete' || stage === 'validation') return ctx.pass();
    if (stage === 'unknown') return ctx.unknown(ctx.zone.resource, `the migration state "${state ?? 'none'}" is not one zonewarden knows`);
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

    // What the migration deploys, as the API's own configuration says; the mapping table only without it.
    const config = ctx.zone.migrationConfig();
    const fromConfig = config.known && config.value ? owaspFromConfig(config.value) : null;
    if (fromConfig) return ctx.fail(ctx.zone.resource, 'pending', { ...common, ...previewData(fromConfig) });
    const packages = ctx.zone.wafPackages();
    if (!packages.known) return ctx.fail(ctx.zone.resource, 'sensitivityNotRead', { ...common, reason: packages.reason });
    const mapped = owaspFromMapping(packages.items);
    ctx.fail(ctx.zone.resource, 'pending', { ...common, ...previewData(mapped) });
  },
});
