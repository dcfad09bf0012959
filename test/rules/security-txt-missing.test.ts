import rule from '../../rules/security-txt-missing.js';
import { days, dnsRecord, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor API reference: Security TXT: GET /zones/{zone_id}/security-center/securitytxt answers
// {enabled, contact[], expires, encryption[], policy[], ...}; `result` is optional (none set up).
// RFC 9116 2.5.3: Contact MUST be present at least once; 2.5.5: Expires MUST be present once, and a
// file past it is to be considered stale.
// vendor docs: proxy status: DNS-only records bypass the edge, which then serves nothing for them.
const apex = dnsRecord('A', 'shop.example', '203.0.113.10', true);
const dnsOnly = dnsRecord('A', 'shop.example', '203.0.113.10');
const txt = (fields: Item = {}): Item => ({ enabled: true, contact: ['mailto:security@shop.example'], expires: days(120), policy: ['https://shop.example/security'], ...fields });

const zone = (securityTxt: Item | null, records: Item[] = [apex], extra: Record<string, unknown> = {}) => ({
  zones: [{ name: 'shop.example', securityTxt, dnsRecords: records, ...extra }],
});

testRule(rule, {
  valid: [
    { name: 'enabled, with a contact and an Expires ahead', snapshot: zone(txt()) },
    { name: 'several contacts, no policy (RFC 9116: Policy is optional)', snapshot: zone(txt({ contact: ['mailto:a@shop.example', 'https://shop.example/report'], policy: [] })) },
    { name: 'none, on a zone proxying nothing: not applicable', snapshot: zone(null, [dnsOnly]) },
    { name: 'none, on a paused zone: not applicable', snapshot: zone(null, [apex], { paused: true }) },
    { name: 'expired, on a zone proxying nothing: not applicable', snapshot: zone(txt({ expires: days(-3) }), [dnsOnly]) },
    {
      // A current, complete file decides alone: the records are not needed.
      name: 'complete, with the DNS records not read',
      snapshot: { zones: [{ name: 'shop.example', securityTxt: txt(), unread: { dns_records: 'failed' as const } }] },
    },
  ],
  invalid: [
    { name: 'none (the API answers no object)', snapshot: zone(null), findings: [{ messageId: 'missing', severity: 'low', resourceType: 'zone' }] },
    { name: 'set up but disabled', snapshot: zone(txt({ enabled: false })), findings: [{ messageId: 'missing' }] },
    { name: 'an answer without enabled is not a published file', snapshot: zone({ contact: [], policy: [] }), findings: [{ messageId: 'missing' }] },
    // RFC 9116 2.5.5: past its Expires, the file is stale.
    { name: 'expired', snapshot: zone(txt({ expires: days(-3) })), findings: [{ messageId: 'expired', data: { expires: days(-3) } }] },
    // RFC 9116 2.5.3: Contact is required.
    { name: 'no contact', snapshot: zone(txt({ contact: [] })), findings: [{ messageId: 'incomplete', message: 'no Contact' }] },
    { name: 'a blank contact is none', snapshot: zone(txt({ contact: [' '] })), findings: [{ messageId: 'incomplete', message: 'no Contact' }] },
    // RFC 9116 2.5.5: Expires is required.
    { name: 'no Expires', snapshot: zone(txt({ expires: undefined })), findings: [{ messageId: 'incomplete', message: 'no Expires' }] },
    { name: 'an Expires that is not a date', snapshot: zone(txt({ expires: 'soon' })), findings: [{ messageId: 'incomplete', message: 'not a date ("soon")' }] },
    {
      name: 'no contact and expired: both said',
      snapshot: zone(txt({ contact: [], expires: days(-1) })),
      findings: [{ messageId: 'incomplete', message: ['no Contact', `it expired on ${days(-1)}`] }],
    },
    { name: 'unknown when denied', snapshot: { zones: [{ name: 'shop.example', dnsRecords: [apex], unread: { security_txt: 'denied' as const } }] }, findings: [{ status: 'unknown', message: 'security_txt' }] },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'shop.example', dnsRecords: [apex] }] }, findings: [{ status: 'unknown' }] },
    { name: 'unknown when missing and the DNS records were not read', snapshot: { zones: [{ name: 'shop.example', securityTxt: null, unread: { dns_records: 'failed' as const } }] }, findings: [{ status: 'unknown', message: 'dns_records' }] },
  ],
});
