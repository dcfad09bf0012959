import rule from '../../rules/dns-private-address.js';
import type { Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

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
  ['fc00::1', 'private'],
  ['fd00::1', 'private'],
  ['FD12:3456::1', 'private'],
  ['::1', 'loopback'],
  ['fe80::1', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['::', 'unspecified'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:7f00:1', 'loopback'],
];

testRule(rule, {
  valid: [
    { name: 'no records', snapshot: zone() },
    {
      name: 'public and documentation addresses',
      snapshot: zone(
        record('A', 'a.example', '203.0.113.10', true),
        record('AAAA', 'a.example', '2001:db8:10::10', true),
        record('A', 'ftp.a.example', '8.8.8.8'),
        record('AAAA', 'v6.a.example', '2606:4700::1111'),
      ),
    },
    ...['172.15.255.255', '172.32.0.0', '192.169.0.1', '100.63.255.255', '100.128.0.0', '11.0.0.1', '169.253.255.255', '0.0.0.1', 'fbff::1', 'fec0::1', '::2', '::ffff:8.8.8.8'].map(
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
    {
      name: 'the message names the record, its type, the kind and the address',
      snapshot: zone(record('A', 'vpn-internal.a.example', '10.0.0.5')),
      findings: [{ message: 'vpn-internal.a.example (A) publishes the private address 10.0.0.5 in public DNS' }],
    },
    {
      name: 'one finding per record, whatever the record type says of the family',
      snapshot: zone(
        record('A', 'a.example', '192.0.2.50', true),
        record('A', 'nas.a.example', '192.168.1.10'),
        record('A', 'local.a.example', '127.0.0.1'),
        record('A', 'printer.a.example', '169.254.1.1'),
        record('AAAA', 'nas6.a.example', 'fd00::1'),
        record('AAAA', 'router6.a.example', 'fe80::1'),
        record('A', 'proxied.a.example', '10.1.2.3', true),
      ),
      findings: [
        { resourceName: 'nas.a.example', message: 'private' },
        { resourceName: 'local.a.example', message: 'loopback' },
        { resourceName: 'printer.a.example', message: 'link-local' },
        { resourceName: 'nas6.a.example', message: '(AAAA) publishes the private address fd00::1' },
        { resourceName: 'router6.a.example', message: 'link-local address fe80::1' },
        { resourceName: 'proxied.a.example' },
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
