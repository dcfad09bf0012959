import rule from '../../rules/dnssec-not-active.js';
import { days } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: DNSSEC: status active | pending | disabled | pending-disabled | error, with modified_on.
// Pending means signed by the vendor and waiting for the DS record at the registrar.
const zone = (status: string | undefined, modified: number | null = -1, extra = {}) => ({
  zones: [{ name: 'shop.example', dnssec: { ...(status ? { status } : {}), ...(modified === null ? {} : { modified_on: days(modified) }), flags: 257 }, ...extra }],
});

testRule(rule, {
  valid: [
    { name: 'active', snapshot: zone('active') },
    { name: 'pending for less than the grace period', snapshot: zone('pending', -6.5) },
    { name: 'a longer grace by option', options: { pendingDays: 30 }, snapshot: zone('pending', -20) },
    { name: 'a zone not active yet is judged once it is', snapshot: zone('disabled', -1, { status: 'pending' }) },
  ],
  invalid: [
    { name: 'disabled', snapshot: zone('disabled'), findings: [{ messageId: 'disabled', severity: 'medium', zone: 'shop.example' }] },
    { name: 'pending for a week: stuck', snapshot: zone('pending', -7), findings: [{ messageId: 'pendingStuck', data: { days: 7 } }] },
    { name: 'pending-disabled', snapshot: zone('pending-disabled'), findings: [{ messageId: 'disabling' }] },
    { name: 'error is high', snapshot: zone('error'), findings: [{ messageId: 'error', severity: 'high' }] },
    { name: 'no status', snapshot: zone(undefined), findings: [{ messageId: 'noStatus', severity: 'low', message: '"none"' }] },
    { name: 'pending without a date', snapshot: zone('pending', null), findings: [{ status: 'unknown', message: 'since when' }] },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'a.example', unread: { dnssec: 'denied' } }] }, findings: [{ status: 'unknown' }] },
    { name: 'unknown when the scan did not ask', snapshot: { zones: [{ name: 'a.example' }] }, findings: [{ status: 'unknown' }] },
  ],
});
