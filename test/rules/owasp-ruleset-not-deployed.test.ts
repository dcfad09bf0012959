import rule from '../../rules/owasp-ruleset-not-deployed.js';
import { days, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: WAF managed rules: the Cloudflare OWASP Core Ruleset has the ruleset ID
// 4814384a9e5d4991b9815dcfc25d2f1f, the Cloudflare Managed Ruleset efb7b8c949ac4650a09736fc376e9aee;
// the Free Managed Ruleset is the one available on all plans.
// vendor docs: WAF, configure the OWASP ruleset via API: deployed by an execute rule in the zone's
// http_request_firewall_managed entry point.
// vendor docs: WAF, account-level WAF configuration: account execute rules deploy to Enterprise zones.
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const migrated = { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled', created: days(-5) };
// A zone created on the new managed rules: no migration state, the new version enabled.
const native = { old_waf_status: 'disabled', new_waf_status: 'enabled' };
const exec = (id: string, extra: Item = {}): Item => ({ id: `x-${id.slice(0, 4)}-${String(extra['enabled'])}`, action: 'execute', expression: 'true', ...extra, action_parameters: { id } });
const zone = (entrypoint: Item | null, extra: Record<string, unknown> = {}) => ({
  zones: [{ name: 'shop.example', plan: 'business' as const, migrationStatus: migrated, entrypoint, unread: { migration_check: 'skipped' as const }, ...extra }],
});
const enterprise = (entrypoint: Item | null, accountEntrypoint: Item | null, extra: Record<string, unknown> = {}) => zone(entrypoint, { plan: 'enterprise' as const, accountEntrypoint, ...extra });

testRule(rule, {
  valid: [
    { name: 'OWASP executed in the zone entry point', snapshot: zone({ rules: [exec(MANAGED), exec(OWASP)] }) },
    { name: 'a zone born on the new managed rules', snapshot: zone({ rules: [exec(OWASP)] }, { migrationStatus: native }) },
    // vendor docs: configure the OWASP ruleset: overriding the action to log is how it is tried out; an enabled execute rule deploys it.
    { name: 'deployed with its action overridden to log', snapshot: zone({ rules: [{ ...exec(OWASP), action_parameters: { id: OWASP, overrides: { action: 'log' } } }] }) },
    // vendor docs: account-level WAF configuration: the account's execute rule deploys it to the zone it selects.
    { name: 'Enterprise: deployed at the account level for this zone', snapshot: enterprise({ rules: [exec(MANAGED)] }, { rules: [exec(OWASP, { expression: 'cf.zone.name eq "shop.example"' })] }) },
    // vendor docs: WAF managed rules: Free zones get the Free Managed Ruleset, not the OWASP core ruleset.
    { name: 'Free: not offered', snapshot: zone(null, { plan: 'free' as const }) },
    { name: 'Free included by option, deployed', snapshot: zone({ rules: [exec(OWASP)] }, { plan: 'free' as const }), options: { plans: ['free', 'pro'] } },
    { name: 'a plan left out by option', snapshot: zone(null, { plan: 'pro' as const }), options: { plans: ['enterprise'] } },
    // API spec: managed-rules migration: a zone still on the previous managed rules has the previous WAF's OWASP package, judged elsewhere.
    { name: 'not migrated: the previous WAF still decides', snapshot: { zones: [{ name: 'shop.example', plan: 'business' as const }] } },
    {
      // vendor docs: rulesets: a disabled rule does not run. managed-ruleset-not-deployed already reports
      // a deployed-but-disabled OWASP execute rule (owaspDisabled); it passes here so the zone gets that finding once.
      name: 'the OWASP execute rule is deployed but disabled: reported by managed-ruleset-not-deployed',
      snapshot: zone({ rules: [exec(MANAGED), { ...exec(OWASP, { enabled: false }), description: 'OWASP' }] }),
    },
    {
      // As above, at the account level (vendor docs: account-level WAF configuration): the deployment exists, disabled.
      name: 'Enterprise: deployed but disabled at the account level: reported by managed-ruleset-not-deployed',
      snapshot: enterprise({ rules: [exec(MANAGED)] }, { rules: [exec(OWASP, { enabled: false })] }),
    },
    {
      // An enabled zone-level deployment decides alone: the account entry point's failed read does not make it unknown.
      name: 'Enterprise: deployed in the zone, the account entry point not read',
      snapshot: enterprise({ rules: [exec(OWASP)] }, null, { unread: { account_entrypoint: 'failed' as const } }),
    },
  ],
  invalid: [
    {
      name: 'only the managed ruleset is executed',
      snapshot: zone({ rules: [exec(MANAGED)] }),
      findings: [{ messageId: 'none', severity: 'low', resourceType: 'zone' }],
    },
    { name: 'no managed entry point at all', snapshot: zone(null, { migrationStatus: native, plan: 'pro' as const }), findings: [{ messageId: 'none' }] },
    {
      // vendor docs: account-level WAF configuration: an account execute rule whose expression selects other zones does not deploy to this one.
      name: 'Enterprise: the account deploys OWASP to another zone only',
      snapshot: enterprise({ rules: [exec(MANAGED)] }, { rules: [exec(OWASP, { expression: 'cf.zone.name eq "other.example"' })] }),
      findings: [{ messageId: 'none' }],
    },
    {
      name: 'Enterprise: not in the zone, and the account entry point was not read',
      snapshot: enterprise({ rules: [exec(MANAGED)] }, null, { unread: { account_entrypoint: 'denied' as const } }),
      findings: [{ status: 'unknown', message: 'account' }],
    },
    { name: 'unknown when the zone entry point was not read', snapshot: zone(null, { unread: { entrypoint: 'failed' as const, migration_check: 'skipped' as const } }), findings: [{ status: 'unknown' }] },
    { name: 'unknown without a migration status', snapshot: zone({ rules: [] }, { migrationStatus: null }), findings: [{ status: 'unknown', message: 'migration status' }] },
  ],
});
