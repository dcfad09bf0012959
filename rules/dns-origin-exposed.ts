import { isIP, SocketAddress } from 'node:net';
import { normaliseHostname } from '../src/policy/hostnames.js';
import { defineRule } from '../src/policy/rule.js';

const ORIGIN_TYPES = new Set(['A', 'AAAA', 'CNAME']);

/** What a record points at, spelled one way: IPv6 in its canonical form, names without case or trailing dot. */
function target(content: string): string {
  const family = isIP(content);
  if (family === 6) return new SocketAddress({ address: content, family: 'ipv6' }).address;
  return family === 4 ? content : normaliseHostname(content);
}

export default defineRule({
  meta: {
    id: 'dns-origin-exposed',
    title: 'No unproxied record reveals the origin of a proxied one',
    description:
      'The proxy protects an origin only while its address stays secret: an attacker who learns it sends traffic straight there, past the firewall rules, managed rules and rate limits. An unproxied record (ssh, direct, origin) pointing at the same address or target as a proxied one publishes that address to anyone who looks.',
    severity: 'high',
    category: 'dns',
    scope: 'zone',
    resource: 'dns_record',
    messages: {
      exposed: '{{name}} ({{type}} {{content}}) is not proxied and points where the proxied {{exposes}} does: it reveals the origin behind the proxy',
    },
    remediation:
      'Proxy the record, point it at a different address, or remove it; then move the origin to a new address (the old one is known) and let it accept traffic from the proxy only.',
    references: ['API spec: DNS record listing', 'api-facts: DNS record fields (type, content, proxied)'],
  },
  defaultOptions: {},
  check(ctx) {
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);

    // Proxied name by the target it hides, and the proxied names themselves.
    const hidden = new Map<string, string>();
    const proxiedNames = new Set<string>();
    for (const r of records.items) {
      if (r.proxied !== true || r.type === null || !ORIGIN_TYPES.has(r.type) || r.content === null) continue;
      const name = r.name ?? r.id;
      const to = target(r.content);
      if (!hidden.has(to)) hidden.set(to, name);
      proxiedNames.add(normaliseHostname(name));
    }

    let failed = false;
    for (const r of records.items) {
      // A record whose proxy state is not given is not known to be unproxied.
      if (r.proxied !== false || r.type === null || !ORIGIN_TYPES.has(r.type) || r.content === null) continue;
      const to = target(r.content);
      const exposes = hidden.get(to);
      // An alias of a proxied name resolves to the proxy's addresses, not to the origin.
      if (exposes === undefined || (r.type === 'CNAME' && proxiedNames.has(to))) continue;
      ctx.fail({ type: 'dns_record', id: r.id, name: r.name }, 'exposed', { name: r.name ?? r.id, type: r.type, content: r.content, exposes });
      failed = true;
    }
    if (!failed) ctx.pass();
  },
});
