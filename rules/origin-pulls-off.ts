import { ADDRESS_OPTION_DEFAULTS, ADDRESS_OPTIONS_FROM, FOLLOWED_ADDRESS_HELP } from '../src/policy/checks/address-options.js';
import { originLeaks } from '../src/policy/checks/origin-leaks.js';
import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'origin-pulls-off',
    title: 'A zone whose origin is exposed makes the origin check that requests come through the edge',
    description:
      'When a DNS record reveals the origin behind a proxied one (the leaks dns-origin-exposed reports, judged as it judges them: an address that is not public as dns-private-address\'s `documentation` and `standIns` say reveals no origin), anyone can send requests straight to it, past the firewall, managed, rate limiting and bot rules. Authenticated origin pulls (mutual TLS from the edge to the origin) let the origin refuse every connection that does not present the edge\'s client certificate. This rule fails a zone with such a leak whose zone-level authenticated origin pulls are off (high, as the leak it compounds). A zone with no exposed origin passes. Only the zone-level switch (`origin_tls_client_auth/settings`) is read: a zone that authenticates its origin pulls per hostname or with the global (vendor) certificate only, or that restricts its origin to the vendor\'s addresses or a tunnel, can waive the finding.',
    severity: 'high',
    category: 'tls',
    scope: 'zone',
    resource: 'zone',
    reads: ['origin_pulls'],
    messages: {
      off: 'zone-level authenticated origin pulls are off while {{count}} record(s) reveal the origin ({{records}}): the origin accepts requests that bypass the edge',
    },
    remediation:
      'Upload a client certificate (`POST /zones/{zone_id}/origin_tls_client_auth`) or use the vendor\'s, configure the origin to require it, then `PUT /zones/{zone_id}/origin_tls_client_auth/settings` with `{"enabled": true}` (the SSL/TLS mode must be Full or Full (strict): authenticated origin pulls do not apply with Off or Flexible). Also remove the leak dns-origin-exposed reports and move the origin to a new address.',
    references: [
      'vendor docs: Authenticated Origin Pulls (mTLS): without it anyone who discovers the origin\'s address can send requests directly, bypassing the edge; not applied with SSL mode Off or Flexible',
      'vendor API reference: zone-level authenticated origin pulls settings (GET/PUT /zones/{zone_id}/origin_tls_client_auth/settings, enabled, false by default)',
      'vendor docs: Authenticated Origin Pulls set-up: global, zone-level and per-hostname are independent configurations',
      'vendor docs: proxied DNS records (records that expose the origin)',
      'RFC 5737 and RFC 3849 (documentation addresses), RFC 1918, RFC 6598 and RFC 4193 (private and shared addresses): not globally reachable, so no origin is exposed there',
    ],
    optionHelp: FOLLOWED_ADDRESS_HELP,
    optionsFrom: ADDRESS_OPTIONS_FROM,
  },
  defaultOptions: ADDRESS_OPTION_DEFAULTS,
  check(ctx) {
    const read = ctx.zone.originPulls();
    if (!read.known) return ctx.unknown(ctx.zone.resource, read.reason);
    // vendor API reference: zone-level authenticated origin pulls are false by default: an answer without the field is off.
    if (read.value?.enabled === true) return ctx.pass();
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);
    const exposures = originLeaks(ctx, records.items);
    if (exposures.length === 0) return ctx.pass();
    const names = [...new Set(exposures.map((e) => e.record.name ?? e.record.id))];
    const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? `, and ${names.length - 5} more` : '');
    ctx.fail(ctx.zone.resource, 'off', { count: names.length, records: shown });
  },
});
