import rule from '../../rules/universal-ssl-off.js';
import { days } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: universal SSL settings: {enabled}; disabling it removes the universal certificates
// from the edge, and without advanced or custom certificates visitors cannot reach the domain over
// HTTPS. Universal packs cover the apex and one level of subdomains.
// vendor docs: proxy status: only proxied records are served by the edge (and its certificates);
// a DNS-only record answers with the origin's address, so the origin's own certificate serves it.
const a = (name: string, proxied = true) => ({ id: `r-${name}-${proxied}`, type: 'A', name, content: '192.0.2.10', proxied, ttl: 1 });
const pack = (type: string, hosts: string[], status = 'active') => ({ id: `p-${type}-${hosts[0]}`, type, status, hosts, created_on: days(-10) });
const zone = (enabled: boolean | undefined, records: Record<string, unknown>[], packs: Record<string, unknown>[]) => ({
  zones: [{ name: 'shop.example', universalSsl: enabled === undefined ? {} : { enabled }, dnsRecords: records, certificatePacks: packs }],
});

testRule(rule, {
  valid: [
    { name: 'on', snapshot: zone(true, [a('www.shop.example')], []) },
    { name: 'an answer without the field is taken as on', snapshot: zone(undefined, [a('www.shop.example')], []) },
    { name: 'off, with an advanced pack covering every proxied host', snapshot: zone(false, [a('shop.example'), a('www.shop.example'), a('db.shop.example', false)], [pack('advanced', ['shop.example', '*.shop.example'])]) },
    { name: 'off, with a custom certificate for the proxied apex', snapshot: zone(false, [a('shop.example')], [pack('custom', ['shop.example'])]) },
    // vendor docs: proxy status: a DNS-only apex is answered by its origin, which presents its own certificate.
    { name: 'off, with the apex and every other record DNS-only: no edge certificate is presented', snapshot: zone(false, [a('shop.example', false), a('mail.shop.example', false)], []) },
    { name: 'off, on a zone without records', snapshot: zone(false, [], []) },
    {
      // Nothing proxied decides it: the packs are not needed, so their failed read does not make it unknown.
      name: 'off with nothing proxied passes even when the packs were not read',
      snapshot: { zones: [{ name: 'shop.example', universalSsl: { enabled: false }, dnsRecords: [a('shop.example', false)], unread: { certificate_packs: 'failed' } }] },
    },
  ],
  invalid: [
    {
      // vendor docs: universal SSL settings: with it off and only the universal pack, a proxied name has no edge certificate.
      // The DNS-only apex is not listed (proxy status: DNS-only names are answered by the origin).
      name: 'off with only the universal pack: the proxied names, not the DNS-only apex',
      snapshot: zone(false, [a('www.shop.example'), a('shop.example', false)], [pack('universal', ['shop.example', '*.shop.example'])]),
      findings: [{ messageId: 'uncovered', severity: 'high', data: { count: 1, hosts: 'www.shop.example' } }],
    },
    {
      name: 'off with a proxied apex and nothing else covering it',
      snapshot: zone(false, [a('shop.example'), a('www.shop.example')], [pack('universal', ['shop.example', '*.shop.example'])]),
      findings: [{ messageId: 'uncovered', data: { count: 2, hosts: 'shop.example, www.shop.example' } }],
    },
    {
      // A record name is compared as a host name: case and a final dot do not matter.
      name: 'the apex is recognised however the record spells it',
      snapshot: zone(false, [a('Shop.Example.')], []),
      findings: [{ messageId: 'uncovered', data: { hosts: 'shop.example' } }],
    },
    {
      name: 'an advanced pack still being validated does not count',
      snapshot: zone(false, [a('shop.example')], [pack('advanced', ['shop.example'], 'pending_validation')]),
      findings: [{ messageId: 'uncovered', data: { hosts: 'shop.example' } }],
    },
    {
      name: 'a deeper name the wildcard does not cover',
      snapshot: zone(false, [a('a.b.shop.example')], [pack('advanced', ['shop.example', '*.shop.example'])]),
      findings: [{ messageId: 'uncovered', data: { hosts: 'a.b.shop.example' } }],
    },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'a.example', unread: { universal_ssl: 'failed' } }] }, findings: [{ status: 'unknown' }] },
    {
      // Which names are proxied decides what must be covered: without the records, unknown.
      name: 'off: unknown when the DNS records were not read',
      snapshot: { zones: [{ name: 'shop.example', universalSsl: { enabled: false }, certificatePacks: [], unread: { dns_records: 'failed' } }] },
      findings: [{ status: 'unknown', message: 'dns_records' }],
    },
    {
      name: 'off with proxied names: unknown when the packs were not read',
      snapshot: { zones: [{ name: 'shop.example', universalSsl: { enabled: false }, dnsRecords: [a('shop.example')], unread: { certificate_packs: 'failed' } }] },
      findings: [{ status: 'unknown', message: 'certificate_packs' }],
    },
  ],
});
