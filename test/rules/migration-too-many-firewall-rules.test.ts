import rule from '../../rules/migration-too-many-firewall-rules.js';
import { days, firewall, type FixtureZone } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

const migrated: Partial<FixtureZone> = {
  migrationStatus: { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled', created: days(-30) },
  unread: { migration_check: 'skipped', migration_config: 'skipped', waf_packages: 'skipped', waf_groups: 'skipped', waf_rules: 'skipped', waf_overrides: 'skipped' },
};
const rules = (n: number, paused = false) => firewall(Array.from({ length: n }, (_, i) => ({ expression: `ip.src eq 10.0.${Math.floor(i / 250)}.${i % 250}`, paused })));

testRule(rule, {
  valid: [
    { name: 'no rules', snapshot: { zones: [{ name: 'a.example' }] } },
    { name: 'exactly 200 rules', snapshot: { zones: [{ name: 'a.example', plan: 'enterprise', ...rules(200) }] } },
    { name: 'a migrated zone with 250 rules', snapshot: { zones: [{ name: 'done.example', plan: 'enterprise', ...migrated, ...rules(250) }] } },
    { name: 'a zone in validation mode with 150 rules', snapshot: { zones: [{ name: 'v.example', plan: 'enterprise', migrationStatus: { migration_state: 'validation', old_waf_status: 'enabled', new_waf_status: 'enabled' }, ...rules(150) }] } },
    { name: 'a raised limit', options: { maxRules: 300 }, snapshot: { zones: [{ name: 'a.example', plan: 'enterprise', ...rules(250) }] } },
  ],
  invalid: [
    {
      name: '201 rules: one more than the migration carries',
      snapshot: { zones: [{ name: 'big.example', plan: 'enterprise', ...rules(201) }] },
      findings: [
        {
          messageId: 'tooMany',
          severity: 'high',
          resourceType: 'zone',
          zone: 'big.example',
          message: "201 firewall rules, more than the 200 the managed-rules migration can carry: migrating this zone needs the vendor's support",
          data: { count: 201, limit: 200 },
        },
      ],
    },
    {
      name: 'paused rules count too',
      snapshot: { zones: [{ name: 'big.example', plan: 'enterprise', firewallRules: [...rules(150).firewallRules, ...rules(51, true).firewallRules] }] },
      findings: [{ messageId: 'tooMany', data: { count: 201 } }],
    },
    {
      name: 'a zone in validation mode has not migrated yet',
      snapshot: { zones: [{ name: 'v.example', plan: 'enterprise', migrationStatus: { migration_state: 'validation', old_waf_status: 'enabled', new_waf_status: 'enabled' }, ...rules(201) }] },
      findings: [{ messageId: 'tooMany' }],
    },
    {
      name: 'a lowered limit',
      options: { maxRules: 10 },
      snapshot: { zones: [{ name: 'a.example', ...rules(11) }, { name: 'b.example', ...rules(10) }] },
      findings: [{ zone: 'a.example', messageId: 'tooMany', message: '11 firewall rules, more than the 10' }],
    },
    {
      name: 'unknown when the rules were not read',
      snapshot: { zones: [{ name: 'a.example', unread: { firewall_rules: 'failed' } }] },
      findings: [{ status: 'unknown', message: 'firewall_rules' }],
    },
    {
      name: 'unknown when the migration status was not read',
      snapshot: { zones: [{ name: 'a.example', ...rules(250), unread: { migration_status: 'missing' } }] },
      findings: [{ status: 'unknown', message: 'migration_status was not read' }],
    },
    {
      name: 'unknown when the status endpoint returned no status',
      snapshot: { zones: [{ name: 'a.example', ...rules(250), migrationStatus: null }] },
      findings: [{ status: 'unknown', message: 'returned no status' }],
    },
  ],
});
