import { ADDRESS_OPTION_DEFAULTS, ADDRESS_OPTIONS_FROM, FOLLOWED_ADDRESS_HELP } from '../src/policy/checks/address-options.js';
import { originLeaks } from '../src/policy/checks/origin-leaks.js';
import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'dns-origin-exposed',
    title: 'No record reveals the origin of a proxied one',
    description:
      'The proxy protects an origin only while its address stays secret: an attacker who learns it sends traffic straight there, past the firewall rules, managed rules and rate limits. The common leaks: an unproxied record (ssh, direct, mail) pointing at the same address or target as a proxied one; the unproxied name a proxied CNAME points at (www CNAME origin, origin unproxied); the origin address in an SPF ip4:/ip6: mechanism or another TXT record; mail (MX) hosted on the origin address; and every proxied record of a zone that is paused or not active, which answers with the origin itself. One finding a record: this rule takes a record that reveals an origin from dns-record-not-proxied and dns-wildcard-record (which leave it here), and leaves to dns-private-address a record at an address that is not public (a private, documentation or other special-purpose address reveals no origin: nothing reaches it; which documentation ranges stand in for public addresses is dns-private-address\'s setting, followed here) and to dns-dangling-target a CNAME whose target does not exist (it reveals no origin: it can be taken over).',
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
      'RFC 5737 and RFC 3849 (documentation addresses), RFC 1918, RFC 6598 and RFC 4193 (private and shared addresses): not globally reachable, so they reveal no origin',
    ],
    optionHelp: FOLLOWED_ADDRESS_HELP,
    optionsFrom: ADDRESS_OPTIONS_FROM,
  },
  defaultOptions: ADDRESS_OPTION_DEFAULTS,
  check(ctx) {
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);
    const found = originLeaks(ctx, records.items);
    for (const { record: r, kind, data } of found) ctx.fail({ type: 'dns_record', id: r.id, name: r.name }, kind, { name: r.name ?? r.id, type: r.type, content: r.content, ...data });
    if (found.length === 0) ctx.pass();
  },
});
