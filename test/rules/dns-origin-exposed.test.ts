import rule from '../../rules/dns-origin-exposed.js';
import type { Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

let seq = 0;
const hex = () => (++seq).toString(16).padStart(32, '0');

const record = (type: string, name: string, content: string, proxied: boolean | null = false): Item => ({
  id: hex(),
  type,
  name,
  content,
  ...(proxied === null ? {} : { proxied }),
  ttl: proxied ? 1 : 3600,
});

const zone = (...records: Item[]) => ({ zones: [{ name: 'a.example', dnsRecords: records }] });

const apex = record('A', 'a.example', '203.0.113.10', true);
const www = record('CNAME', 'www.a.example', 'a.example', true);
const assets = record('CNAME', 'assets.a.example', 'assets.storage.example.net', true);
const direct = record('A', 'direct.a.example', '203.0.113.10');

testRule(rule, {
  valid: [
    { name: 'no records', snapshot: zone() },
    { name: 'proxied records only', snapshot: zone(apex, www, assets) },
    { name: 'unproxied records at their own addresses', snapshot: zone(apex, record('A', 'mail.a.example', '203.0.113.25'), record('CNAME', 'status.a.example', 'a.statuspage.example.com')) },
    { name: 'nothing proxied, nothing to expose', snapshot: zone(record('A', 'a.example', '192.0.2.90'), record('A', 'ssh.a.example', '192.0.2.90')) },
    { name: 'two proxied records sharing an address', snapshot: zone(apex, record('A', 'api.a.example', '203.0.113.10', true)) },
    { name: 'an alias of a proxied name resolves to the proxy', snapshot: zone(apex, www, record('CNAME', 'alias.a.example', 'A.Example.')) },
    { name: 'other record types are not origins', snapshot: zone(apex, record('TXT', 'a.example', '203.0.113.10'), record('MX', 'a.example', 'assets.storage.example.net'), assets) },
    { name: 'a record without a proxy state is not known to be unproxied', snapshot: zone(apex, record('A', 'unknown.a.example', '203.0.113.10', null)) },
  ],
  invalid: [
    {
      name: 'an unproxied A record at the proxied apex address',
      snapshot: zone(apex, www, direct, record('A', 'mail.a.example', '203.0.113.25')),
      findings: [
        {
          messageId: 'exposed',
          severity: 'high',
          resourceType: 'dns_record',
          resourceId: direct['id'] as string,
          resourceName: 'direct.a.example',
          message: 'direct.a.example (A 203.0.113.10) is not proxied and points where the proxied a.example does: it reveals the origin behind the proxy',
          data: { exposes: 'a.example' },
        },
      ],
    },
    {
      name: 'an unproxied CNAME to the proxied target, whatever its case and trailing dot',
      snapshot: zone(assets, record('CNAME', 'assets-origin.a.example', 'Assets.Storage.Example.NET.')),
      findings: [{ resourceName: 'assets-origin.a.example', message: ['(CNAME Assets.Storage.Example.NET.)', 'the proxied assets.a.example does'] }],
    },
    {
      name: 'IPv6 addresses compare in canonical form',
      snapshot: zone(record('AAAA', 'a.example', '2001:db8:10::10', true), record('AAAA', 'v6.a.example', '2001:0DB8:10:0:0:0:0:10')),
      findings: [{ resourceName: 'v6.a.example', message: 'AAAA 2001:0DB8:10:0:0:0:0:10' }],
    },
    {
      name: 'one finding per exposing record',
      snapshot: zone(apex, direct, record('A', 'ssh.a.example', '203.0.113.10'), record('A', 'origin.a.example', '203.0.113.10')),
      findings: [{ resourceName: 'direct.a.example' }, { resourceName: 'ssh.a.example' }, { resourceName: 'origin.a.example' }],
    },
    { name: 'the configured severity wins', severity: 'critical', snapshot: zone(apex, direct), findings: [{ severity: 'critical' }] },
    {
      name: 'unknown when the records were not read',
      snapshot: { zones: [{ name: 'a.example', unread: { dns_records: 'failed' } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'dns_records' }],
    },
  ],
});
