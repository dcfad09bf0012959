import type { TargetType } from '../src/common/dns-targets.js';
import { targetJudge } from '../src/policy/checks/dangling-targets.js';
import { defineRule, type Severity } from '../src/policy/rule.js';

/**
 * A takeover of the web traffic or of a delegated subdomain (the attacker serves the name, can get
 * certificates for it, reads cookies scoped to the parent) is high; mail or a service's traffic
 * (MX, SRV) is medium: the attacker receives what is sent there, but owns no name of the zone.
 */
const SEVERITY: Record<TargetType, Severity> = { CNAME: 'high', NS: 'high', MX: 'medium', SRV: 'medium' };

export default defineRule({
  meta: {
    id: 'dns-dangling-target',
    title: 'CNAME, MX, NS and SRV records point at names that exist',
    description:
      "A CNAME, MX, NS or SRV record whose target does not exist (NXDOMAIN) dangles: whoever registers the target's domain, or claims the name on the platform it belonged to (a deleted cloud app, storage bucket or SaaS tenant), serves the zone's traffic under its name, receives its mail, or answers for its delegated subdomain. Targets inside the organisation's scanned zones are judged from the scan's own DNS records; others are resolved by the scan (through the system resolver or --resolver) and stored with it, so the audit stays offline. A dangling CNAME or NS record is high: the name itself is taken, with its cookies and certificates; an MX or SRV record is medium: mail or a service's traffic is taken. A SERVFAIL or a timeout is not an answer, and is reported as not judged; so is every target of a scan whose resolver denied names known to exist (the name servers the API assigned to the zones), since its NXDOMAIN cannot be believed. Proxied CNAMEs are judged too: the proxy still fetches from the target, so whoever claims it serves the proxied name.",
    severity: 'high',
    category: 'dns',
    scope: 'zone',
    resource: 'dns_record',
    reads: ['dns_targets'],
    messages: {
      dangling: '{{type}} record {{name}} points at {{target}}, which does not exist (NXDOMAIN): whoever registers or claims {{target}} {{takes}}',
      danglingInside: '{{type}} record {{name}} points at {{target}}, which has no record in {{zone}} (a zone of this scan): whoever adds {{target}} there, or takes over that zone, {{takes}}',
    },
    remediation:
      'Delete the record (`DELETE /zones/{zone_id}/dns_records/{dns_record_id}`) or point it at a name you control (`PATCH /zones/{zone_id}/dns_records/{dns_record_id}`), before the target is claimed; when the target is a platform resource you deleted, delete the record first and the resource after, next time. For a target inside your zones, add the record it needs.',
    references: [
      'OWASP Web Security Testing Guide, WSTG-CONF-10: Test for Subdomain Takeover (CNAME, NS and MX records to NXDOMAIN names)',
      'Microsoft Learn: Prevent dangling DNS entries and avoid subdomain takeover',
      'RFC 1034 4.3.2 and RFC 2308 2.1 (NXDOMAIN: the name does not exist), RFC 2308 2.2 (NODATA: it exists), RFC 8020 (nothing exists under an NXDOMAIN name)',
      'RFC 7505 (null MX: a domain that accepts no mail); RFC 2782 (SRV target "." : no service); RFC 4592 (wildcards)',
      'vendor API reference: DNS records, update and delete',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);
    const judge = targetJudge(ctx);
    let judged = false;
    for (const r of records.items) {
      const verdict = judge(r);
      if (verdict.status === 'none') continue;
      judged = true;
      const { type, target } = verdict;
      const resource = { type: 'dns_record', id: r.id, name: r.name };
      const takes = type === 'MX' ? `receives mail sent to ${r.name}` : type === 'SRV' ? `receives the service's traffic for ${r.name}` : type === 'NS' ? `answers for ${r.name} and everything under it` : `serves ${r.name}`;
      const data = { type, name: r.name ?? '', target, takes };
      if (verdict.status === 'exists') ctx.pass(resource);
      else if (verdict.status === 'unknown') ctx.unknown(resource, verdict.reason);
      else if (verdict.inside !== null) ctx.fail(resource, 'danglingInside', { ...data, zone: verdict.inside }, SEVERITY[type]);
      else ctx.fail(resource, 'dangling', data, SEVERITY[type]);
    }
    if (!judged) ctx.pass();
  },
});
