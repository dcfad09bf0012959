import { canonicalAddress, inNetwork, ipFamily, specialKind } from '../src/policy/addresses.js';
import { normaliseHostname } from '../src/policy/hostnames.js';
import { defineRule } from '../src/policy/rule.js';
import type { DnsRecordFields } from '../src/snapshot/reader.js';

const ORIGIN_TYPES = new Set(['A', 'AAAA', 'CNAME']);
const ADDRESS_TYPES = new Set(['A', 'AAAA']);
/** An SPF range this narrow reveals the origin's network; a wider one is a provider's block. */
const NARROWEST_REVEALING = { 4: 24, 6: 48 } as const;

/** What a record points at, spelled one way: addresses canonical, names without case or trailing dot. */
function target(content: string): string {
  return canonicalAddress(content) ?? normaliseHostname(content);
}

/**
 * The addresses a TXT record names: SPF `ip4:`/`ip6:` mechanisms (with their range, RFC 7208
 * 5.6) and any other address written in the text. Each as [what is written, address, range].
 */
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
 * The address a free-text word of a TXT record would be: `origin=198.51.100.7`, `198.51.100.7.`,
 * `[2001:db8::1]`, `198.51.100.0/24`. What follows the last `=`, without one leading `[`, one
 * trailing `]`, then one trailing dot, up to the first `/`. (Index work rather than four regular
 * expressions: this runs for every word of every TXT record.)
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

export default defineRule({
  meta: {
    id: 'dns-origin-exposed',
    title: 'No record reveals the origin of a proxied one',
    description:
      'The proxy protects an origin only while its address stays secret: an attacker who learns it sends traffic straight there, past the firewall rules, managed rules and rate limits. The common leaks: an unproxied record (ssh, direct, mail) pointing at the same address or target as a proxied one; the unproxied name a proxied CNAME points at (www CNAME origin, origin unproxied); the origin address in an SPF ip4:/ip6: mechanism or another TXT record; mail (MX) hosted on the origin address; and every proxied record of a zone that is paused or not active, which answers with the origin itself.',
    severity: 'high',
    category: 'dns',
    scope: 'zone',
    resource: 'dns_record',
    messages: {
      exposed: '{{name}} ({{type}} {{content}}) is not proxied and points where the proxied {{exposes}} does: it reveals the origin behind the proxy',
      originName: '{{name}} ({{type}} {{content}}) is not proxied and is the origin the proxied {{exposes}} points at (CNAME): it reveals the origin behind the proxy',
      txt: '{{name}} (TXT) names {{written}}, which {{how}} the origin address {{address}} of the proxied {{exposes}}: it reveals the origin behind the proxy',
      mx: '{{name}} (MX {{content}}) sends mail to a host on {{address}}, the origin address of the proxied {{exposes}}: every mail it receives reveals the origin',
      zoneNotServing: '{{name}} ({{type}} {{content}}) is proxied, but the zone is {{state}}: DNS answers with the origin instead of the proxy',
    },
    remediation:
      'Proxy the record, point it at a different address, or remove it; keep origin addresses out of SPF and other TXT records (send mail from another address, e.g. a mail provider); host mail elsewhere than the web origin; unpause or activate the zone. Then move the origin to a new address (the old one is known) and let it accept traffic from the proxy only.',
    references: [
      'API spec: DNS record listing',
      'vendor docs: DNS record fields (type, content, proxied); zone status and paused',
      'vendor docs: proxied DNS records (records that expose the origin: unproxied records on the same address, mail records, SPF); pausing a zone (DNS answers with the origin)',
      'RFC 7208, 5.6 (SPF ip4 and ip6 mechanisms)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);
    const state = ctx.zone.originAnsweredAs;

    // Proxied name by the target it hides; the proxied names; the names proxied CNAMEs point at; the origin addresses.
    const hidden = new Map<string, string>();
    const proxiedNames = new Set<string>();
    const cnameTargets = new Map<string, string>();
    const origins: Origin[] = [];
    const proxied: DnsRecordFields[] = [];
    for (const r of records.items) {
      if (r.proxied !== true || r.type === null || !ORIGIN_TYPES.has(r.type) || r.content === null) continue;
      const name = r.name ?? r.id;
      proxiedNames.add(normaliseHostname(name));
      // A private origin is not a leak but a broken host (dns-private-address says so).
      if (ADDRESS_TYPES.has(r.type) && specialKind(r.content) !== null) continue;
      proxied.push(r);
      const to = target(r.content);
      if (!hidden.has(to)) hidden.set(to, name);
      if (r.type === 'CNAME' && !cnameTargets.has(to)) cnameTargets.set(to, name);
      if (ADDRESS_TYPES.has(r.type)) origins.push({ name, address: r.content.trim(), canonical: canonicalAddress(r.content) });
    }

    let failed = false;
    const fail = (r: DnsRecordFields, messageId: string, data: Record<string, unknown>) => {
      ctx.fail({ type: 'dns_record', id: r.id, name: r.name }, messageId, { name: r.name ?? r.id, type: r.type, content: r.content, ...data });
      failed = true;
    };

    if (state !== null) for (const r of proxied) fail(r, 'zoneNotServing', { state });

    /** Unproxied address records by name, for the hosts MX records send mail to. */
    const addressesByName = new Map<string, string[]>();
    for (const r of records.items) {
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
        fail(r, 'exposed', { exposes });
        continue;
      }
      const name = normaliseHostname(r.name ?? '');
      const via = cnameTargets.get(name);
      if (via !== undefined && !proxiedNames.has(name) && !(ADDRESS_TYPES.has(r.type) && specialKind(r.content) !== null)) fail(r, 'originName', { exposes: via });
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

    for (const r of records.items) {
      if (r.content === null) continue;
      if (r.type === 'TXT') {
        for (const [written, address, prefix] of txtAddresses(r.content)) {
          const origin = originOf(address, prefix);
          if (!origin) continue;
          fail(r, 'txt', { written, address: origin.address, exposes: origin.name, how: prefix === null ? 'is' : 'covers' });
          break;
        }
      } else if (r.type === 'MX') {
        // MX content is the mail host (its priority is a field of its own); a few answers put both in content.
        const host = normaliseHostname(r.content.trim().split(/\s+/).at(-1) ?? '');
        const origin = (addressesByName.get(host) ?? []).map((a) => originOf(a, null)).find((o) => o !== undefined);
        if (origin) fail(r, 'mx', { address: origin.address, exposes: origin.name });
      }
    }
    if (!failed) ctx.pass();
  },
});
