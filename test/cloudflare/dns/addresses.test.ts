import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { canonicalAddress, inNetwork, ipFamily, specialKind } from '../../../src/cloudflare/dns/addresses.js';

// Expected answers are literals taken from the sources cited beside them, never from running
// another implementation; only the property tests at the end compare with node:net's isIP, whose
// answers are the documented definition of what text is an address here.

describe('specialKind', () => {
  const cases: Array<[address: string, kind: string | null]> = [
    // spec: RFC 6890 / IANA IPv4 Special-Purpose Registry: 0.0.0.0/32 "this host on this network" (RFC 1122, 3.2.1.3)
    ['0.0.0.0', 'unspecified'],
    // spec: IANA IPv4 Special-Purpose Registry: 0.0.0.0/8 "this network" (RFC 791, 3.2)
    ['0.1.2.3', '"this network"'],
    ['0.255.255.255', '"this network"'],
    // spec: RFC 1918, 3 (private address space) 10/8, 172.16/12, 192.168/16, and just outside them
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['172.15.255.255', null],
    ['172.32.0.0', null],
    ['192.168.0.1', 'private'],
    ['192.169.0.1', null],
    // spec: RFC 6598 (shared address space, carrier-grade NAT) 100.64.0.0/10
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['100.127.255.255', 'shared (carrier-grade NAT)'],
    ['100.63.255.255', null],
    ['100.128.0.0', null],
    // spec: RFC 1122, 3.2.1.3 (loopback) 127.0.0.0/8
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    // spec: RFC 3927 (IPv4 link-local) 169.254.0.0/16
    ['169.254.169.254', 'link-local'],
    ['169.253.255.255', null],
    // spec: RFC 6890, 2.2.2 (IETF protocol assignments) 192.0.0.0/24
    ['192.0.0.8', 'IETF protocol assignment'],
    // spec: RFC 2544, C.2.2 (benchmarking) 198.18.0.0/15
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.20.0.0', null],
    // spec: RFC 5771 (IPv4 multicast) 224.0.0.0/4
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    // spec: RFC 1112, 4 (reserved class E) 240.0.0.0/4; RFC 919, 7 / RFC 8190 (limited broadcast) 255.255.255.255/32
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'limited broadcast'],
    // spec: RFC 5737 (IPv4 documentation): not reported unless asked (see the documentation option below)
    ['192.0.2.1', null],
    ['198.51.100.7', null],
    ['203.0.113.10', null],
    // Public IPv4 (globally reachable in the IANA registry's sense: in no special-purpose block)
    ['8.8.8.8', null],
    ['1.1.1.1', null],
    ['223.255.255.255', null],
    // spec: RFC 4291, 2.5.2 (unspecified) and 2.5.3 (loopback)
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    // spec: IANA IPv6 Address Space: ::/8 reserved by IETF (RFC 4291); IPv4-compatible ::a.b.c.d is deprecated (RFC 4291, 2.5.5.1)
    ['::2', 'reserved'],
    ['::8.8.8.8', 'reserved'],
    ['64:ff9b:2::1', 'reserved'],
    // spec: RFC 4291, 2.2 (text forms): ::0.0.0.1 is the address ::1
    ['::0.0.0.1', 'loopback'],
    // spec: RFC 8215 (NAT64 local-use prefix) 64:ff9b:1::/48
    ['64:ff9b:1::1', 'NAT64 local-use'],
    // spec: RFC 6666 (discard-only prefix) 100::/64
    ['100::1', 'discard-only'],
    ['100:0:0:1::1', null],
    // spec: RFC 5180, 8 (IPv6 benchmarking) 2001:2::/48; 2001:3::/32 (AMT, RFC 7450) is globally reachable
    ['2001:2::1', 'benchmarking'],
    ['2001:3::1', null],
    // spec: RFC 3849 (2001:db8::/32) and RFC 9637 (3fff::/20) documentation: not reported unless asked
    ['2001:db8::1', null],
    ['3fff::1', null],
    // spec: RFC 4193 (unique local addresses) fc00::/7
    ['fc00::1', 'unique local (private)'],
    ['fd12:3456::1', 'unique local (private)'],
    ['fbff::1', null],
    // spec: RFC 4291, 2.5.6 (link-local) fe80::/10; RFC 3879 (deprecated site-local) fec0::/10
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fec0::1', 'site-local (deprecated)'],
    // spec: RFC 4291, 2.7 (multicast) ff00::/8
    ['ff02::1', 'multicast'],
    // Public IPv6 (global unicast 2000::/3, RFC 4291, 2.4, outside the special-purpose blocks)
    ['2606:4700:4700::1111', null],
    ['2a00:1450:4001:82a::200e', null],
    // spec: RFC 4291, 2.5.5.2 (IPv4-mapped ::ffff:0:0/96): judged as the IPv4 address, never reachable over IPv6 itself
    ['::ffff:10.0.0.1', 'private (IPv4 in IPv4-mapped)'],
    ['::ffff:7f00:1', 'loopback (IPv4 in IPv4-mapped)'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['::FFFF:192.0.2.1', 'IPv4-mapped'],
    // spec: RFC 6052, 2.1 (NAT64 well-known prefix 64:ff9b::/96): as reachable as the IPv4 address it carries
    ['64:ff9b::192.168.0.1', 'private (IPv4 in NAT64)'],
    ['64:ff9b::a9fe:101', 'link-local (IPv4 in NAT64)'],
    ['64:ff9b::8.8.8.8', null],
    ['64:ff9b::c000:201', null],
    // spec: RFC 4007, 11.2 (zone index after %); zone ids as isIP accepts them: one or more of [0-9a-zA-Z.:-]
    ['fe80::1%eth0', 'link-local'],
    ['::1%lo', 'loopback'],
    ['fe80::1%1', 'link-local'],
    ['fe80::1%', null],
    ['fe80::1%eth 0', null],
    ['10.0.0.1%eth0', null],
    // spec: RFC 4291, 2.2 (hex digits in either case; leading zeros of a group may be written) and RFC 5952, 4.3
    ['FE80::1', 'link-local'],
    ['FD00::1', 'unique local (private)'],
    ['fe80:0000::0001', 'link-local'],
    // spec: Node 20 isIP (lib/internal/net.js v4Seg): an octet has no leading zero, so these are not addresses
    ['010.0.0.1', null],
    ['10.0.0.01', null],
    ['::ffff:010.0.0.1', null],
    // Surrounding whitespace is trimmed (record contents sometimes carry it)
    [' 10.0.0.1 ', 'private'],
    ['\t::1\n', 'loopback'],
    // Not addresses (isIP answers 0)
    ['', null],
    ['example.com', null],
    ['cafe.example.com', null],
    ['1.2.3', null],
    ['1.2.3.4.5', null],
    ['256.1.1.1', null],
    ['10.0.0.0/8', null],
    ['[::1]', null],
    [':::', null],
    ['1::2::3', null],
    [':1::', null],
    ['1:2:3:4:5:6:7', null],
    ['1:2:3:4:5:6:7:8:9', null],
    ['fe80:1::1:2:3:4:5:6', null],
    ['12345::1', null],
    ['::ffff:1.2.3.256', null],
    ['1.2.3.4::', null],
  ];
  it.each(cases)('%j is %j', (address, kind) => {
    expect(specialKind(address)).toBe(kind);
  });

  const documentation: Array<[address: string, kind: string | null]> = [
    // spec: RFC 5737, 3 (IPv4 documentation: TEST-NET-1 192.0.2.0/24, TEST-NET-2 198.51.100.0/24,
    // TEST-NET-3 203.0.113.0/24); IANA IPv4 Special-Purpose Address Registry: Globally Reachable False
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.10', 'documentation'],
    ['203.0.114.1', null],
    // Each /24's first and last address, and the addresses just outside it
    ['192.0.2.0', 'documentation'],
    ['192.0.2.255', 'documentation'],
    ['192.0.1.255', null],
    ['192.0.3.0', null],
    ['198.51.100.0', 'documentation'],
    ['198.51.100.255', 'documentation'],
    ['198.51.99.255', null],
    ['198.51.101.0', null],
    ['203.0.113.0', 'documentation'],
    ['203.0.113.255', 'documentation'],
    ['203.0.112.255', null],
    // spec: RFC 3849 (2001:db8::/32) and RFC 9637 (3fff::/20); IANA IPv6 Special-Purpose Address
    // Registry: Globally Reachable False
    ['2001:db8::1', 'documentation'],
    ['2001:DB8:ffff::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['3fff:fff::1', 'documentation'],
    ['3fff:1000::1', null],
    // The /32's and the /20's first and last address, and the addresses just outside them
    ['2001:db8::', 'documentation'],
    ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
    ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', null],
    ['2001:db9::', null],
    ['3fff::', 'documentation'],
    ['3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
    ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null],
    // A zone index is not part of the address (RFC 4007, 11.2)
    ['2001:db8::1%eth0', 'documentation'],
    // spec: RFC 4291, 2.5.5.2 and RFC 6052, 2.1: documentation IPv4 carried in IPv6
    ['::ffff:192.0.2.1', 'documentation (IPv4 in IPv4-mapped)'],
    ['64:ff9b::c000:201', 'documentation (IPv4 in NAT64)'],
    // The other kinds are the same with the option
    ['10.0.0.1', 'private'],
    ['8.8.8.8', null],
  ];
  it.each(documentation)('with documentation: %j is %j', (address, kind) => {
    expect(specialKind(address, { documentation: true })).toBe(kind);
  });

  // The option is the caller's: omitted and false are the same answer (the ranges do not count).
  it.each(documentation)('without documentation: %j is what the default answers', (address) => {
    expect(specialKind(address, { documentation: false })).toBe(specialKind(address));
  });
});

describe('canonicalAddress', () => {
  it.each([
    // IPv4 stays as written (trimmed)
    ['10.0.0.1', '10.0.0.1'],
    [' 203.0.113.7\n', '203.0.113.7'],
    // spec: RFC 4291, 2.2: the 128-bit value, here as one hexadecimal number without leading zeros
    ['::', 'v6:0'],
    ['::1', 'v6:1'],
    ['2001:db8::1', 'v6:20010db8000000000000000000000001'],
    ['fe80::1%eth0', 'v6:fe800000000000000000000000000001'],
    ['::ffff:10.0.0.1', 'v6:ffff0a000001'],
    // Not addresses
    ['example.com', null],
    ['010.0.0.1', null],
    ['1::2::3', null],
  ])('%j -> %j', (text, expected) => {
    expect(canonicalAddress(text)).toBe(expected);
  });

  it('spells every text form of one IPv6 address the same', () => {
    // spec: RFC 5952, 1 (the forms of 2001:db8:0:0:1:0:0:1) and 4.3 (case); RFC 4007, 11.2 (zone index)
    const spellings = [
      '2001:db8:0:0:1:0:0:1',
      '2001:0db8:0:0:1:0:0:1',
      '2001:db8::1:0:0:1',
      '2001:db8::0:1:0:0:1',
      '2001:0db8::1:0:0:1',
      '2001:db8:0:0:1::1',
      '2001:db8:0000:0:1::1',
      '2001:DB8:0:0:1::1',
      ' 2001:db8::1:0:0:1%eth0 ',
    ];
    const canonical = spellings.map(canonicalAddress);
    expect(new Set(canonical)).toEqual(new Set(['v6:20010db8000000000001000000000001']));
  });

  it('spells an IPv4 tail and its hex groups the same', () => {
    // spec: RFC 4291, 2.2 (form 3, x:x:x:x:x:x:d.d.d.d) and RFC 5952, 5
    expect(canonicalAddress('::ffff:192.0.2.1')).toBe(canonicalAddress('::ffff:c000:201'));
    expect(canonicalAddress('64:ff9b::198.51.100.7')).toBe(canonicalAddress('64:FF9B:0:0:0:0:C633:6407'));
    // IPv4 and IPv4-mapped IPv6 are different texts
    expect(canonicalAddress('10.0.0.1')).not.toBe(canonicalAddress('::ffff:10.0.0.1'));
  });
});

/** An IPv6 address's 128-bit value, read through its canonical text; null when it is not one. */
function v6(text: string): bigint | null {
  const canonical = canonicalAddress(text);
  return canonical?.startsWith('v6:') ? BigInt(`0x${canonical.slice(3)}`) : null;
}

describe('v6', () => {
  it.each([
    // spec: RFC 4291, 2.2 (text forms) and 2.5.2 / 2.5.3
    ['::', 0n],
    ['::1', 1n],
    ['2001:db8::', 0x20010db8n << 96n],
    ['fe80::1%eth0', (0xfe80n << 112n) | 1n],
    ['::ffff:192.0.2.1', 0xffffc0000201n],
    ['1:2:3:4:5:6:7:8', 0x00010002000300040005000600070008n],
    ['ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255', 2n ** 128n - 1n],
    // Not IPv6
    ['10.0.0.1', null],
    ['example.com', null],
  ])('%s -> %s', (text, expected) => {
    expect(v6(text)).toBe(expected);
  });
});

describe('inNetwork', () => {
  it.each([
    // spec: RFC 4632, 3.1 (IPv4 prefix notation); a network without a length is one address
    ['198.51.100.7', '198.51.100.0/24', true],
    ['198.51.101.7', '198.51.100.0/24', false],
    ['10.1.2.3', '10.0.0.0/8', true],
    ['11.1.2.3', '10.0.0.0/8', false],
    ['10.1.2.3', '0.0.0.0/0', true],
    ['10.1.2.3', '10.1.2.3', true],
    ['10.1.2.4', '10.1.2.3', false],
    ['10.1.2.3', '10.1.2.3/32', true],
    ['10.1.2.3', '10.1.2.2/31', true],
    ['10.1.2.3', '10.1.2.4/31', false],
    ['255.255.255.255', '128.0.0.0/1', true],
    // The length is one to three decimal digits and at most 32
    ['10.1.2.3', '10.0.0.0/008', true],
    ['10.1.2.3', '10.0.0.0/33', false],
    ['10.1.2.3', '10.0.0.0/', false],
    ['10.1.2.3', '10.0.0.0/x', false],
    ['10.1.2.3', '10.0.0.0/-8', false],
    ['10.1.2.3', '10.0.0.0/1234', false],
    // spec: RFC 4291, 2.3 (IPv6 prefix notation)
    ['2001:db8:1::5', '2001:db8::/32', true],
    ['2001:db9::1', '2001:db8::/32', false],
    ['2001:db8::', '2001:db8::/128', true],
    ['2001:db8::1', '2001:db8::/128', false],
    ['2001:db8::1', '2001:db8::', false],
    ['2001:db8::1', '::/0', true],
    ['febf::1', 'fe80::/10', true],
    ['fec0::1', 'fe80::/10', false],
    ['fe80::1%eth0', 'FE80::/10', true],
    ['2001:db8:0:ffab::1', '2001:db8:0:ff00::/56', true],
    ['2001:db8:0:ff::1', '2001:db8:0:ff00::/56', false],
    ['2001:db8:0:fe00::1', '2001:db8:0:ff00::/56', false],
    // The length is at most 128
    ['2001:db8::1', '2001:db8::/129', false],
    // Families do not mix: an IPv4 address is not in an IPv6 network, IPv4-mapped included, nor the reverse
    ['10.0.0.1', '::/0', false],
    ['::ffff:10.0.0.1', '10.0.0.0/8', false],
    ['::1', '0.0.0.0/0', false],
    // Not addresses
    ['example.com', '10.0.0.0/8', false],
    ['10.0.0.1', 'example.com/8', false],
  ])('%s in %s: %s', (address, cidr, expected) => {
    expect(inNetwork(address, cidr)).toBe(expected);
  });
});

/** A small deterministic random source (mulberry32), so that a failure repeats. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(items.length)]! };
}

/** An IPv6 address's groups written in one of the forms RFC 4291, 2.2 allows, with its value. */
function writeV6(rnd: ReturnType<typeof random>): { text: string; value: bigint } {
  // Zero runs make the `::` compressions worth testing.
  const groups = Array.from({ length: 8 }, () => (rnd.next() < 0.35 ? 0 : rnd.int(0x10000)));
  const value = groups.reduce((n, g) => (n << 16n) | BigInt(g), 0n);
  const quadTail = rnd.next() < 0.25;
  const hexCount = quadTail ? 6 : 8;
  const pieces: string[] = groups.slice(0, hexCount).map((g) => {
    const hex = g.toString(16).padStart(rnd.int(4) + 1, '0');
    return rnd.next() < 0.3 ? hex.toUpperCase() : hex;
  });
  if (quadTail) pieces.push(`${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`);
  // Compress a run of groups (all zero in the value) into `::`.
  if (rnd.next() < 0.7) {
    const from = rnd.int(hexCount);
    const to = from + 1 + rnd.int(hexCount - from);
    let compressed = 0n;
    for (let k = from; k < to; k++) compressed |= BigInt(groups[k]!) << BigInt(16 * (7 - k));
    pieces.splice(from, to - from, '');
    let text = pieces.join(':');
    if (from === 0) text = `:${text}`;
    if (to === hexCount && !quadTail) text = `${text}:`;
    return { text, value: value & ~compressed };
  }
  return { text: pieces.join(':'), value };
}

/** One random edit of `text`: the junk between addresses and nearly addresses. */
function mutate(text: string, rnd: ReturnType<typeof random>): string {
  const i = rnd.int(text.length + 1);
  const c = rnd.pick([':', '::', '.', '%', '0', '1', '9', 'a', 'F', 'g', ' ', '/', '-', '[', '25', '256', '00']);
  switch (rnd.int(4)) {
    case 0:
      return text.slice(0, i) + c + text.slice(i);
    case 1:
      return text.slice(0, i) + text.slice(i + 1);
    case 2:
      return text.slice(0, i) + c + text.slice(i + 1);
    default:
      return text + text.slice(i);
  }
}

describe('address recognition agrees with node:net isIP', () => {
  const rnd = random(20250614);
  const v4 = () => Array.from({ length: 4 }, () => String(rnd.pick([rnd.int(256), rnd.int(10), 0, 255]))).join('.');

  it('reads every random dotted quad as IPv4', () => {
    for (let k = 0; k < 3000; k++) {
      const text = v4();
      expect([text, isIP(text), ipFamily(text)]).toEqual([text, 4, 4]);
    }
  });

  it('reads every random IPv6 spelling as IPv6, with its value and one canonical text', () => {
    for (let k = 0; k < 3000; k++) {
      const { text, value } = writeV6(rnd);
      const zoned = rnd.next() < 0.1 ? `${text}%${rnd.pick(['eth0', 'en-1', '3', 'a.b:c'])}` : text;
      expect([zoned, isIP(zoned), ipFamily(zoned), v6(zoned)]).toEqual([zoned, 6, 6, value]);
      expect(canonicalAddress(zoned)).toBe(`v6:${value.toString(16)}`);
    }
  });

  it('answers as isIP for mutated addresses and junk', () => {
    const seeds = [v4, () => writeV6(rnd).text, () => rnd.pick(['::', '::1', '1::', ':::', 'fe80::1%eth0', '::ffff:1.2.3.4', 'example.com', '1.2.3', ''])];
    for (let k = 0; k < 6000; k++) {
      let text = rnd.pick(seeds)();
      for (let edits = 1 + rnd.int(3); edits > 0; edits--) text = mutate(text, rnd);
      const family = isIP(text);
      expect([text, ipFamily(text)]).toEqual([text, family]);
      // What is not an address has no kind and no canonical spelling.
      if (isIP(text.trim()) === 0) expect([text, specialKind(text), canonicalAddress(text)]).toEqual([text, null, null]);
    }
  });

  it('answers as isIP for every short text over the characters addresses use', () => {
    const alphabet = ['0', '1', '9', 'a', 'F', 'g', ':', '.', '%'];
    const texts = [''];
    for (let length = 1; length <= 4; length++) {
      for (const text of texts.filter((t) => t.length === length - 1)) for (const c of alphabet) texts.push(text + c);
    }
    const disagree = texts.filter((t) => ipFamily(t) !== isIP(t));
    expect(disagree).toEqual([]);
  });

  it('answers as isIP for every one- to four-digit last octet', () => {
    const disagree: string[] = [];
    for (let length = 1; length <= 4; length++) {
      for (let n = 0; n < 10 ** length; n++) {
        const text = `1.1.1.${String(n).padStart(length, '0')}`;
        if (ipFamily(text) !== isIP(text) || ipFamily(`::${text}`) !== isIP(`::${text}`)) disagree.push(text);
      }
    }
    expect(disagree).toEqual([]);
  });
});
