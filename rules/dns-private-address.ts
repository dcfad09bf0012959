import { DOCUMENTATION_RANGES, specialKind } from '../src/cloudflare/dns/addresses.js';
import { defineRule } from '../src/policy/rule.js';
import { passUnlessFailed } from '../src/policy/checks/zone-security.js';

export default defineRule({
  meta: {
    id: 'dns-private-address',
    title: 'Public DNS publishes no private or special-purpose addresses',
    description:
      'An address record in public DNS that points at a private, loopback, link-local, shared, benchmarking, documentation, multicast or reserved address (the IANA special-purpose registries: not globally reachable) is useless to the internet and useful to an attacker: it maps the internal network (split-horizon leaks), and names pointing at 127.0.0.1 or a LAN range enable DNS rebinding against browsers and local services. A proxied record does not publish its address, but the proxy cannot reach such an origin either: the host is broken. A paused or inactive zone answers proxied records with their origin address, so there they are published. A documentation address (RFC 5737, RFC 3849, RFC 9637) reaches nothing: the record is a copied example or a placeholder left in public DNS. Examples and test zones that use some of those ranges as stand-ins for public addresses name them in `standIns` (or turn them all off with `documentation`), and a stray address in another documentation range is still reported. Internal zones (Internal DNS: no vendor nameservers, queried only through the vendor\'s Gateway resolver) are not public DNS and pass as not applicable.',
    severity: 'medium',
    category: 'dns',
    scope: 'zone',
    resource: 'dns_record',
    messages: {
      internal: '{{name}} ({{type}}) publishes the {{kind}} address {{address}} in public DNS',
      brokenOrigin: '{{name}} ({{type}}) is proxied to the {{kind}} address {{address}}, which the proxy cannot reach: the host is broken (nothing leaks: the proxy answers with its own addresses)',
    },
    remediation:
      'Remove the record from the public zone and serve internal names from internal DNS only (split horizon), or point the record at a public address; for a proxied record, point it at the origin\'s public address (or a tunnel).',
    references: [
      'IANA IPv4 Special-Purpose Address Registry (RFC 6890), IANA IPv6 Special-Purpose Address Registry, IPv4 and IPv6 multicast and reserved blocks',
      'RFC 5737 (IPv4 documentation: 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24), RFC 3849 (2001:db8::/32), RFC 9637 (3fff::/20)',
      'RFC 6052 (IPv4 inside the NAT64 prefix), RFC 4291 (IPv4-mapped addresses)',
      'vendor docs: DNS record fields (type, content, proxied); zone status and paused',
      'vendor docs: Internal DNS, internal zones (no vendor nameservers; queried only through the vendor\'s Gateway resolver)',
    ],
    optionHelp: {
      documentation:
        'report the documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32, 3fff::/20), which the IANA registries mark not globally reachable; set false for example or test zones that use them as stand-ins for public addresses',
      standIns: 'documentation ranges, named as in the documentation option, that this organisation uses as stand-ins for public addresses (example and test zones): not reported, while the other documentation ranges still are',
    },
    optionChoices: {
      standIns: DOCUMENTATION_RANGES,
    },
  },
  defaultOptions: { documentation: true, standIns: [] as readonly string[] },
  check(ctx) {
    // An internal zone (vendor docs, Internal DNS) gets no vendor nameservers and is queried only
    // through the vendor's Gateway resolver: it is private DNS, where private addresses belong.
    if (ctx.zone.setupType === 'internal') return ctx.pass();
    const special = { documentation: ctx.options.documentation, standIns: new Set(ctx.options.standIns) };
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);
    // A paused or not yet active zone resolves proxied records to their origin (vendor docs: pausing, zone status).
    const proxyServes = ctx.zone.originAnsweredAs === null;
    passUnlessFailed(ctx, (fail) => {
      for (const r of records.items) {
        if ((r.type !== 'A' && r.type !== 'AAAA') || r.content === null) continue;
        // Content that is not an address is ignored rather than reported unknown: it points nowhere, so it cannot leak an internal one.
        const kind = specialKind(r.content, special);
        if (kind === null) continue;
        const broken = r.proxied === true && proxyServes;
        fail({ type: 'dns_record', id: r.id, name: r.name }, broken ? 'brokenOrigin' : 'internal', { name: r.name ?? r.id, type: r.type, kind, address: r.content }, broken ? 'low' : undefined);
      }
    });
  },
});
