import { isIP } from 'node:net';

/**
 * Special-purpose addresses: the ranges of the IANA IPv4 and IPv6 Special-Purpose Address
 * Registries (RFC 6890 and its updates) that are not globally reachable, plus multicast and the
 * reserved blocks. An address in one of them means nothing on the public internet: published in
 * public DNS it maps an internal network; behind a proxy, the proxy cannot reach it.
 */

export interface SpecialOptions {
  /**
   * Whether the documentation ranges count (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24,
   * 2001:db8::/32, 3fff::/20). They are not reachable either, but examples and test zones use them
   * as stand-ins for public addresses.
   */
  documentation?: boolean;
}

type Range = { kind: string; base: bigint; bits: number; width: 32 | 128; documentation?: true };

/** An IPv4 address as a number, or null when it is not one. */
function v4(address: string): bigint | null {
  if (isIP(address) !== 4) return null;
  return address.split('.').reduce((n, octet) => n * 256n + BigInt(octet), 0n);
}

/** An IPv6 address (a trailing dotted quad allowed) as a 128-bit number, or null when it is not one. */
export function v6(address: string): bigint | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase().split('%')[0]!;
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const n = v4(quad[1]!)!;
    text = `${text.slice(0, -quad[1]!.length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === null ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g || '0', 16)), 0n);
}

const range4 = (kind: string, cidr: string, documentation?: true): Range => {
  const [net, bits] = cidr.split('/');
  return { kind, base: v4(net!)!, bits: Number(bits), width: 32, ...(documentation ? { documentation } : {}) };
};
const range6 = (kind: string, cidr: string, documentation?: true): Range => {
  const [net, bits] = cidr.split('/');
  return { kind, base: v6(net!)!, bits: Number(bits), width: 128, ...(documentation ? { documentation } : {}) };
};

/** Most specific first: the first range that holds an address names its kind. */
const V4: readonly Range[] = [
  range4('unspecified', '0.0.0.0/32'),
  range4('"this network"', '0.0.0.0/8'),
  range4('private', '10.0.0.0/8'),
  range4('shared (carrier-grade NAT)', '100.64.0.0/10'),
  range4('loopback', '127.0.0.0/8'),
  range4('link-local', '169.254.0.0/16'),
  range4('private', '172.16.0.0/12'),
  range4('IETF protocol assignment', '192.0.0.0/24'),
  range4('documentation', '192.0.2.0/24', true),
  range4('private', '192.168.0.0/16'),
  range4('benchmarking', '198.18.0.0/15'),
  range4('documentation', '198.51.100.0/24', true),
  range4('documentation', '203.0.113.0/24', true),
  range4('multicast', '224.0.0.0/4'),
  range4('limited broadcast', '255.255.255.255/32'),
  range4('reserved', '240.0.0.0/4'),
];

const V6: readonly Range[] = [
  range6('unspecified', '::/128'),
  range6('loopback', '::1/128'),
  range6('NAT64 local-use', '64:ff9b:1::/48'),
  range6('discard-only', '100::/64'),
  range6('benchmarking', '2001:2::/48'),
  range6('documentation', '2001:db8::/32', true),
  range6('documentation', '3fff::/20', true),
  range6('unique local (private)', 'fc00::/7'),
  range6('link-local', 'fe80::/10'),
  range6('site-local (deprecated)', 'fec0::/10'),
  range6('multicast', 'ff00::/8'),
  range6('reserved', '::/8'),
];

const MAPPED = range6('IPv4-mapped', '::ffff:0:0/96');
const NAT64 = range6('NAT64', '64:ff9b::/96');

const within = (n: bigint, r: Range) => n >> BigInt(r.width - r.bits) === r.base >> BigInt(r.width - r.bits);

function find(n: bigint, ranges: readonly Range[], options: SpecialOptions): string | null {
  return ranges.find((r) => (options.documentation || !r.documentation) && within(n, r))?.kind ?? null;
}

/** The IPv4 ranges as plain numbers: most records of a large zone are IPv4, and number arithmetic is ten times BigInt's. */
const V4_NUMBERS = V4.map((r) => ({ kind: r.kind, documentation: r.documentation === true, base: Number(r.base), size: 2 ** (32 - r.bits) }));

function findV4(address: string, options: SpecialOptions): string | null {
  let n = 0;
  for (const octet of address.split('.')) n = n * 256 + Number(octet);
  return V4_NUMBERS.find((r) => (options.documentation || !r.documentation) && n >= r.base && n < r.base + r.size)?.kind ?? null;
}

/**
 * A quick answer for most IPv6 addresses: 2000::/3 is global unicast except 2001::/23 (IETF
 * assignments, benchmarking among them), 2001:db8::/32 and 3fff::/20 (documentation).
 */
function globalUnicast(address: string): boolean {
  const [first = '', second = ''] = address.split(':', 2);
  const g1 = parseInt(first || '0', 16);
  const g2 = parseInt(second || '0', 16);
  if (g1 < 0x2000 || g1 > 0x3fff) return false;
  if (g1 === 0x2001 && (g2 < 0x200 || g2 === 0xdb8)) return false;
  return !(g1 === 0x3fff && g2 < 0x1000);
}

/**
 * The kind of special-purpose address `address` is, or null for a globally reachable one (and
 * for text that is not an address). An IPv4 address carried in the IPv4-mapped or the NAT64
 * well-known prefix is judged as that IPv4 address; an IPv4-mapped address is never reachable
 * over IPv6 itself.
 */
export function specialKind(address: string, options: SpecialOptions = {}): string | null {
  const a = address.trim();
  const family = isIP(a);
  if (family === 4) return findV4(a, options);
  if (family !== 6) return null;
  if (globalUnicast(a)) return null;
  const n6 = v6(a)!;
  for (const prefix of [MAPPED, NAT64]) {
    if (!within(n6, prefix)) continue;
    const inner = find(n6 & 0xffffffffn, V4, options);
    if (inner !== null) return `${inner} (IPv4 in ${prefix.kind})`;
    return prefix === MAPPED ? 'IPv4-mapped' : null;
  }
  return find(n6, V6, options);
}

/** Whether `address` lies in the network `cidr` (`198.51.100.0/24`, `2001:db8::/48`, or one address). */
export function inNetwork(address: string, cidr: string): boolean {
  const [net, bitsText] = cidr.split('/');
  if (bitsText !== undefined && !/^\d{1,3}$/.test(bitsText)) return false;
  const a4 = v4(address);
  const n4 = v4(net ?? '');
  if (a4 !== null && n4 !== null) return Number(bitsText ?? 32) <= 32 && within(a4, { kind: '', base: n4, bits: bitsText === undefined ? 32 : Number(bitsText), width: 32 });
  const a6 = v6(address);
  const n6 = v6(net ?? '');
  if (a6 !== null && n6 !== null) return Number(bitsText ?? 128) <= 128 && within(a6, { kind: '', base: n6, bits: bitsText === undefined ? 128 : Number(bitsText), width: 128 });
  return false;
}

/** An address spelled one way: IPv6 as a number's canonical text, IPv4 as given; null when not an address. */
export function canonicalAddress(text: string): string | null {
  const t = text.trim();
  const family = isIP(t);
  if (family === 4) return t;
  return family === 6 ? `v6:${v6(t)!.toString(16)}` : null;
}
