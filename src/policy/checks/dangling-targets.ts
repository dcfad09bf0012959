import { canonicalName, recordTarget, type TargetType } from '../../common/dns-targets.js';
import type { DnsTargetItem } from '../../common/dns-target-answer.js';
import type { RuleOptions, ZoneContext } from '../rule.js';
import type { DnsRecordFields, ZoneRow } from '../../snapshot/reader.js';

/**
 * Whether a CNAME, MX, NS or SRV target exists: dns-dangling-target reports it, and the DNS rules
 * that leave dangling records to it ask. Judged from the scan's zones, else from its resolution.
 */

/** The verdict on one record's target; `inside` names the scan's zone that holds it. */
export type TargetVerdict =
  | { status: 'none' }
  | { status: 'exists'; type: TargetType; target: string }
  | { status: 'dangling'; type: TargetType; target: string; inside: string | null }
  | { status: 'unknown'; type: TargetType; target: string; reason: string };

/** The names that exist in a zone by its records: each record's name and every name above it up to the apex (RFC 8020: empty non-terminals exist). */
function existingNames(zone: string, records: readonly DnsRecordFields[]): Set<string> {
  const names = new Set<string>([zone]);
  // isAtOrUnder(n, zone), with the zone's canonical name and suffix made once rather than for every name of every record.
  const apex = canonicalName(zone);
  const under = `.${apex}`;
  for (const r of records) {
    if (r.name === null) continue;
    let n = canonicalName(r.name);
    while ((n === apex || n.endsWith(under)) && !names.has(n)) {
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

/** A judge of targets: by the deepest non-partial zone of the scan holding the name, else by dns_targets. */
export function targetJudge<O extends RuleOptions>(ctx: ZoneContext<O>): (r: DnsRecordFields) => TargetVerdict {
  const zone = ctx.zone;
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

  return (r) => {
    const target = recordTarget(r.type, r.content);
    if (target === null) return { status: 'none' };
    const type = r.type as TargetType;
    const inside = owner(target);
    if (inside) {
      const names = namesOf(inside);
      if (!(names instanceof Set)) return { status: 'unknown', type, target, reason: `${target} is in ${inside.name}, whose DNS records were not read: ${names.reason}` };
      return existsIn(names, canonicalName(inside.name), target) ? { status: 'exists', type, target } : { status: 'dangling', type, target, inside: inside.name };
    }
    const answer = answerFor(target);
    if (!('answer' in answer)) return { status: 'unknown', type, target, reason: answer.reason };
    if (answer.answer === 'exists') return { status: 'exists', type, target };
    if (answer.answer === 'nxdomain') return { status: 'dangling', type, target, inside: null };
    return { status: 'unknown', type, target, reason: `${target} could not be resolved: ${answer.reason ?? 'no answer'}` };
  };
}
