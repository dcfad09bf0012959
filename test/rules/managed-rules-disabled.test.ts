import rule from '../../rules/managed-rules-disabled.js';
import notDeployed from '../../rules/managed-ruleset-not-deployed.js';
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

/** A migrated Business zone whose status says the new managed rules are disabled, with this managed-phase entry point. */
// vendor docs: rulesets: an execute rule of the http_request_firewall_managed entry point names the managed ruleset in action_parameters.id.
const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const newRulesOff = (entrypoint: Record<string, unknown> | null) => ({
  zones: [
    {
      name: 'done.example',
      plan: 'business' as const,
      ...status('complete', 'disabled', 'disabled'),
      entrypoint,
      unread: { migration_check: 'skipped' as const, migration_config: 'skipped' as const, waf_packages: 'skipped' as const, waf_groups: 'skipped' as const, waf_rules: 'skipped' as const, waf_overrides: 'skipped' as const },
    },
  ],
});
const execute = (enabled: boolean, expression = 'true') => ({ id: 'x1', action: 'execute', expression, enabled, description: 'Managed ruleset', action_parameters: { id: MANAGED } });

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
      // Tested alone, managed-ruleset-not-deployed does not run, so nothing is left to it.
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
    // One problem, one finding (docs/rules.md): on a migrated zone, "no managed rules run" is
    // managed-ruleset-not-deployed's to say where it runs and finds it, naming the rule to change.
    {
      // spec: Managed-rules migration (status: new managed rules disabled); vendor docs: "Deploy a managed
      // ruleset": a disabled execute rule runs nothing. Both rules state one fact: left to managed-ruleset-not-deployed.
      name: 'migrated, new managed rules disabled, execute rule disabled: left to managed-ruleset-not-deployed',
      alongside: [notDeployed],
      snapshot: newRulesOff({ rules: [execute(false)] }),
      findings: [{ rule: 'managed-ruleset-not-deployed', messageId: 'disabled', zone: 'done.example', message: '"Managed ruleset" executing the managed ruleset is disabled' }],
    },
    {
      // As above, with no managed-phase entry point: the ruleset is not deployed at all, one fact.
      name: 'migrated, new managed rules disabled, no entry point: left to managed-ruleset-not-deployed',
      alongside: [notDeployed],
      snapshot: newRulesOff(null),
      findings: [{ rule: 'managed-ruleset-not-deployed', messageId: 'none' }],
    },
    {
      // As above, with managed-ruleset-not-deployed disabled: nothing else says it, so it is reported here.
      name: 'migrated, new managed rules disabled, managed-ruleset-not-deployed disabled: reported here',
      alongside: [notDeployed],
      settingsOf: { 'managed-ruleset-not-deployed': { enabled: false } },
      snapshot: newRulesOff({ rules: [execute(false)] }),
      findings: [{ messageId: 'neither', data: { state: 'complete' } }],
    },
    {
      // vendor docs: WAF, "Cloudflare Managed Ruleset" (a custom expression applies it to a subset of requests):
      // a narrow deployment is another fact (part of the traffic), so each rule says its own.
      name: 'migrated, new managed rules disabled, the ruleset deployed for part of the traffic: both say their own',
      alongside: [notDeployed],
      snapshot: newRulesOff({ rules: [execute(true, 'http.request.uri.path contains "/api"')] }),
      findings: [{ messageId: 'neither' }, { rule: 'managed-ruleset-not-deployed', messageId: 'narrow' }],
    },
    {
      // managed-ruleset-not-deployed's plans leave Business out: it passes the zone, so the fact is said here.
      name: 'follows managed-ruleset-not-deployed\'s plans: Business left out there, reported here',
      alongside: [notDeployed],
      settingsOf: { 'managed-ruleset-not-deployed': { options: { plans: ['enterprise'] } } },
      snapshot: newRulesOff({ rules: [execute(false)] }),
      findings: [{ messageId: 'neither' }],
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
