import rule from '../../rules/managed-rules-disabled.js';
import { days } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

const status = (state: string | null, oldWaf: string | null, newWaf: string | null) => ({
  migrationStatus: {
    ...(state === null ? {} : { migration_state: state }),
    ...(oldWaf === null ? {} : { old_waf_status: oldWaf }),
    ...(newWaf === null ? {} : { new_waf_status: newWaf }),
    created: days(-10),
  },
});

testRule(rule, {
  valid: [
    { name: 'the previous managed rules run (not started)', snapshot: { zones: [{ name: 'a.example' }] } },
    { name: 'both run (validation mode)', snapshot: { zones: [{ name: 'v.example', plan: 'enterprise', ...status('validation', 'enabled', 'enabled') }] } },
    {
      name: 'the new managed rules run (migrated, legacy endpoints skipped)',
      snapshot: {
        zones: [
          {
            name: 'done.example',
            ...status('complete', 'disabled', 'enabled'),
            unread: { migration_check: 'skipped', migration_config: 'skipped', waf_packages: 'skipped', waf_groups: 'skipped', waf_rules: 'skipped', waf_overrides: 'skipped' },
          },
        ],
      },
    },
    { name: 'a Free zone has no managed rules to switch off', snapshot: { zones: [{ name: 'hobby.example', plan: 'free', ...status('start', 'disabled', 'disabled') }] } },
    {
      name: 'the plans with managed rules are configurable',
      options: { plans: ['enterprise'] },
      snapshot: { zones: [{ name: 'shop.example', plan: 'business', ...status('start', 'disabled', 'disabled') }] },
    },
    { name: 'one enabled is enough even when the other is not stated', snapshot: { zones: [{ name: 'a.example', ...status('start', 'enabled', null) }] } },
    // One problem, one finding. The `waf` setting is the previous managed rules' switch (old_waf_status), and before the migration the
    // new ones are not enabled (spec: States and transitions, start: previous version only): legacy-waf-off reports the zone, naming the switch.
    {
      name: 'a zone not migrated whose WAF switch is read off is left to legacy-waf-off',
      snapshot: { zones: [{ name: 'shop.example', plan: 'business', settings: { waf: 'off' }, ...status('start', 'disabled', 'disabled') }] },
    },
  ],
  invalid: [
    {
      name: 'neither the previous nor the new managed rules run',
      snapshot: { zones: [{ name: 'staging.example', plan: 'business', ...status('start', 'disabled', 'disabled') }] },
      findings: [
        {
          messageId: 'neither',
          severity: 'high',
          resourceType: 'zone',
          zone: 'staging.example',
          message: 'neither the previous nor the new managed rules are enabled (migration state start): the zone has no managed-rule protection',
        },
      ],
    },
    {
      name: 'still reported here when the WAF switch was not read (legacy-waf-off cannot report it)',
      snapshot: { zones: [{ name: 'shop.example', plan: 'business', settings: {}, ...status('start', 'disabled', 'disabled') }] },
      findings: [{ messageId: 'neither' }],
    },
    {
      // spec: States and transitions: a migrated zone runs the new managed rules only; the WAF switch is gone, so this rule reports them off.
      name: 'still reported here on a migrated zone with the new managed rules disabled',
      snapshot: {
        zones: [
          {
            name: 'done.example',
            plan: 'business',
            ...status('complete', 'disabled', 'disabled'),
            unread: { migration_check: 'skipped', migration_config: 'skipped', waf_packages: 'skipped', waf_groups: 'skipped', waf_rules: 'skipped', waf_overrides: 'skipped' },
          },
        ],
      },
      findings: [{ messageId: 'neither', data: { state: 'complete' } }],
    },
    {
      name: 'a status without a state',
      snapshot: { zones: [{ name: 'a.example', ...status(null, 'disabled', 'disabled') }] },
      findings: [{ messageId: 'neither', message: 'migration state not given' }],
    },
    {
      name: 'one finding per zone, for unprotected zones only',
      snapshot: { zones: [{ name: 'a.example', ...status('start', 'disabled', 'disabled') }, { name: 'b.example' }] },
      findings: [{ zone: 'a.example', messageId: 'neither' }],
    },
    {
      name: 'a Free zone counts once the plans include it',
      options: { plans: ['free', 'pro'] },
      snapshot: { zones: [{ name: 'hobby.example', plan: 'free', ...status('start', 'disabled', 'disabled') }] },
      findings: [{ messageId: 'neither', data: { plan: 'free' } }],
    },
    {
      name: 'unknown when the zone names no plan',
      snapshot: { zones: [{ name: 'a.example', plan: null, ...status('start', 'disabled', 'disabled') }] },
      findings: [{ status: 'unknown', message: 'does not name its plan' }],
    },
    {
      name: 'unknown when one is disabled and the other not stated',
      snapshot: { zones: [{ name: 'a.example', ...status('start', null, 'disabled') }] },
      findings: [{ status: 'unknown', message: 'does not say whether' }],
    },
    {
      name: 'unknown when the status was not read',
      snapshot: { zones: [{ name: 'a.example', unread: { migration_status: 'denied' } }] },
      findings: [{ status: 'unknown', message: 'migration_status' }],
    },
    {
      name: 'unknown when the status endpoint returned no status',
      snapshot: { zones: [{ name: 'a.example', migrationStatus: null }] },
      findings: [{ status: 'unknown', message: 'returned no status' }],
    },
  ],
});
