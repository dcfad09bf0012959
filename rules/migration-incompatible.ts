import { migrationBlockingExpressions } from '../src/policy/checks/migration-long-expressions.js';
import { firstFew, MIGRATION_LIMITS } from '../src/cloudflare/waf-migration/preview.js';
import { stillBeforeCheck } from '../src/policy/checks/migration-checks.js';
import type { WafOverride } from '../src/cloudflare/legacy-waf/models.js';
import { defineRule, type ZoneContext } from '../src/policy/rule.js';

const label = (o: WafOverride): string => {
  const where = o.urls.length ? o.urls.join(' ') : o.id;
  // A paused override still blocks the migration: only deleting it lifts the block.
  return `${o.description ? `"${o.description}" (${where})` : where}${o.paused ? ' [paused]' : ''}`;
};

const TOO_MANY = 'migration-too-many-firewall-rules';
const TOO_LONG = 'migration-expression-too-long';

/**
 * The check's other documented refusals (over `maxRules` bypass rules, or one over `maxBytes`):
 * left to the limit rule where it runs (one problem, one finding), said here otherwise.
 */
function limitsPassed(ctx: ZoneContext<{ maxRules: number; maxBytes: number }>): { said: string | null; leftToOthers: boolean } {
  const bypass = ctx.zone.bypassRulesToMigrate();
  if (!bypass.known) return { said: null, leftToOthers: false };
  const parts: string[] = [];
  let leftToOthers = false;
  const n = (x: number) => x.toLocaleString('en-US');
  if (bypass.items.length > ctx.options.maxRules) {
    if (ctx.runs(TOO_MANY)) leftToOthers = true;
    else parts.push(`${n(bypass.items.length)} bypass rules, more than ${n(ctx.options.maxRules)}`);
  }
  // The rules migration-expression-too-long fails, as it finds them.
  const long = migrationBlockingExpressions(ctx.zone, ctx.options.maxBytes).length;
  if (long) {
    if (ctx.runs(TOO_LONG)) leftToOthers = true;
    else parts.push(`${long} expression(s) over ${n(ctx.options.maxBytes)} bytes`);
  }
  return { said: parts.length ? parts.join(', ') : null, leftToOthers };
}

export default defineRule({
  meta: {
    id: 'migration-incompatible',
    title: 'The zone can migrate to the new managed rules',
    description:
      'The previous managed rules are being retired and the migration to the new ones is irreversible. A zone the compatibility check refuses cannot migrate at all until the cause is removed, and the usual cause, URI-based overrides of the previous managed rules, has no equivalent that migrates with it. The check\'s answer decides: a zone it refuses fails even where the overrides cannot be listed (the API retired that list: 410 Gone), and the finding then says so instead of naming them. One problem, one finding: a zone refused, with no URI-based overrides, only for more bypass rules than the migration carries or an expression over its 4 KB is left to migration-too-many-firewall-rules and migration-expression-too-long, which name the rules to change; this rule says the limits only where their rule does not run (disabled for the zone), and follows their maxRules and maxBytes.',
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
    optionHelp: {
      maxRules: 'the most bypass rules the migration carries without the vendor\'s support',
      maxBytes: 'the longest bypass-rule expression, in bytes of UTF-8, the migration carries without the vendor\'s support',
    },
    // The limits are the limit rules' own settings, so this rule and they agree on which zones are past them.
    optionsFrom: [
      { rule: TOO_MANY, options: ['maxRules'] },
      { rule: TOO_LONG, options: ['maxBytes'] },
    ],
  },
  defaultOptions: { maxRules: MIGRATION_LIMITS.firewallRules as number, maxBytes: MIGRATION_LIMITS.expressionBytes as number },
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
      const limits = limitsPassed(ctx);
      if (limits.said) return ctx.fail(ctx.zone.resource, 'limits', { limits: limits.said });
      // Refused for limits the limit rules report on this zone: their findings say it, so it passes
      // here (as managed-rules-disabled does for the zones it leaves to legacy-waf-off).
      if (limits.leftToOthers) return ctx.pass();
      return ctx.fail(ctx.zone.resource, 'noOverrides');
    }
    ctx.fail(ctx.zone.resource, 'uriOverrides', {
      count: overrides.items.length,
      overrides: firstFew(overrides.items.map(label)),
      overrideIds: overrides.items.map((o) => o.id),
    });
  },
});
