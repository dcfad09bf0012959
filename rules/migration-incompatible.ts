import { againstLimits } from '../src/policy/migration-carry.js';
import { firstFew, MIGRATION_LIMITS, stillBeforeCheck } from '../src/policy/migration-preview.js';
import type { WafOverride } from '../src/policy/models.js';
import { defineRule } from '../src/policy/rule.js';
import type { ZoneView } from '../src/policy/zone-view.js';

const label = (o: WafOverride): string => {
  const where = o.urls.length ? o.urls.join(' ') : o.id;
  // A paused override still blocks the migration: only deleting it lifts the block.
  return `${o.description ? `"${o.description}" (${where})` : where}${o.paused ? ' [paused]' : ''}`;
};

/** The other documented reasons the check refuses a zone: more than 200 bypass rules to migrate, or one over 4 KB. */
function limitsPassed(zone: ZoneView): string | null {
  const bypass = zone.bypassRulesToMigrate();
  if (!bypass.known) return null;
  const parts: string[] = [];
  const n = (x: number) => x.toLocaleString('en-US');
  const { tooMany, long } = againstLimits(bypass.items);
  if (tooMany) parts.push(`${n(bypass.items.length)} bypass rules, more than ${n(MIGRATION_LIMITS.firewallRules)}`);
  if (long) parts.push(`${long} expression(s) over ${n(MIGRATION_LIMITS.expressionBytes)} bytes`);
  return parts.length ? parts.join(', ') : null;
}

export default defineRule({
  meta: {
    id: 'migration-incompatible',
    title: 'The zone can migrate to the new managed rules',
    description:
      'The previous managed rules are being retired and the migration to the new ones is irreversible. A zone the compatibility check refuses cannot migrate at all until the cause is removed, and the usual cause, URI-based overrides of the previous managed rules, has no equivalent that migrates with it. The check\'s answer decides: a zone it refuses fails even where the overrides cannot be listed (the API retired that list: 410 Gone), and the finding then says so instead of naming them.',
    severity: 'high',
    category: 'migration',
    scope: 'zone',
    resource: 'zone',
    messages: {
      uriOverrides: 'the zone cannot migrate to the new managed rules: {{count}} URI-based override(s) of the previous managed rules block it: {{overrides}}',
      overridesRetired:
        'the compatibility check says the zone cannot migrate to the new managed rules; its URI-based overrides, the usual cause, could not be listed because the API retired that list (410 Gone): ask the vendor\'s support which overrides block it',
      overridesNotRead: 'the compatibility check says the zone cannot migrate to the new managed rules; its URI-based overrides, the usual cause, were not read ({{reason}})',
      noOverrides: 'the compatibility check says the zone cannot migrate to the new managed rules, yet it has no URI-based overrides: ask the vendor\'s support what blocks it',
      limits: 'the compatibility check says the zone cannot migrate to the new managed rules: it has no URI-based overrides, and its bypass rules to migrate are past the migration\'s limits ({{limits}}), which needs the vendor\'s support',
    },
    remediation:
      'Recreate what each URI-based override does as an exception or override of the new managed rules, then delete the override; run the compatibility check again before migrating.',
    references: [
      'API spec: Managed-rules migration, rule 4 (compatible false: a URI-based override exists)',
      'API spec: States and transitions, rule 3 (zones with URI-based overrides cannot migrate)',
      'API spec: Errors, rules 6 and 7 (compatible false; more than 200 firewall rules to migrate, or an expression over 4 KB)',
      'vendor API reference and SDK: GET firewall/waf/overrides (URI-based overrides) is deprecated and answers 410 Gone',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    if (!stillBeforeCheck(ctx)) return;

    const check = ctx.zone.migrationCheck();
    if (!check.known) return ctx.unknown(ctx.zone.resource, check.reason);
    if (check.value?.compatible == null) return ctx.unknown(ctx.zone.resource, 'the compatibility check did not say whether the zone is compatible');
    if (check.value.compatible) return ctx.pass();

    const overrides = ctx.zone.wafOverrides();
    // The check's `compatible: false` is the verdict; the overrides only explain it. A retired list
    // (410 Gone) can never be read again, so the zone fails with that said rather than staying unknown.
    if (!overrides.known && overrides.state === 'retired') return ctx.fail(ctx.zone.resource, 'overridesRetired', { reason: overrides.reason });
    if (!overrides.known) return ctx.fail(ctx.zone.resource, 'overridesNotRead', { reason: overrides.reason });
    if (overrides.items.length === 0) {
      const limits = limitsPassed(ctx.zone);
      return limits ? ctx.fail(ctx.zone.resource, 'limits', { limits }) : ctx.fail(ctx.zone.resource, 'noOverrides');
    }
    ctx.fail(ctx.zone.resource, 'uriOverrides', {
      count: overrides.items.length,
      overrides: firstFew(overrides.items.map(label)),
      overrideIds: overrides.items.map((o) => o.id),
    });
  },
});
