import { packStatus } from '../src/policy/certificates.js';
import { HostPatterns, normaliseHostname } from '../src/policy/hostnames.js';
import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'universal-ssl-off',
    title: 'With universal SSL off, advanced or custom packs cover the zone\'s host names',
    description:
      'Universal SSL gives every zone a free certificate for the apex and one level of subdomains. Switched off (usually to rely on an advanced or uploaded certificate), any proxied name no other active pack covers answers HTTPS with a certificate error.',
    severity: 'high',
    category: 'tls',
    scope: 'zone',
    resource: 'zone',
    reads: ['universal_ssl'],
    messages: {
      uncovered: 'universal SSL is off and no active advanced or custom pack covers {{count}} host name(s): {{hosts}}',
    },
    remediation: 'Turn universal SSL back on (`PATCH /zones/{zone_id}/ssl/universal/settings` with `{"enabled": true}`), or order an advanced pack that names every listed host before leaving it off.',
    references: ['vendor docs: universal SSL settings (enabled)', 'vendor docs: certificate packs (universal covers the apex and one level of subdomains)'],
  },
  defaultOptions: {},
  check(ctx) {
    const read = ctx.zone.universalSsl();
    if (!read.known) return ctx.unknown(ctx.zone.resource, read.reason);
    if (read.value?.enabled !== false) return ctx.pass();
    const packs = ctx.zone.certificatePacks();
    if (!packs.known) return ctx.unknown(ctx.zone.resource, packs.reason);
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);
    const covered = new HostPatterns<true>();
    for (const pack of packs.items) {
      if (pack.type === 'universal' || packStatus(pack) !== 'active') continue;
      for (const host of pack.hosts) covered.add(host, true);
    }
    const needed = new Set([normaliseHostname(ctx.zone.name)]);
    for (const r of records.items) if (r.proxied === true && r.name !== null) needed.add(normaliseHostname(r.name));
    const uncovered = [...needed].filter((h) => !covered.covers(h)).sort();
    if (uncovered.length === 0) return ctx.pass();
    const shown = uncovered.slice(0, 5).join(', ') + (uncovered.length > 5 ? `, and ${uncovered.length - 5} more` : '');
    ctx.fail(ctx.zone.resource, 'uncovered', { count: uncovered.length, hosts: shown, uncovered });
  },
});
