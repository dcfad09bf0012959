import { ADDRESS_OPTION_DEFAULTS, ADDRESS_OPTIONS_FROM, FOLLOWED_ADDRESS_HELP, specialOptions } from '../src/policy/checks/address-options.js';
import { ipFamily, specialKind } from '../src/cloudflare/dns/addresses.js';
import { targetJudge } from '../src/policy/checks/dangling-targets.js';
import { normaliseHostname } from '../src/cloudflare/dns/hostnames.js';
import { NameGlobs } from '../src/policy/checks/name-globs.js';
import { passUnlessFailed } from '../src/policy/checks/zone-security.js';
import { originExposures } from '../src/cloudflare/dns/origin-exposure.js';
import { defineRule } from '../src/policy/rule.js';
import type { DnsRecordFields } from '../src/policy/zone-view.js';

/** Which zones are judged: those proxying any record (a DNS-only web record is likely forgotten), or every zone. */
const SCOPES = ['proxying-zones', 'every-zone'] as const;

/** The only record types the proxy takes (vendor docs, proxy status). */
const PROXIABLE_TYPES = new Set(['A', 'AAAA', 'CNAME']);

/**
 * First labels that by convention name a host for mail or another protocol the HTTP proxy does not
 * carry (vendor docs, proxy status use cases: email; FTP, SSH, RDP and other non-HTTP services),
 * compared without trailing digits (`mx2`, `smtp1`, `pop3`).
 */
const NON_WEB_LABELS = new Set(['mail', 'smtp', 'imap', 'pop', 'mx', 'autodiscover', 'autoconfig', 'ftp', 'sftp', 'ssh', 'rdp', 'vpn']);

/** CNAME targets the vendor will not proxy, or says must stay DNS-only (vendor docs, proxying limitations). */
const NON_PROXIABLE_EXACT = new Set(['dkim2.mcsv.net', 'dkim3.mcsv.net', 'zmverify.zoho.com', 'dkim.infusionmail.com', 'dkim.amazonses.com', 'verify.squarespace.com']);
const NON_PROXIABLE_BELOW = ['.dkim.amazonses.com', '.onmicrosoft.com', '.dkim.intercom.io', '.acm-validations.aws'];

function nonProxiableTarget(target: string): boolean {
  if (NON_PROXIABLE_EXACT.has(target)) return true;
  for (const suffix of NON_PROXIABLE_BELOW) if (target.endsWith(suffix)) return true;
  return false;
}

/** The first label without its trailing digits: `mx2.a.example` -> `mx`. */
function conventionalLabel(name: string): string {
  const dot = name.indexOf('.');
  let end = dot === -1 ? name.length : dot;
  while (end > 0 && name.charCodeAt(end - 1) >= 0x30 && name.charCodeAt(end - 1) <= 0x39) end--;
  return name.slice(0, end);
}

/** A label starting with `_` names a service (`_sip._tcp`, `_acme-challenge`, `_domainkey`), not a web host. */
function hasServiceLabel(name: string): boolean {
  return name.charCodeAt(0) === 0x5f || name.includes('._');
}

/** The host an MX record sends mail to: its content (a few answers put the priority before it). */
function mailHost(content: string): string {
  const t = content.trim();
  const cut = Math.max(t.lastIndexOf(' '), t.lastIndexOf('\t'));
  return normaliseHostname(t.slice(cut + 1));
}

export default defineRule({
  meta: {
    id: 'dns-record-not-proxied',
    title: 'Web records are proxied (by default, in zones that use the proxy)',
    description:
      'A DNS-only A, AAAA or CNAME record is answered with its content itself: DNS publishes the origin address (or target), and its traffic goes straight there, past the firewall rules, managed rules, rate limits and DDoS protection of the proxy. The vendor recommends proxying every such record that serves web traffic. By default (`scope: proxying-zones`) only zones that proxy at least one record are judged: there the team uses the proxy, so a DNS-only record is likely one that was forgotten, while a zone that proxies nothing is one the organisation serves through DNS alone on purpose (another CDN or provider in front, a parked or mail-only domain), and reporting each of its records would bury the forgotten ones under a decision already taken. The vendor\'s own scanner reports them in every zone; a team whose policy is that every web host sits behind the edge sets `scope: every-zone`, and the web records of zones that proxy nothing are then reported too (their own message says the zone proxies nothing). Left alone are names that by convention serve no web traffic, which the vendor says must stay DNS-only: mail hosts (the zone\'s MX targets, and first labels mail, smtp, imap, pop, mx, autodiscover, autoconfig, with or without digits), other protocols (ftp, sftp, ssh, rdp, vpn), service names (a label starting with `_`), CNAMEs to the targets the vendor refuses to proxy (mail signing and domain verification targets), and names listed in `ignore`. Also left alone: a CNAME to a name the zone proxies (it resolves to the proxy). One finding a record: a DNS-only record that another rule explains better is left to it: one that reveals the origin of a proxied record to dns-origin-exposed; a wildcard to dns-wildcard-record (every name under it resolves there); an address that is not public (private, shared, loopback, link-local, or a documentation address not named a stand-in: it publishes no origin, nothing reaches it) to dns-private-address, whose `documentation` and `standIns` settings this rule follows; a CNAME whose target does not exist to dns-dangling-target. A paused zone is judged the same: the record stays DNS-only once the zone is unpaused. Internal zones are not public DNS, and in a partial (CNAME) setup the vendor\'s DNS does not answer for the zone (DNS-only records there only tell the proxy where origins are): both pass as not applicable.',
    severity: 'low',
    category: 'dns',
    scope: 'zone',
    resource: 'dns_record',
    messages: {
      notProxied: '{{name}} ({{type}} {{content}}) is DNS-only while the zone proxies other records: DNS publishes its origin {{content}}, and its traffic bypasses the proxy and its firewall',
      notProxiedZone: '{{name}} ({{type}} {{content}}) is DNS-only, as is every record of the zone: DNS publishes its origin {{content}}, and its traffic never meets the proxy and its firewall',
    },
    remediation:
      'Proxy the record (`PATCH /zones/{zone_id}/dns_records/{dns_record_id}` with `{"proxied": true}`), or delete it (`DELETE /zones/{zone_id}/dns_records/{dns_record_id}`) if nothing uses it; a name that serves no web traffic (mail, SSH, another protocol, a third-party service that does not support the proxy) goes in `ignore`. Then move the origin to a new address, since the published one is known.',
    references: [
      'vendor docs: proxy status (a DNS-only record is answered with the origin address and bypasses the proxy; only A, AAAA and CNAME records can be proxied; proxy every one that serves web traffic)',
      'vendor docs: proxy status use cases (records to keep DNS-only: email, domain verification, SaaS-hosted sites, non-HTTP services such as FTP, SSH and RDP)',
      'vendor docs: proxying limitations (non-proxiable CNAME targets; pending zones are DNS-only)',
      'vendor API reference: DNS records, update (`proxied`) and delete',
    ],
    optionHelp: {
      ignore: 'record names that are meant to stay DNS-only and are not reported, as globs (`*` any characters, `?` one; e.g. `game.example.com`, `*.saas.example.com`)',
      scope: '`proxying-zones` (default): judge only zones that proxy at least one record, where a DNS-only web record is likely forgotten; `every-zone`: also report the web records of zones that proxy nothing, for a policy that every web host sits behind the edge (as the vendor\'s own scanner does)',
      ...FOLLOWED_ADDRESS_HELP,
    },
    optionsFrom: ADDRESS_OPTIONS_FROM,
    optionChoices: { scope: SCOPES },
  },
  defaultOptions: { ignore: [] as readonly string[], scope: 'proxying-zones' as (typeof SCOPES)[number], ...ADDRESS_OPTION_DEFAULTS },
  check(ctx) {
    const setup = ctx.zone.setupType;
    // vendor docs: Internal DNS is never public; a partial setup's authoritative DNS is elsewhere.
    if (setup === 'internal' || setup === 'partial') return ctx.pass();
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);

    // One pass gathers what the verdicts need: the proxied names, the mail hosts and the DNS-only records.
    const proxiedNames: string[] = [];
    const mailHosts = new Set<string>();
    const dnsOnly: DnsRecordFields[] = [];
    for (const r of records.items) {
      if (r.type === 'MX') {
        if (r.content !== null) mailHosts.add(mailHost(r.content));
      } else if (r.type !== null && PROXIABLE_TYPES.has(r.type) && r.content !== null && r.name !== null) {
        if (r.proxied === true) proxiedNames.push(r.name);
        else if (r.proxied === false) dnsOnly.push(r);
      }
    }
    // A zone that proxies nothing does not use the proxy: DNS-only is its choice, unless the scope is every zone.
    const proxiesNothing = proxiedNames.length === 0;
    if (proxiesNothing && ctx.options.scope !== 'every-zone') return ctx.pass();

    const ignore = new NameGlobs(ctx.options.ignore);
    const special = specialOptions(ctx.options);
    const suspects: Array<{ record: DnsRecordFields; content: string; target: string | null }> = [];
    const targets = new Set<string>();
    for (const r of dnsOnly) {
      const name = normaliseHostname(r.name!);
      const content = r.content!.trim();
      // A wildcard is dns-wildcard-record's: every name under it resolves there, which says more than this rule would.
      if (name.startsWith('*.') || hasServiceLabel(name) || NON_WEB_LABELS.has(conventionalLabel(name)) || mailHosts.has(name)) continue;
      let target: string | null = null;
      if (r.type === 'CNAME') {
        target = normaliseHostname(content);
        if (target === '' || nonProxiableTarget(target)) continue;
      } else if (ipFamily(content) === 0 || specialKind(content, special) !== null) {
        // Not an address, or not a public one as dns-private-address judges it: it publishes no origin (that rule reports it).
        continue;
      }
      if (ignore.matches(name)) continue;
      suspects.push({ record: r, content, target });
      if (target !== null) targets.add(target);
    }

    // A CNAME to a proxied name resolves to the proxy's addresses. The set holds the DNS-only CNAMEs'
    // targets (usually few), not every proxied name: hashing a million names would cost more than the rest of the rule.
    const proxiedTargets = new Set<string>();
    if (targets.size > 0) {
      for (const n of proxiedNames) {
        const h = normaliseHostname(n);
        if (targets.has(h)) proxiedTargets.add(h);
      }
    }

    // The records dns-origin-exposed reports (shared with it: one pass a zone) and the dangling CNAMEs dns-dangling-target reports are theirs.
    const exposing = suspects.length === 0 ? new Set<string>() : new Set(originExposures(records.items, ctx.zone.originAnsweredAs, special).map((e) => e.record.id));
    const judge = targetJudge(ctx);
    passUnlessFailed(ctx, (fail) => {
      for (const { record: r, content, target } of suspects) {
        if (target !== null && proxiedTargets.has(target)) continue;
        if (exposing.has(r.id) || (target !== null && judge(r).status === 'dangling')) continue;
        fail({ type: 'dns_record', id: r.id, name: r.name }, proxiesNothing ? 'notProxiedZone' : 'notProxied', { name: r.name, type: r.type, content });
      }
    });
  },
});
