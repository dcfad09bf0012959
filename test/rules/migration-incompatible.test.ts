import rule from '../../rules/migration-incompatible.js';
import { days, firewall, type FixtureZone } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

const migrated: Partial<FixtureZone> = {
  migrationStatus: { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled', created: days(-30) },
  unread: { migration_check: 'skipped', migration_config: 'skipped', waf_packages: 'skipped', waf_groups: 'skipped', waf_rules: 'skipped', waf_overrides: 'skipped' },
};
const incompatible = { migrationCheck: { compatible: false, migration_state: 'start' } };
const bypassRules = (n: number) => firewall(Array.from({ length: n }, (_, i) => ({ expression: `ip.src eq 10.0.${Math.floor(i / 250)}.${i % 250}`, action: 'bypass', products: ['waf'] })));
const override = (i: number, extra: Record<string, unknown> = {}) => ({ id: `ovr${i}`, urls: [`bank.example/path${i}/*`], paused: false, ...extra });

testRule(rule, {
  valid: [
    { name: 'a compatible zone', snapshot: { zones: [{ name: 'a.example' }] } },
    { name: 'a compatible Enterprise zone without overrides', snapshot: { zones: [{ name: 'a.example', plan: 'enterprise' }] } },
    {
      // spec: Managed-rules migration, rule 4: compatible true is eligible, whatever the retired overrides list (410 Gone) cannot say.
      name: 'a compatible zone whose overrides list is retired',
      snapshot: { zones: [{ name: 'a.example', plan: 'enterprise', unread: { waf_overrides: 'retired' } }] },
    },
    { name: 'a migrated zone, whose check is skipped', snapshot: { zones: [{ name: 'done.example', plan: 'enterprise', ...migrated }] } },
    {
      name: 'a migrated zone even if a stale check said incompatible',
      snapshot: { zones: [{ name: 'done.example', plan: 'enterprise', ...migrated, ...incompatible, unread: { ...migrated.unread, migration_check: undefined } }] },
    },
    {
      // spec: States and transitions (validation mode -> new version only, with no condition): the
      // check was passed on entering validation mode, and finishing is not held to it again.
      name: 'a zone in validation mode, whatever the check says now',
      snapshot: { zones: [{ name: 'v.example', plan: 'enterprise', ...incompatible, migrationStatus: { migration_state: 'validation', old_waf_status: 'enabled', new_waf_status: 'enabled', created: days(-2) } }] },
    },
  ],
  invalid: [
    {
      // spec: Errors, rule 7 (more than 200 firewall rules to migrate needs the vendor's support).
      name: 'incompatible without overrides but with more than 200 bypass rules: the limits are named',
      snapshot: { zones: [{ name: 'bank.example', plan: 'enterprise', ...incompatible, ...bypassRules(201) }] },
      findings: [{ messageId: 'limits', message: "its bypass rules to migrate are past the migration's limits (201 bypass rules, more than 200)" }],
    },
    {
      name: 'state default (seen in the wild) is checked like start',
      snapshot: { zones: [{ name: 'd.example', plan: 'enterprise', migrationStatus: { migration_state: 'default', old_waf_status: 'enabled', new_waf_status: 'disabled' }, ...incompatible }] },
      findings: [{ messageId: 'noOverrides' }],
    },
    {
      name: 'URI-based overrides block the migration, named with their description and urls',
      snapshot: {
        zones: [
          {
            name: 'bank.example',
            plan: 'enterprise',
            ...incompatible,
            wafOverrides: [
              override(1, { description: 'Statement export posts raw CSV', urls: ['bank.example/statements/export*', 'bank.example/csv/*'] }),
              override(2, { paused: true }),
            ],
          },
        ],
      },
      findings: [
        {
          messageId: 'uriOverrides',
          severity: 'high',
          zone: 'bank.example',
          resourceType: 'zone',
          message: [
            'the zone cannot migrate to the new managed rules: 2 URI-based override(s)',
            '"Statement export posts raw CSV" (bank.example/statements/export* bank.example/csv/*), bank.example/path2/* [paused]',
          ],
          data: { count: 2, overrideIds: ['ovr1', 'ovr2'] },
        },
      ],
    },
    {
      name: 'many overrides: the first five, then how many more; data keeps every id',
      snapshot: { zones: [{ name: 'bank.example', plan: 'enterprise', ...incompatible, wafOverrides: Array.from({ length: 7 }, (_, i) => override(i + 1)) }] },
      findings: [
        {
          messageId: 'uriOverrides',
          message: ['7 URI-based', 'bank.example/path5/* and 2 more'],
          data: { overrideIds: ['ovr1', 'ovr2', 'ovr3', 'ovr4', 'ovr5', 'ovr6', 'ovr7'] },
        },
      ],
    },
    {
      name: 'an override without urls is named by its id',
      snapshot: { zones: [{ name: 'bank.example', plan: 'enterprise', ...incompatible, wafOverrides: [override(9, { urls: [] })] }] },
      findings: [{ messageId: 'uriOverrides', message: '1 URI-based override(s) of the previous managed rules block it: ovr9' }],
    },
    {
      name: 'incompatible, with the overrides not read (not Enterprise: skipped)',
      snapshot: { zones: [{ name: 'shop.example', plan: 'business', ...incompatible }] },
      findings: [{ messageId: 'overridesNotRead', message: ['cannot migrate', 'were not read', 'waf_overrides'] }],
    },
    {
      name: 'incompatible, with the overrides read failing',
      snapshot: { zones: [{ name: 'bank.example', plan: 'enterprise', ...incompatible, unread: { waf_overrides: 'failed' } }] },
      findings: [{ messageId: 'overridesNotRead', message: 'waf_overrides' }],
    },
    {
      // spec: Managed-rules migration, rule 4 (compatible false: the zone is not eligible); SDK 7.3.0
      // firewall/waf/overrides: the overrides list "has been deprecated and returns 410 Gone". The
      // check's answer is the verdict, so a retired list fails the zone and says why none are named.
      name: 'incompatible, with the overrides list retired (410 Gone): fails, saying the list could not be read',
      snapshot: { zones: [{ name: 'bank.example', plan: 'enterprise', ...incompatible, unread: { waf_overrides: 'retired' } }] },
      findings: [
        {
          messageId: 'overridesRetired',
          severity: 'high',
          resourceType: 'zone',
          message: ['cannot migrate to the new managed rules', 'could not be listed because the API retired that list (410 Gone)'],
        },
      ],
    },
    {
      // As above; the limits of the migration are not offered as the cause when the overrides are not known.
      name: 'incompatible, overrides list retired, more than 200 bypass rules: still the retired list is what is said',
      snapshot: { zones: [{ name: 'bank.example', plan: 'enterprise', ...incompatible, ...bypassRules(201), unread: { waf_overrides: 'retired' } }] },
      findings: [{ messageId: 'overridesRetired' }],
    },
    {
      name: 'incompatible without any override',
      snapshot: { zones: [{ name: 'bank.example', plan: 'enterprise', ...incompatible }] },
      findings: [{ messageId: 'noOverrides', message: "ask the vendor's support" }],
    },
    {
      name: 'one finding per zone, for incompatible zones only',
      snapshot: { zones: [{ name: 'a.example', plan: 'enterprise', ...incompatible, wafOverrides: [override(1)] }, { name: 'b.example', plan: 'enterprise' }] },
      findings: [{ zone: 'a.example', messageId: 'uriOverrides' }],
    },
    { name: 'the configured severity wins', severity: 'critical', snapshot: { zones: [{ name: 'a.example', plan: 'enterprise', ...incompatible }] }, findings: [{ severity: 'critical' }] },
    {
      name: 'unknown when the migration status was not read (even with an incompatible check)',
      snapshot: { zones: [{ name: 'a.example', ...incompatible, unread: { migration_status: 'failed' } }] },
      findings: [{ status: 'unknown', message: 'migration_status' }],
    },
    {
      name: 'unknown when the status endpoint returned no status',
      snapshot: { zones: [{ name: 'a.example', migrationStatus: null }] },
      findings: [{ status: 'unknown', message: 'returned no status' }],
    },
    {
      name: 'unknown when the check was not read',
      snapshot: { zones: [{ name: 'a.example', unread: { migration_check: 'denied' } }] },
      findings: [{ status: 'unknown', message: 'migration_check' }],
    },
    {
      name: 'unknown when the check returned nothing',
      snapshot: { zones: [{ name: 'a.example', migrationCheck: null }] },
      findings: [{ status: 'unknown', message: 'did not say whether the zone is compatible' }],
    },
    {
      name: 'unknown when compatible is not a boolean',
      snapshot: { zones: [{ name: 'a.example', migrationCheck: { compatible: 'false', migration_state: 'start' } }] },
      findings: [{ status: 'unknown', message: 'did not say whether the zone is compatible' }],
    },
  ],
});
