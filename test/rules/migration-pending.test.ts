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
/** Bypass rules of the previous managed rules: what the migration carries and what its limits count. */
const rules = (n: number, action = 'bypass') => firewall(Array.from({ length: n }, (_, i) => ({ expression: `ip.src eq 10.0.${Math.floor(i / 250)}.${i % 250}`, action, products: ['waf'] })));
const OWASP_RULESET = '4814384a9e5d4991b9815dcfc25d2f1f';
/** GET waf_migration/config as the API answers it: the OWASP execute rule with paranoia levels and threshold. */
const configWith = (owasp: { enabled: boolean; levelsOff: number[]; threshold: number; action: string }) => ({
  migrationConfig: {
    name: 'default',
    rules: [
      { id: '', action: 'execute', expression: 'true', enabled: true, action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee', overrides: { rules: [] } } },
      {
        id: '',
        action: 'execute',
        expression: 'true',
        enabled: owasp.enabled,
        action_parameters: {
          id: OWASP_RULESET,
          overrides: {
            categories: owasp.levelsOff.map((l) => ({ category: `paranoia-level-${l}`, enabled: false })),
            rules: [{ id: '6179ae15870a4bb7b2d480d4843b323c', action: owasp.action, score_threshold: owasp.threshold, enabled: true }],
          },
        },
      },
    ],
  },
});
const longExpression = `http.request.uri.path contains "${'商'.repeat(1400)}"`; // 4,233 bytes, 1,433 characters
const noBlockers = /^(?![\s\S]*Before it can migrate)/;

testRule(rule, {
  valid: [
    { name: 'a zone in validation mode (under way)', snapshot: { zones: [{ name: 'v.example', plan: 'enterprise', ...validation, ...packages({ sensitivity: 'high', action_mode: 'block' }) }] } },
    { name: 'a migrated zone', snapshot: { zones: [{ name: 'done.example', plan: 'enterprise', ...migrated }] } },
    // vendor docs: WAF migration: zones created after the programme (phase two, 2022-09) have the new
    // managed rules from the start and no migration state; nothing is left to migrate.
    {
      name: 'a zone created with the new managed rules (no migration state)',
      snapshot: { zones: [{ name: 'new.example', plan: 'business', ...migrated, migrationStatus: { old_waf_status: 'disabled', new_waf_status: 'enabled' } }] },
    },
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
            "After migrating, the OWASP core rule set runs at paranoia level PL2, score threshold Medium (40 or higher), action block (the spec's mapping of sensitivity high);",
            'validation mode is available (Enterprise)',
            noBlockers,
          ],
          data: { previewSource: 'mapping', owaspEnabled: true, paranoiaLevel: 'PL2', scoreThreshold: 'Medium (40 or higher)', validationMode: true, blockerList: [] },
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
            'paranoia level PL1, score threshold High (25 or higher), action log (Simulate becomes Log)',
            'the pro plan has no validation mode: enabling the new managed rules disables the previous ones at once',
          ],
          data: { paranoiaLevel: 'PL1', validationMode: false },
        },
      ],
    },
    {
      name: 'low sensitivity, challenge, on Business: PL1, Medium (40 or higher)',
      snapshot: { zones: [{ name: 'shop.example', plan: 'business', ...packages({ sensitivity: 'low', action_mode: 'challenge' }) }] },
      findings: [{ messageId: 'pending', message: ['paranoia level PL1, score threshold Medium (40 or higher), action challenge', 'the business plan has no validation mode'] }],
    },
    {
      // Vendor migration guide: sensitivity off disables the OWASP package; the migration deploys it disabled.
      name: 'sensitivity off: the OWASP rule set is deployed disabled, not at the Default row',
      snapshot: { zones: [{ name: 'a.example', ...packages({ sensitivity: 'off', action_mode: 'block' }) }] },
      findings: [{ messageId: 'pending', message: 'After migrating, the OWASP core rule set is deployed disabled (sensitivity off disables the OWASP package', data: { owaspEnabled: false, paranoiaLevel: null } }],
    },
    {
      name: 'a missing sensitivity takes the Default row',
      snapshot: { zones: [{ name: 'a.example', ...packages({ action_mode: 'block' }) }] },
      findings: [{ messageId: 'pending', message: "paranoia level PL2, score threshold Medium (40 or higher), action block (the spec's mapping of sensitivity not set, as the Default row)" }],
    },
    {
      name: 'no OWASP package: the Default row, and no action to carry over',
      snapshot: { zones: [{ name: 'a.example', ...packages(null) }] },
      findings: [{ messageId: 'pending', message: ['paranoia level PL2', 'action not stated', 'sensitivity not set (no OWASP package), as the Default row'] }],
    },
    {
      // spec: Managed-rules migration (GET waf_migration/config: the new configuration equivalent to the current one).
      name: 'the preview comes from the stored migration configuration when it names the OWASP ruleset',
      snapshot: { zones: [{ name: 'a.example', ...packages({ sensitivity: 'high', action_mode: 'block' }), ...configWith({ enabled: true, levelsOff: [2, 3, 4], threshold: 25, action: 'log' }) }] },
      findings: [
        {
          messageId: 'pending',
          message: "the OWASP core rule set runs at paranoia level PL1, score threshold High (25 or higher), action log (from the migration's configuration)",
          data: { previewSource: 'config', paranoiaLevel: 'PL1' },
        },
      ],
    },
    {
      name: 'a configuration with the OWASP rule disabled says it is deployed disabled',
      snapshot: { zones: [{ name: 'a.example', ...packages({ sensitivity: 'off', action_mode: 'block' }), ...configWith({ enabled: false, levelsOff: [3, 4], threshold: 40, action: 'block' }) }] },
      findings: [{ messageId: 'pending', message: "the OWASP core rule set is deployed disabled (from the migration's configuration)" }],
    },
    {
      name: 'the configuration was not read: the mapping table is the fallback',
      snapshot: { zones: [{ name: 'a.example', ...packages({ sensitivity: 'low', action_mode: 'block' }), unread: { migration_config: 'failed' } }] },
      findings: [{ messageId: 'pending', message: "(the spec's mapping of sensitivity low)" }],
    },
    {
      name: 'the blockers known from the same data: incompatible, 201 bypass rules, a bypass expression over 4,096 bytes',
      snapshot: {
        zones: [
          {
            name: 'bank.example',
            plan: 'enterprise',
            ...packages({ sensitivity: 'high', action_mode: 'block' }),
            migrationCheck: { compatible: false, migration_state: 'start' },
            wafOverrides: [{ id: 'ovr1', urls: ['bank.example/export*'], paused: false }],
            firewallRules: [...rules(200).firewallRules, ...firewall([{ expression: longExpression, action: 'bypass', products: ['waf'] }]).firewallRules],
          },
        ],
      },
      findings: [
        {
          messageId: 'pending',
          message:
            "Before it can migrate: blocked until its 1 URI-based override(s) are deleted; 201 bypass rules to migrate, more than the 200 the migration carries, need the vendor's support; 1 bypass rule expression(s) longer than 4,096 bytes need the vendor's support",
          data: { blockerList: ['blocked until its 1 URI-based override(s) are deleted', "201 bypass rules to migrate, more than the 200 the migration carries, need the vendor's support", "1 bypass rule expression(s) longer than 4,096 bytes need the vendor's support"] },
        },
      ],
    },
    {
      // Vendor migration guide: only bypass rules of the previous managed rules are migrated.
      name: '250 block rules and a long block expression block nothing: they are not migrated',
      snapshot: {
        zones: [
          {
            name: 'blocks.example',
            plan: 'enterprise',
            ...packages({ sensitivity: 'high', action_mode: 'block' }),
            firewallRules: [...rules(250, 'block').firewallRules, ...firewall([{ expression: longExpression, action: 'block' }]).firewallRules],
          },
        ],
      },
      findings: [{ messageId: 'pending', message: noBlockers }],
    },
    {
      name: 'state default (seen in the wild) is a zone that has not started, like start',
      snapshot: { zones: [{ name: 'a.example', migrationStatus: { migration_state: 'default', old_waf_status: 'enabled', new_waf_status: 'disabled' }, ...packages({ sensitivity: 'high', action_mode: 'block' }) }] },
      findings: [{ messageId: 'pending', data: { state: 'default' } }],
    },
    {
      name: 'exactly 200 rules and a 4,096-byte expression block nothing',
      snapshot: {
        zones: [
          {
            name: 'cards.example',
            plan: 'enterprise',
            ...packages({ sensitivity: 'medium', action_mode: 'block' }),
            firewallRules: [...rules(199).firewallRules, ...firewall([{ expression: `http.request.uri.path contains "${'é'.repeat(2031)}a"`, action: 'bypass', products: ['waf'] }]).firewallRules],
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
          message: ['Neither its migration configuration nor its OWASP sensitivity was read (waf_packages', 'the business plan has no validation mode', 'Before it can migrate: the compatibility check refuses it (migration-incompatible says why)'],
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
      name: 'unknown for a state neither the spec nor the wild describes',
      snapshot: { zones: [{ name: 'a.example', migrationStatus: { migration_state: 'paused', old_waf_status: 'enabled', new_waf_status: 'disabled' } }] },
      findings: [{ status: 'unknown', message: 'the migration state "paused" is not one zonewarden knows' }],
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
