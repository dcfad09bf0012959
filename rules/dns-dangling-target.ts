import { canonicalName, isAtOrUnder, recordTarget, type TargetType } from '../src/common/dns-targets.js';
import type { DnsTargetItem } from '../src/common/dns-target-answer.js';
import { defineRule, type Severity } from '../src/policy/rule.js';
import type { DnsRecordFields, ZoneRow } from '../src/snapshot/reader.js';

/**
 * A takeover of the web traffic or of a delegated subdomain (the attacker serves the name, can get
 * certificates for it, reads cookies scoped to the parent) is high; mail or a service's traffic
 * (MX, SRV) is medium: the attacker receives what is sent there, but owns no name of the zone.
 */
const SEVERITY: Record<TargetType, Severity> = { CNAME: 'high', NS: 'high', MX: 'medium', SRV: 'medium' };

/** The names that exist in a zone by its records: each record's name and every name above it up to the apex (RFC 8020: empty non-terminals exist). */
function existingNames(zone: string, records: readonly DnsRecordFields[]): Set<string> {
  const names = new Set<string>([zone]);
  for (const r of records) {
    if (r.name === null) continue;
    let n = canonicalName(r.name);
    while (isAtOrUnder(n, zone) && !names.has(n)) {
      names.add(n);
      n = n.slice(n.indexOf('.') + 1);
    }
  }
  return names;
}

/** Whether the name exists in a zone of these names: itself, or a wildcard at its closest encloser (RFC 4592 3.3.1). */
function existsIn(names: ReadonlySet<string>, zone: string, name: string): boolean {
  if (names.has(name)) return true;
  let encloser = name;
  while (encloser !== zone && !names.has(encloser)) encloser = encloser.slice(encloser.indexOf('.') + 1);
  return names.has(`*.${encloser}`);
}

/** The scan's zones by canonical name, built once per audit (every zone's check looks names up). */
const zoneIndex = new WeakMap<object, Map<string, ZoneRow>>();
function zonesByName(snapshot: { zones(): readonly ZoneRow[] }): Map<string, ZoneRow> {
  let index = zoneIndex.get(snapshot);
  if (!index) {
    index = new Map(snapshot.zones().map((z) => [canonicalName(z.name), z]));
    zoneIndex.set(snapshot, index);
  }
  return index;
}

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
    const zone = ctx.zone;
    const records = zone.dnsRecords();
    if (!records.known) return ctx.unknown(zone.resource, records.reason);
    const byName = zonesByName(ctx.snapshot);
    // The scan's zone holding a name (the longest match: the name itself, then each name above it);
    // a partial zone's records are not what the public sees.
    const owner = (name: string): ZoneRow | null => {
      for (let n = name; ; ) {
        const z = byName.get(n);
        if (z) return z.type === 'partial' ? null : z;
        const dot = n.indexOf('.');
        if (dot < 0) return null;
        n = n.slice(dot + 1);
      }
    };
    const namesByZone = new Map<string, { reason: string } | Set<string>>();
    const namesOf = (z: ZoneRow): { reason: string } | Set<string> => {
      let names = namesByZone.get(z.id);
      if (!names) {
        const r = zone.dnsRecordsOf(z.id);
        names = r.known ? existingNames(canonicalName(z.name), r.items) : { reason: r.reason };
        namesByZone.set(z.id, names);
      }
      return names;
    };
    let resolved: Map<string, DnsTargetItem> | { reason: string } | null = null;
    const answerFor = (name: string): DnsTargetItem | { reason: string } => {
      if (!resolved) {
        const r = zone.dnsTargets();
        resolved = r.known ? new Map(r.items.map((t) => [t.name, t])) : { reason: r.reason };
      }
      if (!(resolved instanceof Map)) return { reason: `${name} was not resolved: ${resolved.reason}` };
      return resolved.get(name) ?? { reason: `the scan did not resolve ${name}` };
    };

    let judged = false;
    for (const r of records.items) {
      const target = recordTarget(r.type, r.content);
      if (target === null) continue;
      judged = true;
      const type = r.type as TargetType;
      const resource = { type: 'dns_record', id: r.id, name: r.name };
      const severity = SEVERITY[type];
      const takes = type === 'MX' ? `receives mail sent to ${r.name}` : type === 'SRV' ? `receives the service's traffic for ${r.name}` : type === 'NS' ? `answers for ${r.name} and everything under it` : `serves ${r.name}`;
      const data = { type, name: r.name ?? '', target, takes };
      const inside = owner(target);
      // Reuse keeps this verdict only while the zone holding the target and its data stay the same.
      ctx.dependsOnZones(inside ? [inside.id] : [], [target]);
      if (inside) {
        const names = namesOf(inside);
        if (!(names instanceof Set)) ctx.unknown(resource, `${target} is in ${inside.name}, whose DNS records were not read: ${names.reason}`);
        else if (existsIn(names, canonicalName(inside.name), target)) ctx.pass(resource);
        else ctx.fail(resource, 'danglingInside', { ...data, zone: inside.name }, severity);
        continue;
      }
      const answer = answerFor(target);
      if (!('answer' in answer)) ctx.unknown(resource, answer.reason);
      else if (answer.answer === 'exists') ctx.pass(resource);
      else if (answer.answer === 'nxdomain') ctx.fail(resource, 'dangling', data, severity);
      else ctx.unknown(resource, `${target} could not be resolved: ${answer.reason ?? 'no answer'}`);
    }
    if (!judged) ctx.pass();
  },
});
