import { packStatus } from '../src/cloudflare/ssl/certificates.js';
import { HostPatterns, normaliseHostname } from '../src/cloudflare/dns/hostnames.js';
import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'universal-ssl-off',
    title: 'With universal SSL off, advanced or custom packs cover every proxied host name',
    description:
      'Universal SSL gives every zone a free edge certificate for the apex and one level of subdomains. Switched off (usually to rely on an advanced or uploaded certificate), any proxied name no other active pack covers answers HTTPS with a certificate error. The edge presents its certificates only for proxied records: a DNS-only name, the apex included, is answered by its origin with the origin\'s own certificate, so a zone with nothing proxied needs no edge certificate.',
    severity: 'high',
    category: 'tls',
    scope: 'zone',
    resource: 'zone',
    reads: ['universal_ssl'],
    messages: {
      uncovered: 'universal SSL is off and no active advanced or custom pack covers {{count}} proxied host name(s): {{hosts}}',
    },
    remediation: 'Turn universal SSL back on (`PATCH /zones/{zone_id}/ssl/universal/settings` with `{"enabled": true}`), or order an advanced pack that names every listed host before leaving it off.',
    references: [
      'vendor docs: universal SSL settings (enabled: disabling removes the universal certificates from the edge; without advanced or custom certificates visitors cannot reach the domain over HTTPS)',
      'vendor docs: certificate packs (universal covers the apex and one level of subdomains)',
      'vendor docs: proxy status (only proxied records are served by the edge; DNS-only records answer with the origin\'s address)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const read = ctx.zone.universalSsl();
    if (!read.known) return ctx.unknown(ctx.zone.resource, read.reason);
    if (read.value?.enabled !== false) return ctx.pass();
    // Which names need an edge certificate is decided by the proxied records: without them, unknown.
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);
    // Only proxied names meet the edge's certificate; the apex is one of them only when a proxied
    // record names it (a DNS-only apex is answered by its origin, with the origin's certificate).
    const needed = new Set<string>();
    for (const r of records.items) if (r.proxied === true && r.name !== null) needed.add(normaliseHostname(r.name));
    if (needed.size === 0) return ctx.pass();
    const packs = ctx.zone.certificatePacks();
    if (!packs.known) return ctx.unknown(ctx.zone.resource, packs.reason);
    const covered = new HostPatterns<true>();
    for (const pack of packs.items) {
      if (pack.type === 'universal' || packStatus(pack) !== 'active') continue;
      for (const host of pack.hosts) covered.add(host, true);
    }
    const uncovered = [...needed].filter((h) => !covered.covers(h)).sort();
    if (uncovered.length === 0) return ctx.pass();
    const shown = uncovered.slice(0, 5).join(', ') + (uncovered.length > 5 ? `, and ${uncovered.length - 5} more` : '');
    ctx.fail(ctx.zone.resource, 'uncovered', { count: uncovered.length, hosts: shown, uncovered });
  },
});
