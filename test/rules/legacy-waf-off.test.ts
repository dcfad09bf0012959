import rule from '../../rules/legacy-waf-off.js';
import { days, NOT_OFFERED } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: zone settings: waf on | off (legacy, paid plans); a setting the plan does not offer answers an error.
// spec: Managed-rules migration: a migrated zone runs the new managed rules only.
const migrated = { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled', created: days(-5) };

testRule(rule, {
  valid: [
    { name: 'on', snapshot: { zones: [{ name: 'shop.example', plan: 'business', settings: { waf: 'on' } }] } },
    { name: 'a Free zone has no WAF switch (not read)', snapshot: { zones: [{ name: 'hobby.example', plan: 'free' }] } },
    { name: 'a migrated zone no longer has the switch (not read)', snapshot: { zones: [{ name: 'done.example', plan: 'pro', migrationStatus: migrated }] } },
    // vendor docs: WAF migration: a zone created since 2022-09 never had the previous WAF (no migration state).
    { name: 'a zone born on the new managed rules has no switch (not read)', snapshot: { zones: [{ name: 'new.example', plan: 'pro', migrationStatus: { old_waf_status: 'disabled', new_waf_status: 'enabled' } }] } },
    { name: 'not offered: not applicable', snapshot: { zones: [{ name: 'shop.example', plan: 'pro', settings: { waf: NOT_OFFERED } }] } },
  ],
  invalid: [
    { name: 'off on a paid zone not migrated', snapshot: { zones: [{ name: 'shop.example', plan: 'business', settings: { waf: 'off' } }] }, findings: [{ messageId: 'off', severity: 'high', data: { plan: 'business' } }] },
    { name: 'unknown without the migration status', snapshot: { zones: [{ name: 'shop.example', unread: { migration_status: 'failed' } }] }, findings: [{ status: 'unknown' }] },
    { name: 'unknown when the plan is not named', snapshot: { zones: [{ name: 'shop.example', plan: null, settings: { waf: 'off' } }] }, findings: [{ status: 'unknown', message: 'does not name its plan' }] },
    { name: 'unknown when the switch was not read', snapshot: { zones: [{ name: 'shop.example', plan: 'pro', settings: {} }] }, findings: [{ status: 'unknown', message: 'setting waf' }] },
  ],
});
