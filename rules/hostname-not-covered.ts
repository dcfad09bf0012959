import { packStatus } from '../src/cloudflare/ssl/certificates.js';
import { HostPatterns, normaliseHostname } from '../src/cloudflare/dns/hostnames.js';
import { defineRule } from '../src/policy/rule.js';
import { passUnlessFailed } from '../src/policy/checks/zone-security.js';

export default defineRule({
  meta: {
    id: 'hostname-not-covered',
    title: 'Every proxied host name is covered by an active certificate',
    description:
      'The edge terminates TLS for proxied host names, so each needs an active certificate naming it. A name no active pack covers (a second-level subdomain under a one-label wildcard, a name added after the pack was ordered, a pack stuck in validation) answers HTTPS with a certificate error.',
    severity: 'high',
    category: 'tls',
    scope: 'zone',
    resource: 'hostname',
    messages: {
      notCovered: '{{hostname}} is proxied but no certificate pack covers it',
      onlyInactive: '{{hostname}} is proxied but no active certificate pack covers it: only a {{status}} pack covers it',
    },
    remediation:
      'Order an advanced certificate pack that names the host (a wildcard covers one label only), fix the validation of the pack that names it, or stop proxying the name.',
    references: [
      'API spec: Resources and their fields (Certificate pack: hosts, wildcard patterns allowed)',
      'vendor docs: certificate pack hosts include the apex',
      'vendor docs: certificates are issued once the zone is active (a pending zone is reported by zone-not-active)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    // A zone that is not active gets its certificates once it is: zone-not-active already says what is wrong with it.
    const status = ctx.zone.zone.status;
    if (status !== null && status !== 'active') return ctx.pass();
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);
    const packs = ctx.zone.certificatePacks();
    if (!packs.known) return ctx.unknown(ctx.zone.resource, packs.reason);

    const active = new HostPatterns<true>();
    // Packs that name a host without serving it: the likely reason the host is not covered.
    const inactive = new HostPatterns<string>();
    for (const pack of packs.items) {
      const status = packStatus(pack);
      for (const host of pack.hosts) {
        if (status === 'active') active.add(host, true);
        else inactive.add(host, status ?? 'status-less');
      }
    }

    const proxied = new Set(records.items.flatMap((r) => (r.proxied === true && r.name !== null ? [normaliseHostname(r.name)] : [])));
    passUnlessFailed(ctx, (fail) => {
      for (const hostname of [...proxied].filter((h) => !active.covers(h))) {
        const status = inactive.match(hostname);
        const resource = { type: 'hostname', id: hostname, name: hostname };
        if (status === undefined) fail(resource, 'notCovered', { hostname });
        else fail(resource, 'onlyInactive', { hostname, status });
      }
    });
  },
});
