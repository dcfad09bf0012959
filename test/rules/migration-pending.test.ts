import rule from '../../rules/migration-pending.js';
import { days, firewall, type FixtureZone } from '../support/snapshot-fixture.js';
import { UNKNOWN_MIGRATION_STATUS } from '../support/migration-cases.js';
import { testRule } from '../support/rule-tester.js';

const migrated: Partial<FixtureZone> = {
  migrationStatus: { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled', created: days(-30) },
  unread: { migration_check: 'skipped', migration_config: 'skipped', waf_packages: 'skipped', waf_groups: 'skipped', waf_rules: 'skipped', waf_overrides: 'skipped' },
};
const validation = { migrationStatus: { migration_state: 'validation', old_waf_status: 'enabled', new_waf_status: 'enabled', created: days(-3) } };
const oldOff = { migrationStatus: { migration_state: 'start', old_waf_status: 'disabled', new_waf_status: 'disabled', created: days(-40) } };

/** The managed package and the OWASP package, as the legacy WAF lists them. */
const packages = (owasp: Record<string, unknown> | null) => ({
  wafPackages: [
    { id: 'pkgmanaged000000000000000000000a', name: 'CloudFlare', detection_mode: 'traditional' },
    ...(owasp ? [{ id: 'pkgowasp00000000000000000000000a', name: 'OWASP ModSecurity Core Rule Set', detection_mode: 'anomaly', ...owasp }] : []),
  ],
});
const rules = (n: number) => firewall(Array.from({ length: n }, (_, i) => ({ expression: `ip.src eq 10.0.${Math.floor(i / 250)}.${i % 250}` })));
const longExpression = `http.request.uri.path contains "${'商'.repeat(1400)}"`; // 4,233 bytes, 1,433 characters
const noBlockers = /^(?![\s\S]*Before it can migrate)/;

testRule(rule, {
  valid: [
    { name: 'a zone in validation mode (under way)', snapshot: { zones: [{ name: 'v.example', plan: 'enterprise', ...validation, ...packages({ sensitivity: 'high', action_mode: 'block' }) }] } },
    { name: 'a migrated zone', snapshot: { zones: [{ name: 'done.example', plan: 'enterprise', ...migrated }] } },
    { name: 'a zone whose previous managed rules are switched off', snapshot: { zones: [{ name: 'off.example', plan: 'business', ...oldOff, ...packages({ sensitivity: 'medium', action_mode: 'block' }) }] } },
  ],
  invalid: [
    {
      name: 'high sensitivity, block, on Enterprise: PL2, Medium (40 or higher), validation mode available',
      snapshot: { zones: [{ name: 'bank.example', plan: 'enterprise', ...packages({ sensitivity: 'high', action_mode: 'block' }) }] },
      findings: [
        {
          messageId: 'pending',
          severity: 'medium',
          resourceType: 'zone',
          zone: 'bank.example',
          message: [
            'the zone still runs the previous managed rules and has not started migrating',
            'Migrating maps sensitivity high to PL2 with score threshold Medium (40 or higher); action: block;',
            'validation mode is available (Enterprise)',
            noBlockers,
          ],
          data: { paranoiaLevel: 'PL2', scoreThreshold: 'Medium (40 or higher)', validationMode: true, blockerList: [] },
        },
      ],
    },
    {
      name: 'medium sensitivity, simulate, on Pro: PL1, High (25 or higher), log, no validation mode',
      snapshot: { zones: [{ name: 'corp.example', plan: 'pro', ...packages({ sensitivity: 'medium', action_mode: 'simulate' }) }] },
      findings: [
        {
          messageId: 'pending',
          message: [
            'maps sensitivity medium to PL1 with score threshold High (25 or higher)',
            'action: log (Simulate becomes Log);',
            'the pro plan has no validation mode: enabling the new managed rules disables the previous ones at once',
          ],
          data: { paranoiaLevel: 'PL1', validationMode: false },
        },
      ],
    },
    {
      name: 'low sensitivity, challenge, on Business: PL1, Medium (40 or higher)',
      snapshot: { zones: [{ name: 'shop.example', plan: 'business', ...packages({ sensitivity: 'low', action_mode: 'challenge' }) }] },
      findings: [{ messageId: 'pending', message: ['maps sensitivity low to PL1 with score threshold Medium (40 or higher)', 'action: challenge;', 'the business plan has no validation mode'] }],
    },
    {
      name: 'sensitivity off takes the Default row',
      snapshot: { zones: [{ name: 'a.example', ...packages({ sensitivity: 'off', action_mode: 'block' }) }] },
      findings: [{ messageId: 'pending', message: 'maps sensitivity off, as the Default row, to PL2 with score threshold Medium (40 or higher)' }],
    },
    {
      name: 'a missing sensitivity takes the Default row',
      snapshot: { zones: [{ name: 'a.example', ...packages({ action_mode: 'block' }) }] },
      findings: [{ messageId: 'pending', message: 'maps sensitivity not set, as the Default row, to PL2 with score threshold Medium (40 or higher)' }],
    },
    {
      name: 'no OWASP package: the Default row, and no action to carry over',
      snapshot: { zones: [{ name: 'a.example', ...packages(null) }] },
      findings: [{ messageId: 'pending', message: ['maps sensitivity not set (no OWASP package), as the Default row, to PL2', 'action: not known (the OWASP package states none)'] }],
    },
    {
      name: 'the blockers known from the same data: incompatible, 201 rules, an expression over 4,096 bytes',
      snapshot: {
        zones: [
          {
            name: 'bank.example',
            plan: 'enterprise',
            ...packages({ sensitivity: 'high', action_mode: 'block' }),
            migrationCheck: { compatible: false, migration_state: 'start' },
            firewallRules: [...rules(200).firewallRules, ...firewall([{ expression: longExpression }]).firewallRules],
          },
        ],
      },
      findings: [
        {
          messageId: 'pending',
          message:
            "Before it can migrate: blocked until its URI-based overrides are deleted; 201 firewall rules, more than the 200 the migration carries, need the vendor's support; 1 firewall rule expression(s) longer than 4,096 bytes need the vendor's support",
          data: { blockerList: ['blocked until its URI-based overrides are deleted', "201 firewall rules, more than the 200 the migration carries, need the vendor's support", "1 firewall rule expression(s) longer than 4,096 bytes need the vendor's support"] },
        },
      ],
    },
    {
      name: 'exactly 200 rules and a 4,096-byte expression block nothing',
      snapshot: {
        zones: [
          {
            name: 'cards.example',
            plan: 'enterprise',
            ...packages({ sensitivity: 'medium', action_mode: 'block' }),
            firewallRules: [...rules(199).firewallRules, ...firewall([{ expression: `http.request.uri.path contains "${'é'.repeat(2031)}a"` }]).firewallRules],
          },
        ],
      },
      findings: [{ messageId: 'pending', message: noBlockers }],
    },
    {
      name: 'packages not read: still failing, saying the sensitivity was not read, with the blockers',
      snapshot: { zones: [{ name: 'a.example', plan: 'business', migrationCheck: { compatible: false, migration_state: 'start' }, unread: { waf_packages: 'failed' } }] },
      findings: [
        {
          messageId: 'sensitivityNotRead',
          message: ['Its OWASP sensitivity was not read (waf_packages', 'the business plan has no validation mode', 'Before it can migrate: blocked until its URI-based overrides are deleted'],
        },
      ],
    },
    {
      name: 'one finding per zone, for zones still on the previous rules only',
      snapshot: { zones: [{ name: 'a.example', ...packages({ sensitivity: 'high', action_mode: 'block' }) }, { name: 'b.example', ...oldOff }, { name: 'c.example', ...migrated }] },
      findings: [{ zone: 'a.example', messageId: 'pending' }],
    },
    ...UNKNOWN_MIGRATION_STATUS,
    {
      name: 'unknown for a state the spec does not describe',
      snapshot: { zones: [{ name: 'a.example', migrationStatus: { migration_state: 'default', old_waf_status: 'enabled', new_waf_status: 'disabled' } }] },
      findings: [{ status: 'unknown', message: 'the migration state "default" is not one zonewarden knows' }],
    },
    {
      name: 'unknown when the status gives no state',
      snapshot: { zones: [{ name: 'a.example', migrationStatus: { old_waf_status: 'enabled', new_waf_status: 'disabled' } }] },
      findings: [{ status: 'unknown', message: 'the migration state "none"' }],
    },
    {
      name: 'unknown when the status does not say whether the previous rules run',
      snapshot: { zones: [{ name: 'a.example', migrationStatus: { migration_state: 'start', new_waf_status: 'disabled' } }] },
      findings: [{ status: 'unknown', message: 'whether the previous managed rules are enabled' }],
    },
  ],
});
