import { legacyOverrides } from '../src/cloudflare/waf-migration/carry.js';
import { firstFew } from '../src/cloudflare/waf-migration/preview.js';
import { stillToMigrate } from '../src/policy/checks/migration-checks.js';
import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'migration-overrides-lost',
    title: 'The migration drops no overrides of the previous OWASP core rule set',
    description:
      'Group overrides and rule overrides of the previous core rule set (the OWASP package) are not migrated: after the irreversible migration, an OWASP rule someone switched off runs again, which can break the site. Overrides of the vendor\'s own package are carried into the new configuration and are not reported. OWASP rules state no default mode in the API; a group says how many of its rules were changed (modified_rules_count), so that count is the evidence this check reads.',
    severity: 'medium',
    category: 'migration',
    scope: 'zone',
    resource: 'zone',
    messages: {
      lost: 'the migration drops the overrides of the previous OWASP core rule set: {{groups}}: recreate them in the new managed rules or they are lost',
    },
    remediation:
      'In each group named, find the rules changed from their defaults (the dashboard shows them), decide whether each is still needed, and recreate the ones that are as overrides or exceptions of the new OWASP ruleset (in validation mode on Enterprise) before migrating.',
    references: [
      'API spec: Migration mapping rules, rule 2 (group and rule overrides of the previous core rule set are not migrated)',
      'Vendor migration guide: overrides of the vendor\'s own managed package are carried over',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    if (!stillToMigrate(ctx)) return;

    const packages = ctx.zone.wafPackages();
    if (!packages.known) return ctx.unknown(ctx.zone.resource, packages.reason);
    const groups = ctx.zone.wafGroups();
    if (!groups.known) return ctx.unknown(ctx.zone.resource, groups.reason);
    const rules = ctx.zone.wafRules();
    if (!rules.known) return ctx.unknown(ctx.zone.resource, rules.reason);
    const { lost, carried } = legacyOverrides(packages.items, groups.items, rules.items);
    if (lost.length === 0) return ctx.pass();
    const total = lost.reduce((sum, g) => sum + g.changedRules, 0);
    const named = lost.map((g) => `${g.group.name || g.group.id} (${g.changedRules} rule${g.changedRules === 1 ? '' : 's'} changed)`);
    ctx.fail(ctx.zone.resource, 'lost', {
      groups: `${total} rule override${total === 1 ? '' : 's'} in ${lost.length} group${lost.length === 1 ? '' : 's'}, ${firstFew(named)}`,
      ruleCount: total,
      groupIds: lost.map((g) => g.group.id),
      rulesOff: lost.flatMap((g) => g.rulesOff.map((r) => r.id)),
      carriedRuleCount: carried.length,
    });
  },
});
