// The table test of the example rule, run with vitest: valid snapshots (the rule finds nothing)
// and invalid ones (exactly these findings); every message of the rule must be produced.
import { testRule } from 'zonewarden/rules/testing';
import rule from './acme-unproxied-in-range.js';

let seq = 0;
const record = (type, name, content, proxied = false) => ({ id: `rec${String(++seq).padStart(29, '0')}`, type, name, content, proxied, ttl: proxied ? 1 : 3600 });
const zone = (...dnsRecords) => ({ zones: [{ name: 'shop.example', dnsRecords }] });

const ssh = record('A', 'ssh.shop.example', '203.0.113.7');

testRule(rule, {
  valid: [
    { name: 'no records', snapshot: zone() },
    { name: 'proxied records in the range', snapshot: zone(record('A', 'shop.example', '203.0.113.7', true)) },
    { name: 'unproxied records outside it', snapshot: zone(record('A', 'mail.shop.example', '198.51.100.25'), record('A', 'edge.shop.example', '203.0.114.1')) },
    { name: 'names are not addresses', snapshot: zone(record('CNAME', 'www.shop.example', '203.0.113.7.example.net')) },
    { name: 'other ranges, by option', options: { ranges: ['192.0.2.0/24'] }, snapshot: zone(ssh) },
  ],
  invalid: [
    {
      name: 'an unproxied A record in the range',
      snapshot: zone(record('A', 'shop.example', '198.51.100.1', true), ssh),
      findings: [{ messageId: 'inRange', severity: 'high', resourceId: ssh.id, message: 'ssh.shop.example (A 203.0.113.7) is not proxied and points into the origin range 203.0.113.0/24' }],
    },
    {
      name: 'IPv6 ranges, by option',
      options: { ranges: ['2001:db8:aa::/48'] },
      snapshot: zone(record('AAAA', 'v6.shop.example', '2001:db8:aa:1::5')),
      findings: [{ resourceName: 'v6.shop.example', data: { range: '2001:db8:aa::/48' } }],
    },
    { name: 'the configured severity wins', severity: 'critical', snapshot: zone(ssh), findings: [{ severity: 'critical' }] },
    {
      name: 'unknown when the records were not read',
      snapshot: { zones: [{ name: 'shop.example', unread: { dns_records: 'denied' } }] },
      findings: [{ status: 'unknown', resourceType: 'zone' }],
    },
  ],
});
