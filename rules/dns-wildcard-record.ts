import { ADDRESS_OPTION_DEFAULTS, ADDRESS_OPTIONS_FROM, FOLLOWED_ADDRESS_HELP, specialKind, specialOptions } from '../src/policy/addresses.js';
import { targetJudge } from '../src/policy/dangling-targets.js';
import { normaliseHostname } from '../src/policy/hostnames.js';
import { NameGlobs } from '../src/policy/name-globs.js';
import { originExposures } from '../src/policy/origin-exposure.js';
import { defineRule } from '../src/policy/rule.js';

/** The record types a name resolves to a host with: the ones a wildcard makes every name answer. */
const RESOLVING_TYPES = new Set(['A', 'AAAA', 'CNAME']);

export default defineRule({
  meta: {
    id: 'dns-wildcard-record',
    title: 'No unintended wildcard A, AAAA or CNAME records',
    description:
      'A wildcard record (`*.example.com`; only a `*` as the first label is a wildcard) answers for every name below it that has no record of its own, at any depth. With a wildcard A, AAAA or CNAME record, typos, guessed names and forgotten hosts all resolve and reach a server, and every such name shares the parent\'s cookie scope and is covered by the zone\'s wildcard certificate, so content served under an unintended name is trusted like the real hosts; a wildcard CNAME to a third party hands every name to it, and one deprovisioned target is a takeover of all of them. A DNS-only wildcard is reported medium: DNS answers every such name with the origin address or target itself, so any invented name reaches the origin past the proxy, its firewall rules and DDoS protection. A proxied wildcard is reported low: the origin stays hidden and the zone\'s security rules stay in front, but the proxy answers for every name. One finding a record: this rule takes DNS-only wildcards from dns-record-not-proxied, and leaves a wildcard to the rule that explains it better: to dns-origin-exposed one that reveals the origin of a proxied record (a DNS-only wildcard on its address or target, or any proxied wildcard of a paused or not yet active zone, which answers with the origin); to dns-private-address one at an address that is not public (whose `documentation` and `standIns` settings this rule follows); to dns-dangling-target a wildcard CNAME whose target does not exist. Wildcards that are intended (a platform giving each customer a subdomain) are listed in `allow`. Internal zones are not public DNS, and in a partial (CNAME) setup the vendor\'s DNS does not answer for the zone, so a DNS-only wildcard there publishes nothing.',
    severity: 'medium',
    category: 'dns',
    scope: 'zone',
    resource: 'dns_record',
    messages: {
      dnsOnly: '{{name}} ({{type}} {{content}}) is a DNS-only wildcard: every name under {{base}} without a record of its own resolves straight to {{content}}, past the proxy',
      proxied: '{{name}} ({{type}} {{content}}) is a proxied wildcard: the proxy answers for every name under {{base}} without a record of its own and forwards it to the origin',
    },
    remediation:
      'Replace the wildcard with records for the names that are meant to exist, and delete it (`DELETE /zones/{zone_id}/dns_records/{dns_record_id}`); if every name is meant to answer, proxy it (`PATCH /zones/{zone_id}/dns_records/{dns_record_id}` with `{"proxied": true}`) so the origin stays hidden behind the firewall, and list it in `allow`.',
    references: [
      'vendor docs: wildcard DNS records (answer every subdomain not covered by another record, at any depth; a wildcard only on the first label; proxied or DNS-only on every plan)',
      'vendor docs: proxy status (a DNS-only record is answered with the origin address and its traffic does not pass the proxy); proxying limitations (pending zones are DNS-only)',
      'vendor API reference: DNS records, update (`proxied`) and delete',
      'RFC 4592 (wildcards in DNS); RFC 6265, 5.1.3 (cookie domain matching); RFC 6125, 6.4.3 (wildcard certificates)',
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
    let failed = false;
    for (const r of records.items) {
      // A string test first: the wildcards are a handful among up to a million records.
      if (r.name === null || !r.name.startsWith('*.') || r.type === null || !RESOLVING_TYPES.has(r.type)) continue;
      // The API states the proxy status of every A, AAAA and CNAME record; one without it cannot be graded.
      if (r.proxied !== true && r.proxied !== false) continue;
      // vendor docs, partial setup: the zone's authoritative DNS is elsewhere, so a DNS-only record here answers nobody.
      if (r.proxied === false && partial) continue;
      if (allow.matches(r.name) || othersReport(r)) continue;
      const data = { name: r.name, type: r.type, content: r.content ?? '', base: normaliseHostname(r.name.slice(2)) };
      const resource = { type: 'dns_record', id: r.id, name: r.name };
      if (r.proxied === false) ctx.fail(resource, 'dnsOnly', data);
      else ctx.fail(resource, 'proxied', data, 'low');
      failed = true;
    }
    if (!failed) ctx.pass();
  },
});
