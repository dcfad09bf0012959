import rule from '../../rules/dns-private-address.js';
import type { Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// IANA IPv4 Special-Purpose Address Registry (RFC 6890 and updates), IANA IPv6 Special-Purpose
// Address Registry, the IPv4 multicast (224.0.0.0/4) and reserved (240.0.0.0/4) blocks, IPv6
// multicast (ff00::/8, RFC 4291), deprecated site-local (fec0::/10, RFC 3879), IPv4-mapped
// (::ffff:0:0/96, RFC 4291) and the NAT64 well-known prefix (64:ff9b::/96, RFC 6052).

let seq = 0;
const hex = () => (++seq).toString(16).padStart(32, '0');

const record = (type: string, name: string, content: string, proxied = false): Item => ({ id: hex(), type, name, content, proxied, ttl: 3600 });
const zone = (...records: Item[]) => ({ zones: [{ name: 'a.example', dnsRecords: records }] });

/** One A or AAAA record at `address`, by its family. */
const at = (address: string) => zone(record(address.includes(':') ? 'AAAA' : 'A', 'h.a.example', address));

const cases: Array<[address: string, kind: string]> = [
  ['10.0.0.0', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.10', 'private'],
  ['100.64.0.1', 'shared (carrier-grade NAT)'],
  ['100.127.255.255', 'shared (carrier-grade NAT)'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.1.1', 'link-local'],
  ['0.0.0.0', 'unspecified'],
  ['0.0.0.1', '"this network"'],
  ['0.255.255.255', '"this network"'],
  ['192.0.0.8', 'IETF protocol assignment'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['224.0.0.251', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'limited broadcast'],
  ['fc00::1', 'unique local (private)'],
  ['fd00::1', 'unique local (private)'],
  ['FD12:3456::1', 'unique local (private)'],
  ['::1', 'loopback'],
  ['fe80::1', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'multicast'],
  ['::', 'unspecified'],
  ['::2', 'reserved'],
  ['64:ff9b:2::1', 'reserved'],
  ['100::1', 'discard-only'],
  ['2001:2::1', 'benchmarking'],
  ['64:ff9b:1::1', 'NAT64 local-use'],
  ['::ffff:10.0.0.1', 'private (IPv4 in IPv4-mapped)'],
  ['::ffff:7f00:1', 'loopback (IPv4 in IPv4-mapped)'],
  ['::ffff:8.8.8.8', 'IPv4-mapped'],
  ['64:ff9b::192.168.0.1', 'private (IPv4 in NAT64)'],
  ['64:ff9b::a9fe:101', 'link-local (IPv4 in NAT64)'],
];

testRule(rule, {
  valid: [
    { name: 'no records', snapshot: zone() },
    // vendor docs, Internal DNS: internal zones do not get the vendor's nameservers and can only be
    // queried through its Gateway resolver: private DNS, where private addresses belong.
    {
      name: 'an internal zone is not public DNS',
      snapshot: { zones: [{ name: 'corp.example', type: 'internal' as const, dnsRecords: [record('A', 'intranet.corp.example', '10.1.2.3'), record('AAAA', 'nas.corp.example', 'fd00::10')] }] },
    },
    { name: 'an internal zone is not applicable even when its records were not read', snapshot: { zones: [{ name: 'corp.example', type: 'internal' as const, unread: { dns_records: 'denied' as const } }] } },
    {
      name: 'public addresses',
      snapshot: zone(record('A', 'a.example', '8.8.4.4', true), record('AAAA', 'a.example', '2606:4700::1', true), record('A', 'ftp.a.example', '8.8.8.8'), record('AAAA', 'v6.a.example', '2606:4700::1111')),
    },
    {
      // The option exists for datasets and examples that use the documentation ranges as stand-ins for public addresses.
      name: 'documentation ranges are left alone when the option is off',
      options: { documentation: false },
      snapshot: zone(record('A', 'a.example', '203.0.113.10'), record('A', 'b.a.example', '192.0.2.1'), record('A', 'c.a.example', '198.51.100.7'), record('AAAA', 'a.example', '2001:db8:10::10'), record('AAAA', 'd.a.example', '3fff::1')),
    },
    // RFC 5737, 3: the documentation blocks are exactly these /24s; RFC 3849: 2001:db8::/32; RFC 9637: 3fff::/20.
    ...['192.0.1.255', '192.0.3.0', '198.51.99.255', '198.51.101.0', '203.0.112.255', '203.0.114.0', '2001:db7:ffff::1', '2001:db9::1', '3ffe:ffff::1', '3fff:1000::1'].map((address) => ({
      name: `just outside a documentation range: ${address}`,
      snapshot: at(address),
    })),
    ...['172.15.255.255', '172.32.0.0', '192.169.0.1', '100.63.255.255', '100.128.0.0', '11.0.0.1', '169.253.255.255', '1.0.0.0', '192.0.1.255', '198.17.255.255', '198.20.0.0', '223.255.255.255', 'fbff::1', '2001:3::1', '64:ff9b::8.8.8.8'].map(
      (address) => ({ name: `just outside a range: ${address}`, snapshot: at(address) }),
    ),
    { name: 'other record types are not addresses', snapshot: zone(record('TXT', 'a.example', '10.0.0.1'), record('CNAME', 'c.a.example', '10.0.0.1.nip.example')) },
    { name: 'content that is not an address is ignored', snapshot: zone(record('A', 'bad.a.example', 'not-an-ip'), record('AAAA', 'bad6.a.example', '10.0.0.1/8')) },
  ],
  invalid: [
    ...cases.map(([address, kind]) => ({
      name: `${address} is ${kind}`,
      snapshot: at(address),
      findings: [{ messageId: 'internal', severity: 'medium' as const, resourceType: 'dns_record', resourceName: 'h.a.example', data: { kind, address } }],
    })),
    // IANA IPv4 Special-Purpose Address Registry: 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24
    // (Documentation, RFC 5737), Globally Reachable: False. IANA IPv6 Special-Purpose Address Registry:
    // 2001:db8::/32 (RFC 3849) and 3fff::/20 (RFC 9637), Globally Reachable: False. Reported by default.
    ...[
      '192.0.2.0',
      '192.0.2.255',
      '198.51.100.0',
      '198.51.100.255',
      '203.0.113.0',
      '203.0.113.255',
      '2001:db8::',
      '2001:DB8:ffff:ffff:ffff:ffff:ffff:ffff',
      '3fff::',
      '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff',
    ].map((address) => ({
      name: `${address} is documentation, reported by default`,
      snapshot: at(address),
      findings: [{ messageId: 'internal', severity: 'medium' as const, message: `publishes the documentation address ${address} in public DNS`, data: { kind: 'documentation', address } }],
    })),
    {
      // IANA special-purpose registries: every documentation range is not globally reachable; an
      // organisation whose examples stand on some of them still has a stray one in another reported.
      name: 'ranges named as stand-ins are left alone, the other documentation ranges still reported',
      options: { standIns: ['192.0.2.0/24', '2001:db8::/32'] },
      snapshot: zone(record('A', 'b.a.example', '192.0.2.1'), record('AAAA', 'a.example', '2001:db8:10::10'), record('AAAA', 'd.a.example', '3fff::1'), record('A', 'c.a.example', '203.0.113.9')),
      findings: [{ data: { kind: 'documentation', address: '3fff::1' } }, { data: { kind: 'documentation', address: '203.0.113.9' } }],
    },
    {
      name: 'documentation ranges are reported when the option says so explicitly',
      options: { documentation: true },
      snapshot: zone(record('A', 'b.a.example', '192.0.2.1'), record('AAAA', 'a.example', '2001:db8:10::10'), record('AAAA', 'd.a.example', '3fff::1')),
      findings: [{ data: { kind: 'documentation' } }, { data: { kind: 'documentation' } }, { data: { kind: 'documentation' } }],
    },
    {
      // RFC 4291, 2.5.5.2 and RFC 6052, 2.1: an IPv4 documentation address carried in IPv6 is judged as that address.
      name: 'IPv4 documentation addresses carried in IPv6',
      snapshot: zone(record('AAAA', 'm.a.example', '::ffff:198.51.100.7'), record('AAAA', 'n.a.example', '64:ff9b::203.0.113.9')),
      findings: [{ data: { kind: 'documentation (IPv4 in IPv4-mapped)' } }, { data: { kind: 'documentation (IPv4 in NAT64)' } }],
    },
    {
      // vendor docs: proxy status: a proxied record's address is not published, but the proxy cannot reach a documentation address.
      name: 'a proxied record with a documentation origin is a broken host',
      snapshot: zone(record('A', 'app.a.example', '203.0.113.10', true)),
      findings: [{ messageId: 'brokenOrigin', severity: 'low', data: { kind: 'documentation' } }],
    },
    {
      // The option turns off the documentation ranges only: the other special-purpose kinds are still reported.
      name: 'with the option off, private addresses are still reported',
      options: { documentation: false },
      snapshot: zone(record('A', 'doc.a.example', '192.0.2.1'), record('A', 'lan.a.example', '10.0.0.1')),
      findings: [{ resourceName: 'lan.a.example', data: { kind: 'private' } }],
    },
    {
      name: 'the message names the record, its type, the kind and the address',
      snapshot: zone(record('A', 'vpn-internal.a.example', '10.0.0.5')),
      findings: [{ message: 'vpn-internal.a.example (A) publishes the private address 10.0.0.5 in public DNS' }],
    },
    {
      name: 'a proxied record with a private origin is a broken host, not a leak',
      snapshot: zone(record('A', 'app.a.example', '10.1.2.3', true)),
      findings: [
        {
          messageId: 'brokenOrigin',
          severity: 'low',
          message: 'app.a.example (A) is proxied to the private address 10.1.2.3, which the proxy cannot reach: the host is broken (nothing leaks: the proxy answers with its own addresses)',
        },
      ],
    },
    {
      // vendor docs: a paused zone, or one not yet active, answers proxied records with the origin address.
      name: 'in a paused zone a proxied record publishes its address',
      snapshot: { zones: [{ name: 'a.example', paused: true, dnsRecords: [record('A', 'app.a.example', '10.1.2.3', true)] }] },
      findings: [{ messageId: 'internal', severity: 'medium' }],
    },
    {
      name: 'in a pending zone a proxied record publishes its address',
      snapshot: { zones: [{ name: 'a.example', status: 'pending', dnsRecords: [record('AAAA', 'app.a.example', 'fd00::5', true)] }] },
      findings: [{ messageId: 'internal' }],
    },
    {
      name: 'one finding per record',
      snapshot: zone(
        record('A', 'a.example', '8.8.8.8', true),
        record('A', 'nas.a.example', '192.168.1.10'),
        record('A', 'local.a.example', '127.0.0.1'),
        record('A', 'printer.a.example', '169.254.1.1'),
        record('AAAA', 'nas6.a.example', 'fd00::1'),
        record('AAAA', 'router6.a.example', 'fe80::1'),
      ),
      findings: [
        { resourceName: 'nas.a.example', message: 'private' },
        { resourceName: 'local.a.example', message: 'loopback' },
        { resourceName: 'printer.a.example', message: 'link-local' },
        { resourceName: 'nas6.a.example', message: '(AAAA) publishes the unique local (private) address fd00::1' },
        { resourceName: 'router6.a.example', message: 'link-local address fe80::1' },
      ],
    },
    { name: 'the configured severity wins', severity: 'low', snapshot: at('10.0.0.1'), findings: [{ severity: 'low' }] },
    {
      name: 'unknown when the records were not read',
      snapshot: { zones: [{ name: 'a.example', unread: { dns_records: 'skipped' } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'dns_records' }],
    },
  ],
});
