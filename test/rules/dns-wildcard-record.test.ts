import rule from '../../rules/dns-wildcard-record.js';
import { dnsRecord, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';
import { withStandIns } from '../support/stand-ins.js';

// vendor docs, wildcard DNS records: a record named `*` (first label) answers every subdomain not
// covered by a record of its own, at any depth; only the first label can be a wildcard; wildcards
// can be proxied or DNS-only on every plan. vendor docs, proxy status: a DNS-only record is answered
// with its content (the origin), a proxied one with the proxy's addresses; proxying limitations: a
// zone that is not active yet is DNS-only; pausing: the zone answers with the origin.

const record = dnsRecord;
const zone = (...records: Item[]) => ({ zones: [{ name: 'a.example', dnsRecords: records }] });

const apex = record('A', 'a.example', '203.0.113.10', true);
const www = record('CNAME', 'www.a.example', 'a.example', true);

testRule(rule, withStandIns({
  valid: [
    { name: 'no records', snapshot: zone() },
    { name: 'specific records only', snapshot: zone(apex, www, record('A', 'ssh.a.example', '203.0.113.20')) },
    // vendor docs, wildcard DNS records: only the first label is a wildcard; `sub.*.a.example` is a literal `*`.
    { name: 'an asterisk below the first label is a literal character', snapshot: zone(apex, record('A', 'sub.*.a.example', '203.0.113.30'), record('A', 'x*.a.example', '203.0.113.31')) },
    // vendor docs, proxy status: only A, AAAA and CNAME records resolve a name to a host; a wildcard TXT routes nothing.
    { name: 'a wildcard TXT record', snapshot: zone(apex, record('TXT', '*.a.example', 'v=spf1 -all')) },
    // RFC 7505 3: the null MX (exchange ".", preference 0) says a domain takes no mail: as a wildcard, made-up names take none.
    { name: 'a wildcard null MX', snapshot: zone(apex, { ...record('MX', '*.a.example', '.'), priority: 0 }) },
    // RFC 2782: an SRV target of "." means the service is decidedly not available at the name.
    { name: 'a wildcard SRV record whose target is "."', snapshot: zone(apex, { ...record('SRV', '*._tcp.a.example', '0 0 .'), priority: 0 }) },
    { name: 'an intended wildcard MX listed in allow', options: { allow: ['*.tenants.a.example'] }, snapshot: zone(apex, { ...record('MX', '*.tenants.a.example', 'mx.a.example'), priority: 10 }) },
    // vendor docs, partial setup: the zone's DNS is another provider's; its MX records are not what senders resolve.
    { name: 'a wildcard MX in a partial (CNAME) setup', snapshot: { zones: [{ name: 'a.example', type: 'partial' as const, dnsRecords: [apex, { ...record('MX', '*.a.example', 'mx.a.example'), priority: 10 }] }] } },
    {
      name: 'intended wildcards listed in allow, by glob or by name',
      options: { allow: ['*.customers.a.example', '*.Preview.A.Example.'] },
      snapshot: zone(apex, record('CNAME', '*.customers.a.example', 'saas.a.example', true), record('A', '*.preview.a.example', '203.0.113.40')),
    },
    // vendor docs, Internal DNS: an internal zone is queried only through the Gateway resolver, not public DNS.
    { name: 'an internal zone is not public DNS', snapshot: { zones: [{ name: 'corp.example', type: 'internal' as const, dnsRecords: [record('A', '*.corp.example', '10.0.0.1')] }] } },
    { name: 'an internal zone is not applicable even unread', snapshot: { zones: [{ name: 'corp.example', type: 'internal' as const, unread: { dns_records: 'denied' as const } }] } },
    // One finding a record (vendor docs, pausing a zone; proxying limitations): a paused or pending
    // zone answers a proxied wildcard with its origin, which dns-origin-exposed reports.
    { name: 'a proxied wildcard of a paused zone is left to dns-origin-exposed', snapshot: { zones: [{ name: 'a.example', paused: true, dnsRecords: [apex, record('A', '*.a.example', '203.0.113.10', true)] }] } },
    { name: 'a proxied wildcard of a pending zone is left to dns-origin-exposed', snapshot: { zones: [{ name: 'a.example', status: 'pending', dnsRecords: [record('CNAME', '*.a.example', 'origin.hosting.example', true)] }] } },
    // One finding a record: a DNS-only wildcard on a proxied record's address reveals that origin: dns-origin-exposed's.
    { name: 'a DNS-only wildcard on the proxied origin is left to dns-origin-exposed', snapshot: zone(apex, www, record('A', '*.a.example', '203.0.113.10')) },
    // One finding a record: RFC 1918 (private), RFC 6598 (shared), RFC 4193 (unique local) and, by
    // dns-private-address's defaults, RFC 5737 and RFC 3849 (documentation) addresses are not
    // globally reachable: dns-private-address reports a wildcard on one.
    {
      name: 'wildcards on addresses that are not public are left to dns-private-address',
      options: { standIns: [] },
      snapshot: zone(
        record('A', '*.lan.a.example', '192.168.0.10'),
        record('A', '*.cgnat.a.example', '100.64.1.1', true),
        record('AAAA', '*.ula.a.example', 'fd00::1'),
        record('A', '*.doc.a.example', '192.0.2.10'),
        record('AAAA', '*.doc6.a.example', '2001:db8::10', true),
      ),
    },
    // One finding a record: a wildcard CNAME whose target does not exist (RFC 2308 2.1) is dns-dangling-target's.
    {
      name: 'a wildcard CNAME whose target does not exist is left to dns-dangling-target',
      snapshot: { zones: [{ name: 'a.example', dnsRecords: [apex, record('CNAME', '*.a.example', 'gone.saas-provider.example')], dnsTargets: [{ name: 'gone.saas-provider.example', type: 'CNAME', answer: 'nxdomain' }] }] },
    },
    // vendor docs, partial setup: the authoritative DNS is another provider's, so the vendor answers no DNS-only record of the zone.
    { name: 'a DNS-only wildcard in a partial (CNAME) setup is answered by nobody', snapshot: { zones: [{ name: 'a.example', type: 'partial' as const, dnsRecords: [apex, record('A', '*.a.example', '203.0.113.10')] }] } },
  ],
  invalid: [
    {
      // vendor docs, wildcard DNS records + proxy status: every uncovered name is answered with the origin itself.
      name: 'a DNS-only wildcard A record publishes its origin for every name',
      snapshot: zone(apex, record('A', '*.a.example', '203.0.113.99')),
      findings: [
        {
          messageId: 'dnsOnly',
          severity: 'medium',
          resourceType: 'dns_record',
          resourceName: '*.a.example',
          message: '*.a.example (A 203.0.113.99) is a DNS-only wildcard: every name under a.example without a record of its own resolves straight to 203.0.113.99, past the proxy',
          data: { name: '*.a.example', type: 'A', content: '203.0.113.99', base: 'a.example' },
        },
      ],
    },
    {
      // vendor docs, wildcard DNS records: the wildcard applies whatever the zone proxies; a zone with nothing proxied has it too.
      name: 'a DNS-only wildcard CNAME to a third party, in a zone that proxies nothing',
      snapshot: zone(record('CNAME', '*.a.example', 'tenant.saas-provider.example')),
      findings: [{ messageId: 'dnsOnly', severity: 'medium', data: { type: 'CNAME', content: 'tenant.saas-provider.example', base: 'a.example' } }],
    },
    {
      // vendor docs, wildcard DNS records: proxied wildcards keep the origin hidden, but the proxy answers every name.
      name: 'a proxied wildcard is reported low',
      snapshot: zone(apex, record('AAAA', '*.a.example', '2001:db8::10', true)),
      findings: [
        {
          messageId: 'proxied',
          severity: 'low',
          message: '*.a.example (AAAA 2001:db8::10) is a proxied wildcard: the proxy answers for every name under a.example without a record of its own and forwards it to the origin',
        },
      ],
    },
    {
      // vendor docs, wildcard DNS records: `*.www` makes a wildcard for a deeper subdomain.
      name: 'a wildcard on a deeper subdomain',
      snapshot: zone(apex, record('CNAME', '*.www.a.example', 'a.example', true)),
      findings: [{ messageId: 'proxied', severity: 'low', resourceName: '*.www.a.example', data: { base: 'www.a.example' } }],
    },
    {
      // vendor docs, wildcard DNS records: in `*.*.a.example` the first asterisk is a wildcard, the second a literal `*`.
      name: 'only the first asterisk of a double wildcard is one',
      snapshot: zone(apex, record('A', '*.*.a.example', '203.0.113.50')),
      findings: [{ messageId: 'dnsOnly', data: { base: '*.a.example' } }],
    },
    {
      // Host names are case-insensitive and may end in a dot (RFC 4343; RFC 1034 3.1).
      name: 'the name below the wildcard is normalised in the message',
      snapshot: zone(apex, record('A', '*.Dev.A.Example.', '203.0.113.60')),
      findings: [{ messageId: 'dnsOnly', resourceName: '*.Dev.A.Example.', data: { base: 'dev.a.example' } }],
    },
    {
      // RFC 3849: a documentation range named a stand-in (dns-private-address's standIns, followed here) is a public address.
      name: 'a wildcard on a documentation range named a stand-in is judged as public',
      options: { standIns: ['2001:db8::/32'] },
      snapshot: zone(record('AAAA', '*.a.example', '2001:db8::99'), record('A', '*.doc.a.example', '192.0.2.99')),
      findings: [{ messageId: 'dnsOnly', resourceName: '*.a.example' }],
    },
    {
      // The allow list names intended wildcards only; another one is still reported.
      name: 'a wildcard not in allow is still reported',
      options: { allow: ['*.customers.a.example'] },
      snapshot: zone(apex, record('CNAME', '*.customers.a.example', 'saas.a.example', true), record('A', '*.a.example', '203.0.113.12'), record('A', '*.customers-old.a.example', '203.0.113.11')),
      findings: [
        { messageId: 'dnsOnly', resourceName: '*.a.example' },
        { messageId: 'dnsOnly', resourceName: '*.customers-old.a.example' },
      ],
    },
    {
      // vendor docs, wildcard DNS records (limitations): proxied wildcards work in a partial setup, for the names its DNS sends to the proxy.
      name: 'a proxied wildcard in a partial (CNAME) setup',
      snapshot: { zones: [{ name: 'a.example', type: 'partial' as const, dnsRecords: [record('A', '*.a.example', '203.0.113.10', true)] }] },
      findings: [{ messageId: 'proxied', severity: 'low' }],
    },
    // RFC 5321 5.1: mail for a domain goes to the hosts its MX records name; RFC 4592: the wildcard
    // gives every made-up name under a.example that MX. The peer's own case (Prowler,
    // dns_record_no_wildcard: `*.example.com MX 10 mail.example.com`), in the API's shape
    // (vendor API reference, DNS records: the MX preference is in priority, content is the exchange).
    {
      name: 'a wildcard MX record',
      snapshot: zone(apex, { ...record('MX', '*.a.example', 'mail.a.example'), priority: 10 }),
      findings: [
        {
          messageId: 'mail',
          severity: 'low',
          resourceType: 'dns_record',
          resourceName: '*.a.example',
          message: '*.a.example (MX mail.a.example) is a wildcard MX record: mail for every name under a.example without records of its own is routed to mail.a.example, so made-up subdomains take mail',
          data: { target: 'mail.a.example' },
        },
      ],
    },
    // Older answers carry the preference in the content too.
    { name: 'a wildcard MX whose content carries the preference', snapshot: zone(apex, record('MX', '*.mail.a.example', '10 mx1.provider.example')), findings: [{ messageId: 'mail', data: { target: 'mx1.provider.example', base: 'mail.a.example' } }] },
    // RFC 2782: a client looking up _service._proto.name contacts the targets; the wildcard at
    // *._tcp answers every TCP service. The peer's own case (`*._tcp.example.com SRV 10 5 5060
    // sip.example.com`) in the API's shape (content `weight port target`, priority apart).
    {
      name: 'a wildcard SRV record',
      // The target exists: a wildcard SRV to a name that does not is dns-dangling-target's (one finding a record).
      snapshot: zone(apex, { ...record('SRV', '*._tcp.a.example', '5 5060 sip.a.example'), priority: 10 }, record('A', 'sip.a.example', '203.0.113.9')),
      findings: [
        {
          messageId: 'service',
          severity: 'low',
          resourceName: '*._tcp.a.example',
          message: '*._tcp.a.example (SRV 5 5060 sip.a.example) is a wildcard SRV record: the lookup of any service under _tcp.a.example without records of its own is answered with sip.a.example, so clients are sent there for services it does not offer',
        },
      ],
    },
    {
      name: 'records not read',
      snapshot: { zones: [{ name: 'a.example', unread: { dns_records: 'failed' as const } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'dns_records' }],
    },
  ],
}));
