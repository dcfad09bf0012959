import rule from '../../rules/migration-too-many-firewall-rules.js';
import { days, firewall, type FixtureZone } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

const migrated: Partial<FixtureZone> = {
  migrationStatus: { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled', created: days(-30) },
  unread: { migration_check: 'skipped', migration_config: 'skipped', waf_packages: 'skipped', waf_groups: 'skipped', waf_rules: 'skipped', waf_overrides: 'skipped' },
};
const validation = { migrationStatus: { migration_state: 'validation', old_waf_status: 'enabled', new_waf_status: 'enabled', created: days(-3) } };
const expression = (i: number, net = 0) => `ip.src eq 10.${net}.${Math.floor(i / 250)}.${i % 250}`;
/** Bypass rules of the previous managed rules: the rules the migration carries (spec: Migration mapping rules, rule 3). */
const bypass = (n: number, paused = false, net = 0) => Array.from({ length: n }, (_, i) => ({ expression: expression(i, net), action: 'bypass', products: ['waf'], paused, description: `pass ${i}` }));
const blocks = (n: number) => Array.from({ length: n }, (_, i) => ({ expression: expression(i, 9), action: 'block' }));

// spec: Errors, rule 7 and Limits ("more than 200 firewall rules to migrate"); vendor migration guide:
// only the firewall rules with the action Bypass of the previous managed rules are migrated.
testRule(rule, {
  valid: [
    { name: 'no rules', snapshot: { zones: [{ name: 'a.example' }] } },
    { name: 'exactly 200 bypass rules', snapshot: { zones: [{ name: 'a.example', plan: 'enterprise', ...firewall(bypass(200)) }] } },
    { name: '250 block rules and no bypass rule: nothing to migrate', snapshot: { zones: [{ name: 'blocks.example', plan: 'enterprise', ...firewall(blocks(250)) }] } },
    {
      name: 'bypass rules of another product (rate limiting) are not migrated',
      snapshot: { zones: [{ name: 'a.example', plan: 'enterprise', ...firewall([...bypass(150), ...bypass(100, false, 5).map((r) => ({ ...r, products: ['rateLimit'] }))]) }] },
    },
    { name: 'a migrated zone with 250 bypass rules', snapshot: { zones: [{ name: 'done.example', plan: 'enterprise', ...migrated, ...firewall(bypass(250)) }] } },
    // spec: States and transitions (validation mode -> new version only has no condition): past the check.
    { name: 'a zone in validation mode with 201 bypass rules is past the check', snapshot: { zones: [{ name: 'v.example', plan: 'enterprise', ...validation, ...firewall(bypass(201)) }] } },
    { name: 'a raised limit', options: { maxRules: 300 }, snapshot: { zones: [{ name: 'a.example', plan: 'enterprise', ...firewall(bypass(250)) }] } },
  ],
  invalid: [
    {
      name: '201 bypass rules among 300 rules: one more than the migration carries, the others not counted',
      snapshot: { zones: [{ name: 'big.example', plan: 'enterprise', ...firewall([...bypass(201), ...blocks(99)]) }] },
      findings: [
        {
          messageId: 'tooMany',
          severity: 'high',
          resourceType: 'zone',
          zone: 'big.example',
          message: "201 firewall rules bypass the previous managed rules and are to be migrated (pass 0, pass 1, pass 2 and 198 more), more than the 200 the managed-rules migration can carry: migrating this zone needs the vendor's support",
          data: { count: 201, limit: 200 },
        },
      ],
    },
    {
      name: 'paused bypass rules count too (the spec counts the rules with the action, whatever their state)',
      snapshot: { zones: [{ name: 'big.example', plan: 'enterprise', ...firewall([...bypass(150), ...bypass(51, true, 1)]) }] },
      findings: [{ messageId: 'tooMany', data: { count: 201 } }],
    },
    {
      name: 'state default is a zone that has not started (seen in the wild), checked like start',
      snapshot: { zones: [{ name: 'd.example', migrationStatus: { migration_state: 'default', old_waf_status: 'enabled', new_waf_status: 'disabled' }, ...firewall(bypass(201)) }] },
      findings: [{ messageId: 'tooMany' }],
    },
    {
      name: 'a lowered limit',
      options: { maxRules: 10 },
      snapshot: { zones: [{ name: 'a.example', ...firewall(bypass(11)) }, { name: 'b.example', ...firewall(bypass(10)) }] },
      findings: [{ zone: 'a.example', messageId: 'tooMany', message: '11 firewall rules bypass' }],
    },
    {
      name: 'unknown when the rules were not read',
      snapshot: { zones: [{ name: 'a.example', unread: { firewall_rules: 'failed' } }] },
      findings: [{ status: 'unknown', message: 'firewall_rules' }],
    },
    {
      name: 'unknown when the migration status was not read',
      snapshot: { zones: [{ name: 'a.example', ...firewall(bypass(250)), unread: { migration_status: 'missing' } }] },
      findings: [{ status: 'unknown', message: 'migration_status was not read' }],
    },
    {
      name: 'unknown when the status endpoint returned no status',
      snapshot: { zones: [{ name: 'a.example', ...firewall(bypass(250)), migrationStatus: null }] },
      findings: [{ status: 'unknown', message: 'returned no status' }],
    },
  ],
});
