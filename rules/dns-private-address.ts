import { BlockList, isIP } from 'node:net';
import { defineRule } from '../src/policy/rule.js';

type Ranges = Array<[network: string, prefix: number]>;

function blockList(v4: Ranges, v6: Ranges, list = new BlockList()): BlockList {
  for (const [network, prefix] of v4) list.addSubnet(network, prefix, 'ipv4');
  for (const [network, prefix] of v6) list.addSubnet(network, prefix, 'ipv6');
  return list;
}

/**
 * Address kinds that mean nothing (or something internal) on the public internet, most specific
 * first. An IPv4 range also matches its IPv4-mapped IPv6 form (`::ffff:10.0.0.1`): BlockList maps it.
 */
const RANGES: ReadonlyArray<[kind: string, v4: Ranges, v6: Ranges]> = [
  ['unspecified', [['0.0.0.0', 32]], [['::', 128]]],
  ['loopback', [['127.0.0.0', 8]], [['::1', 128]]],
  ['link-local', [['169.254.0.0', 16]], [['fe80::', 10]]],
  ['shared (carrier-grade NAT)', [['100.64.0.0', 10]], []],
  ['private', [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16]], [['fc00::', 7]]],
];

const KINDS = RANGES.map(([kind, v4, v6]): [string, BlockList] => [kind, blockList(v4, v6)]);
/** Every range in one list: a check costs microseconds, and most addresses of a large zone are public. */
const ANY = RANGES.reduce((list, [, v4, v6]) => blockList(v4, v6, list), new BlockList());

const ipv4Number = (address: string): number => address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);

/** IPv4 ranges as numbers: most records of a large zone are IPv4, and arithmetic beats BlockList tenfold. */
const V4_RANGES = RANGES.flatMap(([kind, v4]) =>
  v4.map(([network, prefix]) => ({ kind, base: ipv4Number(network), size: 2 ** (32 - prefix) })),
);

function addressKind(address: string): string | null {
  const family = isIP(address);
  // Content that is not an address is ignored rather than reported unknown: the data was read, and
  // a value that is not an address points nowhere, so it cannot leak an internal one.
  if (family === 0) return null;
  if (family === 4) {
    const n = ipv4Number(address);
    return V4_RANGES.find((r) => n >= r.base && n < r.base + r.size)?.kind ?? null;
  }
  const type = 'ipv6';
  if (!ANY.check(address, type)) return null;
  return KINDS.find(([, list]) => list.check(address, type))?.[0] ?? null;
}

export default defineRule({
  meta: {
    id: 'dns-private-address',
    title: 'Public DNS publishes no private, loopback or link-local addresses',
    description:
      'An address record in public DNS that points at a private, loopback, link-local or unspecified address is useless to the internet and useful to an attacker: it maps the internal network (split-horizon leaks), and names pointing at 127.0.0.1 or a LAN range enable DNS rebinding against browsers and local services.',
    severity: 'medium',
    category: 'dns',
    scope: 'zone',
    resource: 'dns_record',
    messages: {
      internal: '{{name}} ({{type}}) publishes the {{kind}} address {{address}} in public DNS',
    },
    remediation: 'Remove the record from the public zone and serve internal names from internal DNS only (split horizon), or point the record at a public address.',
    references: ['API spec: DNS record listing', 'api-facts: DNS record fields (type, content)', 'RFC 1918, RFC 6598, RFC 4193, RFC 3927, RFC 4291'],
  },
  defaultOptions: {},
  check(ctx) {
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);
    let failed = false;
    for (const r of records.items) {
      if ((r.type !== 'A' && r.type !== 'AAAA') || r.content === null) continue;
      const kind = addressKind(r.content.trim());
      if (kind === null) continue;
      ctx.fail({ type: 'dns_record', id: r.id, name: r.name }, 'internal', { name: r.name ?? r.id, type: r.type, kind, address: r.content });
      failed = true;
    }
    if (!failed) ctx.pass();
  },
});
