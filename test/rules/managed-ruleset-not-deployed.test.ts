import rule from '../../rules/managed-ruleset-not-deployed.js';
import { days } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: rulesets: the http_request_firewall_managed entry point's execute rules name the
// managed ruleset in action_parameters.id (efb7b8c949ac4650a09736fc376e9aee; OWASP 4814384a9e5d4991b9815dcfc25d2f1f).
const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const migrated = { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled', created: days(-5) };
const exec = (id: string, enabled = true) => ({ id: `x${id.slice(0, 4)}`, action: 'execute', expression: 'true', enabled, action_parameters: { id } });
const zone = (entrypoint: Record<string, unknown> | null, extra = {}) => ({
  zones: [{ name: 'shop.example', plan: 'business' as const, migrationStatus: migrated, entrypoint, unread: { migration_check: 'skipped' as const }, ...extra }],
});

testRule(rule, {
  valid: [
    { name: 'managed and OWASP deployed', snapshot: zone({ rules: [exec(MANAGED), exec(OWASP)] }) },
    { name: 'managed only', snapshot: zone({ rules: [exec(MANAGED)] }) },
    { name: 'not migrated: judged by managed-rules-disabled', snapshot: { zones: [{ name: 'a.example' }] } },
    { name: 'a Free zone', snapshot: zone(null, { plan: 'free' }) },
  ],
  invalid: [
    { name: 'no entry point after migration', snapshot: zone(null), findings: [{ messageId: 'none', severity: 'high' }] },
    { name: 'an entry point without the managed ruleset', snapshot: zone({ rules: [exec(OWASP)] }), findings: [{ messageId: 'notDeployed' }] },
    { name: 'managed ruleset disabled', snapshot: zone({ rules: [exec(MANAGED, false)] }), findings: [{ messageId: 'disabled' }] },
    { name: 'OWASP disabled', snapshot: zone({ rules: [exec(MANAGED), exec(OWASP, false)] }), findings: [{ messageId: 'owaspDisabled', severity: 'medium' }] },
    { name: 'unknown when the entry point was not read', snapshot: zone(null, { unread: { entrypoint: 'failed' } }), findings: [{ status: 'unknown' }] },
    { name: 'unknown without the status', snapshot: { zones: [{ name: 'a.example', unread: { migration_status: 'failed' } }] }, findings: [{ status: 'unknown' }] },
  ],
});
