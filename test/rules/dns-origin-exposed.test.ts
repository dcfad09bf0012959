import rule from '../../rules/dns-origin-exposed.js';
import { dnsRecord, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';
import { withStandIns } from '../support/stand-ins.js';

const record = dnsRecord;

const zone = (...records: Item[]) => ({ zones: [{ name: 'a.example', dnsRecords: records }] });
const mx = (host: string) => ({ ...record('MX', 'a.example', host), priority: 10 });

// vendor docs: proxied DNS records. The origin is exposed by unproxied records on the same address,
// by the unproxied name a proxied CNAME points at, by mail (MX) hosted on it and by SPF/TXT records
// naming it; a paused or not yet active zone answers proxied records with the origin itself.
// RFC 7208, 5.6: SPF `ip4:` and `ip6:` mechanisms take an address and an optional prefix length.

const apex = record('A', 'a.example', '203.0.113.10', true);
const www = record('CNAME', 'www.a.example', 'a.example', true);
const assets = record('CNAME', 'assets.a.example', 'assets.storage.example.net', true);
const direct = record('A', 'direct.a.example', '203.0.113.10');

testRule(rule, withStandIns({
  valid: [
    { name: 'no records', snapshot: zone() },
    { name: 'proxied records only', snapshot: zone(apex, www, assets) },
    { name: 'unproxied records at their own addresses', snapshot: zone(apex, record('A', 'mail.a.example', '203.0.113.25'), record('CNAME', 'status.a.example', 'a.statuspage.example.com')) },
    { name: 'nothing proxied, nothing to expose', snapshot: zone(record('A', 'a.example', '192.0.2.90'), record('A', 'ssh.a.example', '192.0.2.90')) },
    { name: 'two proxied records sharing an address', snapshot: zone(apex, record('A', 'api.a.example', '203.0.113.10', true)) },
    { name: 'an alias of a proxied name resolves to the proxy', snapshot: zone(apex, www, record('CNAME', 'alias.a.example', 'A.Example.')) },
    { name: 'other record types are not origins', snapshot: zone(apex, record('SRV', '_sip._tcp.a.example', '10 5060 sip.example.net'), mx('assets.storage.example.net'), assets) },
    {
      name: 'SPF and TXT records naming other addresses, or a provider range wider than /24',
      snapshot: zone(apex, record('TXT', 'a.example', 'v=spf1 ip4:198.51.100.0/24 ip4:203.0.0.0/16 ip6:2001:db8::/32 include:_spf.mail.example -all'), record('TXT', 'a.example', 'google-site-verification=203.0.113.10abc')),
    },
    { name: 'mail hosted elsewhere', snapshot: zone(apex, mx('mail.a.example'), record('A', 'mail.a.example', '203.0.113.25'), mx('mx1.provider.example')) },
    { name: 'a proxied CNAME to a name outside the zone', snapshot: zone(assets, record('A', 'storage.a.example', '203.0.113.99')) },
    {
      name: 'a proxied record with a private origin is a broken host, not a leak (dns-private-address reports it)',
      snapshot: zone(record('A', 'app.a.example', '10.0.0.5', true), record('A', 'app-direct.a.example', '10.0.0.5'), record('TXT', 'a.example', 'v=spf1 ip4:10.0.0.5 -all')),
    },
    // RFC 5737 (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24) and RFC 3849 (2001:db8::/32):
    // documentation addresses, not globally reachable; by dns-private-address's defaults (followed
    // here) they are not public, so an origin there is published to no one: dns-private-address
    // reports the records, and nothing is "origin published" twice over.
    {
      name: 'documentation addresses publish no origin (dns-private-address defaults)',
      options: { standIns: [] },
      snapshot: zone(
        record('A', 'a.example', '192.0.2.10', true),
        record('A', 'direct.a.example', '192.0.2.10'),
        record('AAAA', 'v6.a.example', '2001:db8::10', true),
        record('AAAA', 'v6-direct.a.example', '2001:db8::10'),
        record('TXT', 'a.example', 'v=spf1 ip4:192.0.2.10 -all'),
      ),
    },
    // RFC 6598 (100.64.0.0/10, shared address space) and RFC 4193 (fc00::/7, unique local): not globally reachable either.
    {
      name: 'shared and unique local addresses publish no origin',
      snapshot: zone(record('A', 'app.a.example', '100.64.0.5', true), record('A', 'app-direct.a.example', '100.64.0.5'), record('AAAA', 'v6.a.example', 'fd00::5', true), record('AAAA', 'v6-direct.a.example', 'fd00::5')),
    },
    // RFC 2308 2.1: a CNAME whose target does not exist reveals no origin; dns-dangling-target reports it (takeover).
    {
      name: 'a CNAME to a proxied target that does not exist is left to dns-dangling-target',
      snapshot: {
        zones: [
          {
            name: 'a.example',
            dnsRecords: [record('CNAME', 'shop.a.example', 'gone.hosting.example', true), record('CNAME', 'shop-direct.a.example', 'gone.hosting.example')],
            dnsTargets: [{ name: 'gone.hosting.example', type: 'CNAME', answer: 'nxdomain' }],
          },
        ],
      },
    },
    { name: 'a moved zone is not answered for at all', snapshot: { zones: [{ name: 'a.example', status: 'moved', dnsRecords: [apex, www] }] } },
    {
      name: 'the CNAME target is proxied itself',
      snapshot: zone(record('CNAME', 'www.a.example', 'origin.a.example', true), record('A', 'origin.a.example', '203.0.113.10', true)),
    },
    {
      // RFC 1035 3.4.1: an A record's data is an address; contents that are not one point nowhere and name no origin.
      name: 'mail hosted on a name whose A record is not an address, beside a proxied record whose content is not one either',
      snapshot: zone(record('A', 'a.example', 'not-an-address', true), mx('mail.a.example'), record('A', 'mail.a.example', 'also-not-an-address')),
    },
    { name: 'a record without a proxy state is not known to be unproxied', snapshot: zone(apex, record('A', 'unknown.a.example', '203.0.113.10', null)) },
  ],
  invalid: [
    {
      // RFC 5737: a documentation range named a stand-in (dns-private-address's standIns, followed here) is a public address; another is not.
      name: 'a documentation range named a stand-in is a public origin',
      options: { standIns: ['198.51.100.0/24'] },
      snapshot: zone(record('A', 'a.example', '198.51.100.10', true), record('A', 'direct.a.example', '198.51.100.10'), record('A', 'b.a.example', '192.0.2.10', true), record('A', 'b-direct.a.example', '192.0.2.10')),
      findings: [{ messageId: 'exposed', resourceName: 'direct.a.example' }],
    },
    {
      // The target that exists (RFC 2308 2.2) is a real origin: the DNS-only alias reveals it.
      name: 'a CNAME to a proxied target that exists reveals it',
      snapshot: {
        zones: [
          {
            name: 'a.example',
            dnsRecords: [record('CNAME', 'shop.a.example', 'shop.hosting.example', true), record('CNAME', 'shop-direct.a.example', 'shop.hosting.example')],
            dnsTargets: [{ name: 'shop.hosting.example', type: 'CNAME', answer: 'exists' }],
          },
        ],
      },
      findings: [{ messageId: 'exposed', resourceName: 'shop-direct.a.example' }],
    },
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
    {
      name: 'the unproxied name a proxied CNAME points at',
      snapshot: zone(record('CNAME', 'www.a.example', 'origin.a.example', true), record('A', 'origin.a.example', '198.51.100.7')),
      findings: [{ messageId: 'originName', resourceName: 'origin.a.example', message: 'origin.a.example (A 198.51.100.7) is not proxied and is the origin the proxied www.a.example points at (CNAME): it reveals the origin behind the proxy' }],
    },
    {
      name: 'the origin address in an SPF ip4 mechanism',
      snapshot: zone(apex, record('TXT', 'a.example', '"v=spf1 ip4:203.0.113.10 include:_spf.mail.example ~all"')),
      findings: [{ messageId: 'txt', resourceType: 'dns_record', message: 'a.example (TXT) names ip4:203.0.113.10, which is the origin address 203.0.113.10 of the proxied a.example: it reveals the origin behind the proxy' }],
    },
    {
      name: 'an SPF range of /24 or narrower that covers the origin',
      snapshot: zone(apex, record('TXT', 'a.example', 'v=spf1 +ip4:203.0.113.0/24 -all')),
      findings: [{ messageId: 'txt', message: 'names +ip4:203.0.113.0/24, which covers the origin address 203.0.113.10' }],
    },
    {
      name: 'an SPF ip6 mechanism, in another spelling of the address',
      snapshot: zone(record('AAAA', 'a.example', '2001:db8:10::10', true), record('TXT', 'a.example', 'v=spf1 ip6:2001:0db8:0010:0000:0000:0000:0000:0010 -all')),
      findings: [{ messageId: 'txt', data: { address: '2001:db8:10::10' } }],
    },
    {
      name: 'an address in the free text of another TXT record',
      snapshot: zone(apex, record('TXT', '_origin.a.example', 'origin=203.0.113.10; owner=web')),
      findings: [{ messageId: 'txt', resourceName: '_origin.a.example', data: { written: 'origin=203.0.113.10' } }],
    },
    {
      name: 'mail hosted on the origin address: the MX record and the mail host',
      snapshot: zone(apex, mx('mail.a.example'), record('A', 'mail.a.example', '203.0.113.10')),
      findings: [
        { messageId: 'mx', resourceType: 'dns_record', message: 'a.example (MX mail.a.example) sends mail to a host on 203.0.113.10, the origin address of the proxied a.example: every mail it receives reveals the origin' },
        { messageId: 'exposed', resourceName: 'mail.a.example' },
      ],
    },
    {
      name: 'a paused zone answers every proxied record with its origin',
      snapshot: { zones: [{ name: 'a.example', paused: true, dnsRecords: [apex, www, record('A', 'app.a.example', '10.0.0.5', true)] }] },
      findings: [
        { messageId: 'zoneNotServing', resourceName: 'a.example', message: 'a.example (A 203.0.113.10) is proxied, but the zone is paused: DNS answers with the origin instead of the proxy' },
        { messageId: 'zoneNotServing', resourceName: 'www.a.example' },
      ],
    },
    {
      name: 'so does a zone that is not yet active',
      snapshot: { zones: [{ name: 'a.example', status: 'pending', dnsRecords: [apex] }] },
      findings: [{ messageId: 'zoneNotServing', message: 'the zone is pending' }],
    },
    { name: 'the configured severity wins', severity: 'critical', snapshot: zone(apex, direct), findings: [{ severity: 'critical' }] },
    {
      name: 'unknown when the records were not read',
      snapshot: { zones: [{ name: 'a.example', unread: { dns_records: 'failed' } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'dns_records' }],
    },
  ],
}));
