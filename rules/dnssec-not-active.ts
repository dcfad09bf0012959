import { DAY_MS } from '../src/cloudflare/ssl/certificates.js';
import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'dnssec-not-active',
    title: 'DNSSEC signs the answers of full-setup zones',
    description:
      'Without DNSSEC a resolver cannot tell a forged answer from a real one, so cache poisoning can send visitors, mail and certificate validation to an attacker. Enabling it is two steps: the vendor signs at once (status pending), then the DS record must be added at the registrar; a zone left pending is not protected. Only full-setup zones are judged: a partial (CNAME setup) zone is answered by another provider\'s nameservers, and a secondary zone is signed by, or together with, its primary provider, so the vendor\'s DNSSEC status there is not what resolvers see; an internal zone is not in public DNS at all (no vendor nameservers, queried only through the vendor\'s Gateway resolver). Those pass as not applicable.',
    severity: 'medium',
    category: 'dns',
    scope: 'zone',
    resource: 'zone',
    reads: ['dnssec'],
    messages: {
      disabled: 'DNSSEC is disabled: answers for the zone can be forged',
      pendingStuck: 'DNSSEC has been pending for {{days}} days: the DS record was never added at the registrar, so resolvers do not validate the zone',
      disabling: 'DNSSEC is being disabled (pending-disabled)',
      error: 'DNSSEC is in error: the DS record at the registrar does not match the zone\'s key, and validating resolvers may fail to resolve the zone',
      noStatus: 'the DNSSEC answer gives no status ("{{status}}")',
    },
    remediation: 'Enable DNSSEC (`PATCH /zones/{zone_id}/dnssec` with status `active`), then add the DS record it answers (`ds`, or key_tag, algorithm, digest) at the registrar; for status error, replace the registrar\'s DS with the current one.',
    references: [
      'vendor docs: DNSSEC (status: active, pending, disabled, pending-disabled, error; ds, key_tag, digest)',
      'vendor docs: partial (CNAME) setup (the authoritative DNS stays with another provider); Cloudflare as secondary (DNSSEC: pre-signed zones from the primary, or multi-signer)',
      'vendor docs: Internal DNS, internal zones (no vendor nameservers; queried only through the vendor\'s Gateway resolver)',
      'RFC 4033: DNS Security Introduction and Requirements',
    ],
    optionHelp: { pendingDays: 'days a zone may stay pending (waiting for the DS record) before it is reported' },
  },
  defaultOptions: { pendingDays: 7 },
  check(ctx) {
    // Not applicable where the vendor's DNSSEC is not what resolvers validate: a partial zone is signed
    // by the customer's provider, a secondary one with its primary, an internal one (vendor docs,
    // Internal DNS) is not in public DNS.
    if (!ctx.zone.publicDnsIsHere) return ctx.pass();
    const read = ctx.zone.dnssec();
    if (!read.known) return ctx.unknown(ctx.zone.resource, read.reason);
    // A zone that is not active yet is judged once it is: zone-not-active reports it.
    const zoneStatus = ctx.zone.zone.status;
    if (zoneStatus !== null && zoneStatus !== 'active') return ctx.pass();
    const status = read.value?.status ?? null;
    if (status === 'active') return ctx.pass();
    if (status === 'disabled') return ctx.fail(ctx.zone.resource, 'disabled', { status });
    if (status === 'pending-disabled') return ctx.fail(ctx.zone.resource, 'disabling', { status });
    if (status === 'error') return ctx.fail(ctx.zone.resource, 'error', { status }, 'high');
    if (status === 'pending') {
      const since = read.value?.modifiedOn;
      if (!since) return ctx.unknown(ctx.zone.resource, 'DNSSEC is pending and the answer does not say since when');
      const days = Math.floor((ctx.now.getTime() - since.getTime()) / DAY_MS);
      if (days < ctx.options.pendingDays) return ctx.pass();
      return ctx.fail(ctx.zone.resource, 'pendingStuck', { status, days, since: since.toISOString() });
    }
    ctx.fail(ctx.zone.resource, 'noStatus', { status: status ?? 'none' }, 'low');
  },
});
