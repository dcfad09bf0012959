import { recordTarget } from '../src/common/dns-targets.js';
import { ADDRESS_OPTION_DEFAULTS, ADDRESS_OPTIONS_FROM, FOLLOWED_ADDRESS_HELP, specialOptions } from '../src/policy/checks/address-options.js';
import { specialKind } from '../src/cloudflare/dns/addresses.js';
import { targetJudge } from '../src/policy/checks/dangling-targets.js';
import { normaliseHostname } from '../src/cloudflare/dns/hostnames.js';
import { passUnlessFailed } from '../src/policy/checks/zone-security.js';
import { NameGlobs } from '../src/policy/checks/name-globs.js';
import { originExposures } from '../src/cloudflare/dns/origin-exposure.js';
import { defineRule } from '../src/policy/rule.js';

/** The record types a name resolves to a host with: the ones a wildcard makes every name answer. */
const RESOLVING_TYPES = new Set(['A', 'AAAA', 'CNAME']);

/**
 * Record types that route traffic: mail (MX, RFC 5321 5.1), a service (SRV, RFC 2782). A wildcard of
 * them makes every made-up name take it, unless it is a null MX (RFC 7505) or an SRV target of `.`.
 */
const ROUTING_MESSAGE: Readonly<Record<string, string>> = { MX: 'mail', SRV: 'service' };

export default defineRule({
  meta: {
    id: 'dns-wildcard-record',
    title: 'No unintended wildcard A, AAAA, CNAME, MX or SRV records',
    description:
      'A wildcard record (`*.example.com`; only a `*` as the first label is a wildcard) answers for every name below it that has no record of its own, at any depth. With a wildcard A, AAAA or CNAME record, typos, guessed names and forgotten hosts all resolve and reach a server, and every such name shares the parent\'s cookie scope and is covered by the zone\'s wildcard certificate, so content served under an unintended name is trusted like the real hosts; a wildcard CNAME to a third party hands every name to it, and one deprovisioned target is a takeover of all of them. A DNS-only wildcard is reported medium: DNS answers every such name with the origin address or target itself, so any invented name reaches the origin past the proxy, its firewall rules and DDoS protection. A proxied wildcard is reported low: the origin stays hidden and the zone\'s security rules stay in front, but the proxy answers for every name. A wildcard MX record routes mail for every made-up subdomain to its mail server, which then takes mail for names that should not exist, and makes every such name look like a domain that receives mail, to senders and to receivers that check a sender\'s domain (RFC 5321 5.1). A wildcard SRV record answers the lookup of any service under its parent with its target, so clients that discover servers through SRV (RFC 2782; mail clients, RFC 6186; chat and voice) are sent to that host for services it was never meant to offer, with their credentials. Both are reported low: they route traffic to a named host rather than expose a new one. A wildcard null MX (RFC 7505) or SRV record with the target `.` (RFC 2782: the service is decidedly not available) says made-up names take no mail or service, and passes. One finding a record: this rule takes DNS-only wildcards from dns-record-not-proxied, and leaves a wildcard to the rule that explains it better: to dns-origin-exposed one that reveals the origin of a proxied record (a DNS-only wildcard on its address or target, or any proxied wildcard of a paused or not yet active zone, which answers with the origin); to dns-private-address one at an address that is not public (whose `documentation` and `standIns` settings this rule follows); to dns-dangling-target a wildcard CNAME, MX or SRV record whose target does not exist. Wildcards that are intended (a platform giving each customer a subdomain) are listed in `allow`. Internal zones are not public DNS, and in a partial (CNAME) setup the vendor\'s DNS does not answer for the zone, so a DNS-only wildcard there publishes nothing.',
    severity: 'medium',
    category: 'dns',
    scope: 'zone',
    resource: 'dns_record',
    messages: {
      dnsOnly: '{{name}} ({{type}} {{content}}) is a DNS-only wildcard: every name under {{base}} without a record of its own resolves straight to {{content}}, past the proxy',
      proxied: '{{name}} ({{type}} {{content}}) is a proxied wildcard: the proxy answers for every name under {{base}} without a record of its own and forwards it to the origin',
      mail: '{{name}} (MX {{content}}) is a wildcard MX record: mail for every name under {{base}} without records of its own is routed to {{target}}, so made-up subdomains take mail',
      service: '{{name}} (SRV {{content}}) is a wildcard SRV record: the lookup of any service under {{base}} without records of its own is answered with {{target}}, so clients are sent there for services it does not offer',
    },
    remediation:
      'Replace the wildcard with records for the names that are meant to exist, and delete it (`DELETE /zones/{zone_id}/dns_records/{dns_record_id}`); if every name is meant to answer, proxy it (`PATCH /zones/{zone_id}/dns_records/{dns_record_id}` with `{"proxied": true}`) so the origin stays hidden behind the firewall, and list it in `allow`. ' +
      'Give MX and SRV records to the names that take mail or offer the service; where made-up names should say they take no mail, a wildcard null MX (`{"type": "MX", "name": "*.<zone>", "content": ".", "priority": 0}`, RFC 7505) does so.',
    references: [
      'vendor docs: wildcard DNS records (answer every subdomain not covered by another record, at any depth; a wildcard only on the first label; proxied or DNS-only on every plan)',
      'vendor docs: proxy status (a DNS-only record is answered with the origin address and its traffic does not pass the proxy); proxying limitations (pending zones are DNS-only)',
      'vendor API reference: DNS records, update (`proxied`) and delete',
      'RFC 4592 (wildcards in DNS); RFC 6265, 5.1.3 (cookie domain matching); RFC 6125, 6.4.3 (wildcard certificates)',
      'RFC 5321 5.1 (mail is routed by the MX records of the domain); RFC 7505 (null MX: a domain that accepts no mail)',
      'RFC 2782 (SRV: clients contact the targets of the service they look up; target "." means the service is not available); RFC 6186 (SRV for mail submission and access)',
    ],
    optionHelp: {
      allow: 'wildcard record names that are intended and not reported, as globs (`*` any characters, `?` one; e.g. `*.customers.example.com`)',
      ...FOLLOWED_ADDRESS_HELP,
    },
    optionsFrom: ADDRESS_OPTIONS_FROM,
  },
  defaultOptions: { allow: [] as readonly string[], ...ADDRESS_OPTION_DEFAULTS },
  check(ctx) {
    // vendor docs, Internal DNS: an internal zone is queried only through the Gateway resolver, never public DNS.
    if (ctx.zone.setupType === 'internal') return ctx.pass();
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);
    const partial = ctx.zone.setupType === 'partial';
    const allow = new NameGlobs(ctx.options.allow);
    const special = specialOptions(ctx.options);
    // What other rules report, worked out at the first wildcard (most zones have none).
    let theirs: { exposing: Set<string>; judge: ReturnType<typeof targetJudge> } | null = null;
    const othersReport = (r: (typeof records.items)[number]): boolean => {
      if ((r.type === 'A' || r.type === 'AAAA') && r.content !== null && specialKind(r.content, special) !== null) return true;
      theirs ??= { exposing: new Set(originExposures(records.items, ctx.zone.originAnsweredAs, special).map((e) => e.record.id)), judge: targetJudge(ctx) };
      return theirs.exposing.has(r.id) || theirs.judge(r).status === 'dangling';
    };
    passUnlessFailed(ctx, (fail) => {
      for (const r of records.items) {
        // A string test first: the wildcards are a handful among up to a million records.
        if (r.name === null || !r.name.startsWith('*.') || r.type === null) continue;
        const routes = ROUTING_MESSAGE[r.type];
        if (routes !== undefined) {
          // MX and SRV records are never proxied, so the zone's state and proxying change nothing;
          // a partial zone's DNS is another provider's, as for DNS-only records below. A dangling
          // target is dns-dangling-target's to report.
          const target = recordTarget(r.type, r.content);
          if (target === null || partial || allow.matches(r.name) || othersReport(r)) continue;
          fail({ type: 'dns_record', id: r.id, name: r.name }, routes, { name: r.name, type: r.type, content: r.content ?? '', base: normaliseHostname(r.name.slice(2)), target }, 'low');
          continue;
        }
        if (!RESOLVING_TYPES.has(r.type)) continue;
        // The API states the proxy status of every A, AAAA and CNAME record; one without it cannot be graded.
        if (r.proxied !== true && r.proxied !== false) continue;
        // vendor docs, partial setup: the zone's authoritative DNS is elsewhere, so a DNS-only record here answers nobody.
        if (r.proxied === false && partial) continue;
        if (allow.matches(r.name) || othersReport(r)) continue;
        const data = { name: r.name, type: r.type, content: r.content ?? '', base: normaliseHostname(r.name.slice(2)) };
        const resource = { type: 'dns_record', id: r.id, name: r.name };
        if (r.proxied === false) fail(resource, 'dnsOnly', data);
        else fail(resource, 'proxied', data, 'low');
      }
    });
  },
});
