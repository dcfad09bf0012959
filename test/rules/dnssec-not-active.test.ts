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
    // vendor docs: partial (CNAME) setup: the authoritative DNS stays with the customer's provider, so
    // resolvers validate that provider's signatures, not the vendor's: not applicable.
    { name: 'a partial (CNAME setup) zone is not applicable', snapshot: zone('disabled', -1, { type: 'partial' }) },
    // vendor docs: Cloudflare as secondary: the zone is signed by the primary (pre-signed transfer) or
    // together with it (live signing with multi-signer DNSSEC), so the vendor's status alone is not
    // what resolvers validate: not applicable.
    { name: 'a secondary zone is not applicable', snapshot: zone('pending', -30, { type: 'secondary' }) },
    // vendor docs, Internal DNS: internal zones do not get the vendor's nameservers and can only be
    // queried through its Gateway resolver: not in public DNS, so no resolver validates them.
    { name: 'an internal zone is not applicable', snapshot: zone('disabled', -1, { type: 'internal' }) },
    { name: 'an internal zone is not applicable even when DNSSEC was not read', snapshot: { zones: [{ name: 'corp.example', type: 'internal' as const, unread: { dnssec: 'denied' as const } }] } },
    { name: 'a partial zone is not applicable even when DNSSEC was not read', snapshot: { zones: [{ name: 'a.example', type: 'partial' as const, unread: { dnssec: 'denied' as const } }] } },
  ],
  invalid: [
    { name: 'disabled', snapshot: zone('disabled'), findings: [{ messageId: 'disabled', severity: 'medium', zone: 'shop.example' }] },
    // vendor docs: full setup: the vendor's nameservers answer for the zone, so its DNSSEC is what resolvers see.
    { name: 'a full-setup zone is judged', snapshot: zone('disabled', -1, { type: 'full' }), findings: [{ messageId: 'disabled' }] },
    { name: 'pending for a week: stuck', snapshot: zone('pending', -7), findings: [{ messageId: 'pendingStuck', data: { days: 7 } }] },
    { name: 'pending-disabled', snapshot: zone('pending-disabled'), findings: [{ messageId: 'disabling' }] },
    { name: 'error is high', snapshot: zone('error'), findings: [{ messageId: 'error', severity: 'high' }] },
    { name: 'no status', snapshot: zone(undefined), findings: [{ messageId: 'noStatus', severity: 'low', message: '"none"' }] },
    { name: 'pending without a date', snapshot: zone('pending', null), findings: [{ status: 'unknown', message: 'since when' }] },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'a.example', unread: { dnssec: 'denied' } }] }, findings: [{ status: 'unknown' }] },
    { name: 'unknown when the scan did not ask', snapshot: { zones: [{ name: 'a.example' }] }, findings: [{ status: 'unknown' }] },
  ],
});
