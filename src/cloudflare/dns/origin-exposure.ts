import { canonicalAddress, inNetwork, ipFamily, specialKind, type SpecialOptions } from './addresses.js';
import { normaliseHostname } from './hostnames.js';
import type { DnsRecordFields } from './record.js';

/**
 * Which of a zone's DNS records reveal the origin behind a proxied one: an unproxied record on its address or target,
 * the unproxied name a proxied CNAME points at, an origin address in TXT text, mail hosted on the origin, and every
 * proxied record of a zone that answers with its origin (paused or not active).
 */

/** How a record reveals the origin; each kind is a message of dns-origin-exposed. */
export type ExposureKind = 'exposed' | 'originName' | 'txt' | 'mx' | 'zoneNotServing';

export interface Exposure {
  record: DnsRecordFields;
  kind: ExposureKind;
  /** What the message needs beyond the record's name, type and content. */
  data: Record<string, unknown>;
}

const ORIGIN_TYPES = new Set(['A', 'AAAA', 'CNAME']);
const ADDRESS_TYPES = new Set(['A', 'AAAA']);
/** An SPF range this narrow reveals the origin's network; a wider one is a provider's block. */
const NARROWEST_REVEALING = { 4: 24, 6: 48 } as const;

/** What a record points at, spelled one way: addresses canonical, names without case or trailing dot. */
function target(content: string): string {
  return canonicalAddress(content) ?? normaliseHostname(content);
}

/** The addresses a TXT record names: SPF `ip4:`/`ip6:` (with their range, RFC 7208 5.6) and any other written in it. */
function txtAddresses(content: string): Array<[written: string, address: string, prefix: number | null]> {
  const found: Array<[string, string, number | null]> = [];
  for (const raw of content.split(/[\s"',;()<>]+/)) {
    // Every address has a dot or a colon: words such as `v=spf1`, `~all` or a verification token are passed over at once.
    if (!raw.includes('.') && !raw.includes(':')) continue;
    const spf = /^[+\-~?]?ip([46]):([^/]+)(?:\/(\d{1,3}))?$/i.exec(raw);
    if (spf && ipFamily(spf[2]!) !== 0) {
      found.push([raw, spf[2]!, spf[3] === undefined ? null : Number(spf[3])]);
      continue;
    }
    const address = freeTextAddress(raw);
    if (ipFamily(address) !== 0) found.push([raw, address, null]);
  }
  return found;
}

/**
 * The address a TXT word would be (`origin=198.51.100.7`, `[2001:db8::1]`, `198.51.100.0/24.`): after the last `=`,
 * without `[`, `]`, a trailing dot and a `/` range. Index work, not regular expressions: it runs for every word.
 */
function freeTextAddress(word: string): string {
  let start = word.lastIndexOf('=') + 1;
  let end = word.length;
  if (word.charCodeAt(start) === 0x5b /* [ */) start++;
  if (end > start && word.charCodeAt(end - 1) === 0x5d /* ] */) end--;
  if (end > start && word.charCodeAt(end - 1) === 0x2e /* . */) end--;
  const slash = word.indexOf('/', start);
  return word.slice(start, slash >= 0 && slash < end ? slash : end);
}

interface Origin {
  /** The proxied name the address is the origin of. */
  name: string;
  address: string;
  /** The address spelled one way (canonicalAddress), worked out once rather than at every TXT and MX record. */
  canonical: string | null;
}

/** The exposures by records array and inputs: three rules ask on the same zone, and 400,000 records are worth one pass. */
const memo = new WeakMap<readonly DnsRecordFields[], Map<string, Exposure[]>>();

/**
 * Every record that reveals an origin, in the order dns-origin-exposed reports them. `answeredAs`: why the zone
 * answers proxied records with their origin (zone-setup.ts); `special`: addresses not public, whose origin is not
 * published but unreachable (dns-private-address reports it).
 */
export function originExposures(records: readonly DnsRecordFields[], answeredAs: string | null, special: SpecialOptions = {}): Exposure[] {
  const key = `${answeredAs ?? ''}|${special.documentation === true}|${[...(special.standIns ?? [])].sort().join(',')}`;
  const byKey = memo.get(records) ?? new Map<string, Exposure[]>();
  memo.set(records, byKey);
  if (!byKey.has(key)) byKey.set(key, exposuresOf(records, answeredAs, special));
  return byKey.get(key)!;
}

function exposuresOf(records: readonly DnsRecordFields[], answeredAs: string | null, special: SpecialOptions): Exposure[] {
  // Proxied name by the target it hides; the proxied names; the names proxied CNAMEs point at; the origin addresses.
  const hidden = new Map<string, string>();
  const proxiedNames = new Set<string>();
  const cnameTargets = new Map<string, string>();
  const origins: Origin[] = [];
  const proxied: DnsRecordFields[] = [];
  for (const r of records) {
    if (r.proxied !== true || r.type === null || !ORIGIN_TYPES.has(r.type) || r.content === null) continue;
    const name = r.name ?? r.id;
    proxiedNames.add(normaliseHostname(name));
    // A private origin is not a leak but a broken host (dns-private-address says so).
    if (ADDRESS_TYPES.has(r.type) && specialKind(r.content, special) !== null) continue;
    proxied.push(r);
    const to = target(r.content);
    if (!hidden.has(to)) hidden.set(to, name);
    if (r.type === 'CNAME' && !cnameTargets.has(to)) cnameTargets.set(to, name);
    if (ADDRESS_TYPES.has(r.type)) origins.push({ name, address: r.content.trim(), canonical: canonicalAddress(r.content) });
  }

  const found: Exposure[] = [];
  if (answeredAs !== null) for (const r of proxied) found.push({ record: r, kind: 'zoneNotServing', data: { state: answeredAs } });

  /** Unproxied address records by name, for the hosts MX records send mail to. */
  const addressesByName = new Map<string, string[]>();
  for (const r of records) {
    if (r.proxied !== false || r.type === null || r.content === null) continue;
    if (ADDRESS_TYPES.has(r.type)) {
      const key = normaliseHostname(r.name ?? '');
      addressesByName.set(key, [...(addressesByName.get(key) ?? []), r.content.trim()]);
    }
    if (!ORIGIN_TYPES.has(r.type)) continue;
    const to = target(r.content);
    const exposes = hidden.get(to);
    // An alias of a proxied name resolves to the proxy's addresses, not to the origin.
    if (exposes !== undefined && !(r.type === 'CNAME' && proxiedNames.has(to))) {
      found.push({ record: r, kind: 'exposed', data: { exposes } });
      continue;
    }
    const name = normaliseHostname(r.name ?? '');
    const via = cnameTargets.get(name);
    if (via !== undefined && !proxiedNames.has(name) && !(ADDRESS_TYPES.has(r.type) && specialKind(r.content, special) !== null)) found.push({ record: r, kind: 'originName', data: { exposes: via } });
  }

  // The first origin of each address: a zone of 400,000 records must not search the origins for every TXT and MX record.
  const originByAddress = new Map<string, Origin>();
  for (const o of origins) if (o.canonical !== null && !originByAddress.has(o.canonical)) originByAddress.set(o.canonical, o);
  const originOf = (address: string, prefix: number | null): Origin | undefined => {
    if (prefix === null) {
      // Text that is not an address names no origin (not even a proxied record whose content is not one either).
      const canonical = canonicalAddress(address);
      return canonical === null ? undefined : originByAddress.get(canonical);
    }
    const family = ipFamily(address) as 4 | 6;
    if (prefix < NARROWEST_REVEALING[family]) return undefined;
    return origins.find((o) => inNetwork(o.address, `${address}/${prefix}`));
  };

  for (const r of records) {
    if (r.content === null) continue;
    if (r.type === 'TXT') {
      for (const [written, address, prefix] of txtAddresses(r.content)) {
        const origin = originOf(address, prefix);
        if (!origin) continue;
        found.push({ record: r, kind: 'txt', data: { written, address: origin.address, exposes: origin.name, how: prefix === null ? 'is' : 'covers' } });
        break;
      }
    } else if (r.type === 'MX') {
      // MX content is the mail host (its priority is a field of its own); a few answers put both in content.
      const host = normaliseHostname(r.content.trim().split(/\s+/).at(-1) ?? '');
      const origin = (addressesByName.get(host) ?? []).map((a) => originOf(a, null)).find((o) => o !== undefined);
      if (origin) found.push({ record: r, kind: 'mx', data: { address: origin.address, exposes: origin.name } });
    }
  }
  return found;
}
