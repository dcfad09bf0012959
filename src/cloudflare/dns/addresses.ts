/**
 * Special-purpose addresses: the ranges of the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and
 * its updates) that are not globally reachable, plus multicast and the reserved blocks.
 *
 * These run for every DNS record of an audit (a million and more), so addresses are read by hand into plain numbers
 * and a reused buffer: no regular expression, no BigInt, no array per call. What counts as an address is exactly
 * what node:net's isIP accepts (Node 20); test/cloudflare/dns/addresses.test.ts checks that against isIP itself.
 */

export interface SpecialOptions {
  /**
   * Whether the documentation ranges count (DOCUMENTATION_RANGES). IANA marks them not globally reachable, but
   * examples, test zones and the emulator's datasets use them as stand-ins for public addresses: off when omitted.
   */
  documentation?: boolean;
  /** Documentation ranges (CIDR) standing for public addresses even with `documentation` on: a stray other one is reported. */
  standIns?: ReadonlySet<string>;
}

/** The documentation ranges (RFC 5737; RFC 3849; RFC 9637), as options name them. */
export const DOCUMENTATION_RANGES = ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32', '3fff::/20'] as const;

const DOT = 0x2e;
const COLON = 0x3a;

/** The value of the decimal digit at `i`, or -1. */
function digitAt(text: string, i: number): number {
  const d = text.charCodeAt(i) - 0x30;
  return d >= 0 && d <= 9 ? d : -1;
}

/** The value of the hexadecimal digit at `i` (either case), or -1. */
function hexDigitAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** The IPv4 address in `text` from `start` to `end` as a number, or -1: isIP's dotted quad, no leading zeros ("01"). */
function parseV4(text: string, start = 0, end = text.length): number {
  let value = 0;
  let i = start;
  for (let octets = 1; ; octets++) {
    const first = i < end ? digitAt(text, i) : -1;
    if (first < 0) return -1;
    let octet = first;
    i++;
    // A leading zero is an octet of its own: "010" reads "0" and then fails on the "1".
    for (let more = 0; first !== 0 && more < 2 && i < end; more++, i++) {
      const d = digitAt(text, i);
      if (d < 0) break;
      octet = octet * 10 + d;
    }
    if (octet > 255) return -1;
    value = value * 256 + octet;
    if (octets === 4) return i === end ? value : -1;
    if (i >= end || text.charCodeAt(i) !== DOT) return -1;
    i++;
  }
}

/** An IPv6 address as its eight 16-bit groups, written into rather than returned: the common calls allocate nothing. */
type Groups = Uint16Array;
const newGroups = (): Groups => new Uint16Array(8);

/**
 * Reads the IPv6 address `text` into `out` (garbage when false) and says whether it is one, as isIP (RFC 4291, 2.2):
 * one `::` for at least one zero group, a dotted quad as the last two groups, a `%zone` suffix outside the address.
 */
function parseV6(text: string, out: Groups): boolean {
  // Host names, the most common text that is not an IPv4 address, mostly fail on their first character.
  if (hexDigitAt(text, 0) < 0 && text.charCodeAt(0) !== COLON) return false;
  let end = text.indexOf('%');
  if (end < 0) end = text.length;
  // A zone id as isIP accepts one (rare: a regular expression is cheap enough here).
  else if (!/^[0-9A-Za-z.:-]+$/.test(text.slice(end + 1))) return false;

  let count = 0; // groups read so far
  let gap = -1; // how many groups stood before the `::`, or -1 without one
  let i = 0;
  if (text.charCodeAt(0) === COLON) {
    // Only `::` may start an address.
    if (text.charCodeAt(1) !== COLON) return false;
    gap = 0;
    i = 2;
  }
  while (i < end) {
    let group = 0;
    let digits = 0;
    for (; digits < 4 && i + digits < end; digits++) {
      const d = hexDigitAt(text, i + digits);
      if (d < 0) break;
      group = group * 16 + d;
    }
    if (digits === 0) return false; // `:::`, a lone `:` at the end, or a stray character
    const next = i + digits;
    if (next < end && text.charCodeAt(next) === DOT) {
      // The trailing dotted quad: the group just read was its first octet.
      const quad = parseV4(text, i, end);
      if (quad < 0 || count > 6) return false;
      out[count++] = quad >>> 16;
      out[count++] = quad & 0xffff;
      break;
    }
    if (count === 8) return false;
    out[count++] = group;
    i = next;
    if (i === end) break;
    if (text.charCodeAt(i) !== COLON) return false;
    i++;
    if (i < end && text.charCodeAt(i) === COLON) {
      if (gap >= 0) return false; // a second `::`
      gap = count;
      i++;
    } else if (i === end) {
      return false; // a single trailing `:`
    }
  }
  if (gap < 0) return count === 8;
  if (count > 7) return false;
  expandGap(out, gap, count);
  return true;
}

/** Moves the groups read after the `::` (from `gap` to `count`) to the end and fills the gap with zeros. */
function expandGap(out: Groups, gap: number, count: number): void {
  const shift = 8 - count;
  // Plain loops: copyWithin and fill cost more than the handful of groups they would move.
  for (let k = count - 1; k >= gap; k--) out[k + shift] = out[k]!;
  for (let k = gap; k < gap + shift; k++) out[k] = 0;
}

/** A scratch buffer for the helpers below: each uses it only until it returns. */
const scratch = newGroups();
const scratch2 = newGroups();

/** What isIP(text) answers: 4, 6 or 0 (not an address). */
export function ipFamily(text: string): 0 | 4 | 6 {
  if (parseV4(text) >= 0) return 4;
  return parseV6(text, scratch) ? 6 : 0;
}

/** The IPv4 address in the last two groups (IPv4-mapped, NAT64). */
const lowV4 = (groups: Groups): number => groups[6]! * 0x10000 + groups[7]!;

/** Whether IPv4 addresses `a` and `b` share their first `bits` bits (0 to 32). */
function sameV4Prefix(a: number, b: number, bits: number): boolean {
  // A shift by 32 is a shift by 0 in JavaScript, hence the explicit /0.
  return bits === 0 || (a ^ b) >>> (32 - bits) === 0;
}

/** Whether IPv6 addresses `a` and `b` share their first `bits` bits (0 to 128). */
function sameV6Prefix(a: Groups, b: Groups, bits: number): boolean {
  const whole = bits >>> 4;
  for (let k = 0; k < whole; k++) if (a[k] !== b[k]) return false;
  const rest = bits & 15;
  return rest === 0 || (a[whole]! ^ b[whole]!) >>> (16 - rest) === 0;
}

/** A prefix length as the CIDR notation writes it: one to three decimal digits; -1 otherwise. */
function prefixLength(text: string): number {
  if (text.length < 1 || text.length > 3) return -1;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const d = digitAt(text, i);
    if (d < 0) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Whether `address` lies in the network `cidr` (`198.51.100.0/24`, `2001:db8::/48`, or one address). */
export function inNetwork(address: string, cidr: string): boolean {
  const [net = '', bitsText] = cidr.split('/');
  const bits = bitsText === undefined ? null : prefixLength(bitsText);
  if (bits === -1) return false;
  const a4 = parseV4(address);
  const n4 = parseV4(net);
  if (a4 >= 0 && n4 >= 0) return (bits ?? 32) <= 32 && sameV4Prefix(a4, n4, bits ?? 32);
  // An IPv4 address is never an IPv6 one, so a family mismatch fails here.
  if (!parseV6(address, scratch) || !parseV6(net, scratch2)) return false;
  return (bits ?? 128) <= 128 && sameV6Prefix(scratch, scratch2, bits ?? 128);
}

interface Range<Base> {
  kind: string;
  base: Base;
  bits: number;
  documentation: boolean;
  cidr: string;
}
type Range4 = Range<number>;
type Range6 = Range<Groups>;

const range4 = (kind: string, cidr: string, documentation = false): Range4 => {
  const [net = '', bits] = cidr.split('/');
  return { kind, base: parseV4(net), bits: Number(bits), documentation, cidr };
};
const range6 = (kind: string, cidr: string, documentation = false): Range6 => {
  const [net = '', bits] = cidr.split('/');
  const base = newGroups();
  parseV6(net, base);
  return { kind, base, bits: Number(bits), documentation, cidr };
};

/** Most specific first: the first range that holds an address names its kind. */
const V4: readonly Range4[] = [
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

const V6: readonly Range6[] = [
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

/** The ranges by the first byte of their addresses, order kept: most public addresses find an empty list at once. */
function byFirstByte<Base>(ranges: readonly Range<Base>[], firstByte: (r: Range<Base>) => number): ReadonlyArray<readonly Range<Base>[]> {
  const buckets = Array.from({ length: 256 }, (): Range<Base>[] => []);
  for (const r of ranges) {
    const span = r.bits >= 8 ? 1 : 2 ** (8 - r.bits);
    const first = firstByte(r) & ~(span - 1);
    for (let b = first; b < first + span; b++) buckets[b]!.push(r);
  }
  return buckets;
}

/** Whether a range is judged: every kind but the documentation ranges, those when asked and not stand-ins. */
function counts(r: Range<unknown>, options: SpecialOptions): boolean {
  return !r.documentation || (options.documentation === true && !options.standIns?.has(r.cidr));
}

const V4_BY_BYTE = byFirstByte(V4, (r) => r.base >>> 24);
const V6_BY_BYTE = byFirstByte(V6, (r) => r.base[0]! >>> 8);

function kindV4(n: number, options: SpecialOptions): string | null {
  for (const r of V4_BY_BYTE[n >>> 24]!) {
    if (counts(r, options) && sameV4Prefix(n, r.base, r.bits)) return r.kind;
  }
  return null;
}

/**
 * The prefixes that carry an IPv4 address in their last 32 bits: IPv4-mapped (RFC 4291, 2.5.5.2), never reachable
 * over IPv6 itself, and the NAT64 well-known prefix (RFC 6052), as reachable as the address it carries.
 */
const CARRIERS = [
  { prefix: range6('IPv4-mapped', '::ffff:0:0/96'), publicV4: 'IPv4-mapped' },
  { prefix: range6('NAT64', '64:ff9b::/96'), publicV4: null },
] as const;

function kindV6(groups: Groups, options: SpecialOptions): string | null {
  for (const { prefix, publicV4 } of CARRIERS) {
    if (!sameV6Prefix(groups, prefix.base, prefix.bits)) continue;
    const inner = kindV4(lowV4(groups), options);
    return inner === null ? publicV4 : `${inner} (IPv4 in ${prefix.kind})`;
  }
  for (const r of V6_BY_BYTE[groups[0]! >>> 8]!) {
    if (counts(r, options) && sameV6Prefix(groups, r.base, r.bits)) return r.kind;
  }
  return null;
}

/** The kind of special-purpose address `address` is; null for a globally reachable one or text that is not one. */
export function specialKind(address: string, options: SpecialOptions = {}): string | null {
  const a = address.trim();
  const n4 = parseV4(a);
  if (n4 >= 0) return kindV4(n4, options);
  return parseV6(a, scratch) ? kindV6(scratch, options) : null;
}

/** The groups as one hexadecimal number without leading zeros (what a 128-bit number's toString(16) gives). */
function hex128(groups: Groups): string {
  let text = '';
  // By 32-bit words: half the conversions of group by group, and each word is an exact number.
  for (let k = 0; k < 8; k += 2) {
    const word = groups[k]! * 0x10000 + groups[k + 1]!;
    if (text !== '') text += word.toString(16).padStart(8, '0');
    else if (word !== 0 || k === 6) text = word.toString(16);
  }
  return text;
}

/** An address spelled one way: IPv6 as a number's canonical text, IPv4 as given; null when not an address. */
export function canonicalAddress(text: string): string | null {
  const t = text.trim();
  if (parseV4(t) >= 0) return t;
  return parseV6(t, scratch) ? `v6:${hex128(scratch)}` : null;
}
