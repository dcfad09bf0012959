import rule from '../../rules/origin-pulls-off.js';
import { dnsRecord, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';
import { withStandIns } from '../support/stand-ins.js';

// vendor docs: Authenticated Origin Pulls (mTLS): without it, anyone who discovers the origin's
// address can send requests directly, bypassing the edge and its protections.
// vendor API reference: GET /zones/{zone_id}/origin_tls_client_auth/settings answers {enabled}:
// whether zone-level authenticated origin pulls are on, false by default.
// vendor docs: proxied DNS records: unproxied records on a proxied record's address, mail hosted on
// it and SPF records naming it reveal the origin (the leaks dns-origin-exposed reports).
const apex = dnsRecord('A', 'shop.example', '203.0.113.10', true);
const direct = dnsRecord('A', 'direct.shop.example', '203.0.113.10');
const spf = dnsRecord('TXT', 'shop.example', 'v=spf1 ip4:203.0.113.10 -all');
const elsewhere = dnsRecord('A', 'mail.shop.example', '198.51.100.25');

const zone = (originPulls: Item | null, records: Item[], extra: Record<string, unknown> = {}) => ({
  zones: [{ name: 'shop.example', originPulls, dnsRecords: records, ...extra }],
});

testRule(rule, withStandIns({
  valid: [
    // vendor docs: Authenticated Origin Pulls: with it on, the origin can refuse requests that do not come through the edge.
    { name: 'on, with an exposed origin', snapshot: zone({ enabled: true }, [apex, direct]) },
    { name: 'off, with nothing revealing the origin', snapshot: zone({ enabled: false }, [apex, elsewhere]) },
    // RFC 5737 (documentation addresses): by dns-private-address's defaults, followed here, not public; an origin there is exposed to no one.
    { name: 'off, with the "leak" at a documentation address that is not a stand-in', options: { standIns: [] }, snapshot: zone({ enabled: false }, [apex, direct]) },
    // RFC 1918 (private addresses): a proxied private origin is a broken host, not a leak.
    { name: 'off, with a private origin', snapshot: zone({ enabled: false }, [dnsRecord('A', 'shop.example', '10.1.2.3', true), dnsRecord('A', 'direct.shop.example', '10.1.2.3')]) },
    // vendor docs: proxied DNS records: with nothing proxied there is no hidden origin to reveal.
    { name: 'off, with nothing proxied', snapshot: zone({ enabled: false }, [dnsRecord('A', 'shop.example', '203.0.113.10'), direct]) },
    { name: 'off, on a zone without records', snapshot: zone({ enabled: false }, []) },
    {
      // A setting that is on decides alone: the records are not needed, so their failed read does not make it unknown.
      name: 'on, with the DNS records not read',
      snapshot: { zones: [{ name: 'shop.example', originPulls: { enabled: true }, unread: { dns_records: 'failed' as const } }] },
    },
  ],
  invalid: [
    {
      // vendor docs: proxied DNS records: an unproxied record on the proxied address reveals the origin.
      name: 'off, with an unproxied record on the proxied address',
      snapshot: zone({ enabled: false }, [apex, direct, elsewhere]),
      findings: [{ messageId: 'off', severity: 'high', resourceType: 'zone', data: { count: 1, records: 'direct.shop.example' } }],
    },
    {
      // RFC 7208 5.6: an ip4 mechanism names the address; here the proxied apex's origin.
      name: 'off, with the origin named in SPF and on an unproxied record: each name once',
      snapshot: zone({ enabled: false }, [apex, direct, spf]),
      findings: [{ messageId: 'off', data: { count: 2, records: 'direct.shop.example, shop.example' } }],
    },
    {
      // vendor API reference: zone-level authenticated origin pulls are false by default: an answer without the field is off.
      name: 'an answer without the field is off',
      snapshot: zone({}, [apex, direct]),
      findings: [{ messageId: 'off' }],
    },
    {
      // vendor docs: pausing a zone: DNS answers proxied records with the origin itself.
      name: 'off, on a paused zone answering with its origin',
      snapshot: zone({ enabled: false }, [apex], { paused: true }),
      findings: [{ messageId: 'off', data: { records: 'shop.example' } }],
    },
    { name: 'unknown when the setting was not read', snapshot: { zones: [{ name: 'shop.example', dnsRecords: [apex, direct], unread: { origin_pulls: 'denied' as const } }] }, findings: [{ status: 'unknown' }] },
    {
      // Which records reveal the origin decides a failure: without them, unknown.
      name: 'off: unknown when the DNS records were not read',
      snapshot: { zones: [{ name: 'shop.example', originPulls: { enabled: false }, unread: { dns_records: 'failed' as const } }] },
      findings: [{ status: 'unknown', message: 'dns_records' }],
    },
  ],
}));
