import type { Named } from '../policy/findings.js';
import type { Db } from '../snapshot/db.js';
import { scanRef } from '../snapshot/scan-ref.js';
import { TABLES, type Partition, type PartitionKind } from '../snapshot/tables.js';
import { named, partitionKey, type ScanCoverage, type ZoneInfo } from './coverage-pair.js';
import { comparableVersion } from './derived.js';
import { fieldDiff } from './fields.js';
import type { IgnoreList } from './ignore.js';
import { CERTIFICATE_KIND, kindOfPartition, RESOURCE_KINDS, RESOURCE_TYPES, type ResourceKind } from './resources.js';
import type { ConfigurationDrift, ResourceChange, UnreadPartition } from './result.js';
import type { ScanFilter } from '../snapshot/scan-filter.js';

/**
 * Configuration drift between two scans. Versions are stored over ranges of scans, so what differs
 * is exactly the versions valid in one scan and not the other: one pass over each table finds them.
 * Only partitions both scans could use are compared; the rest are unknown, never removed or added.
 * `view`: only the zones (and, with --account, the accounts) of diff --zone/--account; no user invites then.
 */
export function configurationDrift(db: Db, from: ScanCoverage, to: ScanCoverage, ignore: IgnoreList, zones: ReadonlyMap<string, ZoneInfo>, view: ScanFilter | null = null): ConfigurationDrift {
  const drift = new Collector(ignore);
  const comparable = new Set<string>();

  const judge = (kind: PartitionKind, scopeId: string, resource: ResourceKind, zone: Named | null): void => {
    const [rf, rt] = [from.get(scopeId, resource.partition), to.get(scopeId, resource.partition)];
    if (!rf && !rt) return;
    if (from.usable(rf) && to.usable(rt)) {
      comparable.add(partitionKey(kind, scopeId, resource.partition));
      return;
    }
    // A permission the credentials lack in both scans (invites, say), or an endpoint the API
    // retired before both, is not drift.
    if (rf && rf.state === rt?.state && (rf.state === 'denied' || rf.state === 'retired')) return;
    const [bad, good] = to.usable(rt) ? [from, to] : [to, from];
    const what = `${resource.label} list${zone ? ` of ${zone.name ?? zone.id}` : ''}`;
    const resources = good.usable(good.get(scopeId, resource.partition)) ? itemsAt(db, resource, scopeId, good.scanId) : [];
    drift.unknown({ change: 'unknown', type: resource.type, zone, scan: bad.scanId, ...bad.why(bad.get(scopeId, resource.partition), what), resources });
  };

  const userKinds = RESOURCE_KINDS.filter((k) => k.scope === 'user' && (view === null || (k.type === 'account' && view.accountIds.size > 0)));
  for (const kind of userKinds) judge('user', '', kind, null);

  const outside: Named[] = [];
  for (const id of new Set([...from.zoneIds(), ...to.zoneIds(), ...zones.keys()])) {
    if (view !== null && !view.zoneIds.has(id)) continue;
    const info: ZoneInfo = zones.get(id) ?? { id, name: id, accountId: null };
    const zone = named(zones.get(id), id);
    const [pf, pt] = [from.presence(info), to.presence(info)];
    if (pf === 'present' && pt === 'present') {
      for (const kind of RESOURCE_KINDS.filter((k) => k.scope === 'zone')) judge('zone', id, kind, zone);
    } else if (pf === 'outside' || pt === 'outside') {
      if (pf === 'present' || pt === 'present') outside.push(zone);
    } else if (pf === 'absent' && pt === 'present') {
      drift.change({ change: 'added', type: 'zone', id, name: info.name, zone, contents: byType(to.contents(id)) });
    } else if (pf === 'present' && pt === 'absent') {
      drift.change({ change: 'removed', type: 'zone', id, name: info.name, zone, contents: byType(from.contents(id)) });
    } else if ((pf === 'present' && pt === 'unread') || (pf === 'unread' && pt === 'present')) {
      const bad = pt === 'unread' ? to : from;
      const listing = info.accountId === null ? undefined : bad.get(info.accountId, 'zones');
      drift.unknown({ change: 'unknown', type: 'zone', zone, scan: bad.scanId, ...bad.why(listing, `zone list of account ${info.accountId ?? '(unknown)'}`), resources: [zone] });
    }
  }

  for (const pair of changedVersions(db, from.scanId, to.scanId, comparable)) {
    if (view !== null && pair.kind.scope === 'user' && !view.accountIds.has(pair.id)) continue;
    const zone = pair.kind.scope === 'zone' ? named(zones.get(pair.scopeId), pair.scopeId) : null;
    drift.pair(pair.kind, pair.id, zone, pair.before, pair.after);
  }
  return drift.result(outside.sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id)));
}

interface VersionPair {
  kind: ResourceKind;
  scopeId: string;
  id: string;
  before?: unknown;
  after?: unknown;
}

/**
 * Versions valid in exactly one of the two scans, in comparable partitions, paired by resource. A
 * partition an incremental scan carried forward is compared in the scan that read it (coverage
 * data_scan), so it shows what changed and not a removal of everything.
 */
function changedVersions(db: Db, from: number, to: number, comparable: ReadonlySet<string>): Iterable<VersionPair> {
  const [f, t] = [scanRef(from), scanRef(to)];
  const carried = carriedPartitions(db, f, t);
  const pairs = new Map<string, VersionPair>();
  for (const table of new Set(RESOURCE_KINDS.map((k) => k.table))) {
    const kinds = RESOURCE_KINDS.filter((k) => k.table === table);
    const spec = TABLES[kinds[0]!.partition]!;
    const endpoint = (alias: string) => (spec.endpointColumn ? `${alias}${spec.endpointColumn}` : `'${kinds[0]!.partition}'`);
    const sql = carried
      ? `SELECT scope, item_id, endpoint, in_from, raw FROM (
           SELECT t.${spec.scopeColumn} AS scope, t.item_id, ${endpoint('t.')} AS endpoint, t.raw,
             t.first_scan <= coalesce(c.ref_from, ?) AND t.last_scan >= coalesce(c.ref_from, ?) AS in_from,
             t.first_scan <= coalesce(c.ref_to, ?) AND t.last_scan >= coalesce(c.ref_to, ?) AS in_to
           FROM ${table} t LEFT JOIN temp.drift_carried c ON c.scope_id = t.${spec.scopeColumn} AND c.endpoint = ${endpoint('t.')}
         ) WHERE in_from != in_to`
      : `SELECT ${spec.scopeColumn} AS scope, item_id, ${endpoint('')} AS endpoint, first_scan <= ? AND last_scan >= ? AS in_from, raw FROM ${table}
         WHERE (first_scan <= ? AND last_scan >= ?) != (first_scan <= ? AND last_scan >= ?)`;
    const params = carried ? [f, f, t, t] : [f, f, f, f, t, t];
    const rows = db.prepare(sql).iterate(...params) as Iterable<{ scope: string; item_id: string; endpoint: Partition; in_from: number; raw: string }>;
    for (const r of rows) {
      const kind = kinds.find((k) => k.partition === r.endpoint);
      if (!kind || !comparable.has(partitionKey(kind.scope, r.scope, r.endpoint))) continue;
      const key = `${r.endpoint}|${r.scope}|${r.item_id}`;
      let pair = pairs.get(key);
      if (!pair) pairs.set(key, (pair = { kind, scopeId: r.scope, id: r.item_id }));
      if (r.in_from) pair.before = parse(r.raw);
      else pair.after = parse(r.raw);
    }
  }
  return pairs.values();
}

/**
 * Fills temp.drift_carried with the zone partitions either scan carried forward, and where each
 * scan's data lies; false when neither carried any (full scans), so the plain comparison runs.
 */
function carriedPartitions(db: Db, f: number, t: number): boolean {
  const rows = db
    .prepare(
      `SELECT scope_id, endpoint, max(CASE WHEN first_scan <= ? AND last_scan >= ? THEN data_scan END) AS ref_from,
         max(CASE WHEN first_scan <= ? AND last_scan >= ? THEN data_scan END) AS ref_to
       FROM coverage WHERE kind = 'zone' AND data_scan IS NOT NULL AND ((first_scan <= ? AND last_scan >= ?) OR (first_scan <= ? AND last_scan >= ?))
       GROUP BY scope_id, endpoint`,
    )
    .all(f, f, t, t, f, f, t, t) as Array<{ scope_id: string; endpoint: string; ref_from: number | null; ref_to: number | null }>;
  if (rows.length === 0) return false;
  db.exec('CREATE TEMP TABLE IF NOT EXISTS drift_carried (scope_id TEXT NOT NULL, endpoint TEXT NOT NULL, ref_from INTEGER, ref_to INTEGER, PRIMARY KEY (scope_id, endpoint)) WITHOUT ROWID');
  db.exec('DELETE FROM temp.drift_carried');
  const insert = db.prepare('INSERT INTO temp.drift_carried (scope_id, endpoint, ref_from, ref_to) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const r of rows) insert.run(r.scope_id, r.endpoint, r.ref_from, r.ref_to);
  })();
  return true;
}

function parse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

const asObject = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The resources a scan read in one partition, by name: what an unreadable partition leaves unknown. */
function itemsAt(db: Db, kind: ResourceKind, scopeId: string, scanId: number): Named[] {
  const spec = TABLES[kind.partition]!;
  // Where the scan's data of the partition lies: the scan itself, or the scan it carried the partition from.
  const scan = scanRef(scanId);
  const ref = (db
    .prepare('SELECT data_scan FROM coverage WHERE kind = ? AND scope_id = ? AND endpoint = ? AND first_scan <= ? AND last_scan >= ?')
    .pluck()
    .get(kind.scope, scopeId, kind.partition, scan, scan) as number | null | undefined) ?? scan;
  const where = spec.endpointColumn ? ` AND ${spec.endpointColumn} = ?` : '';
  const rows = db
    .prepare(`SELECT item_id, raw FROM ${kind.table} WHERE ${spec.scopeColumn} = ? AND first_scan <= ? AND last_scan >= ?${where}`)
    .all(scopeId, ref, ref, ...(spec.endpointColumn ? [kind.partition] : [])) as Array<{ item_id: string; raw: string }>;
  return rows.map((r) => ({ id: r.item_id, name: kind.name(asObject(parse(r.raw))) })).sort(byName);
}

const byName = (a: Named, b: Named): number => (a.name ?? '').localeCompare(b.name ?? '') || a.id.localeCompare(b.id);

const byType = (contents: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(contents).map(([endpoint, n]) => [kindOfPartition(endpoint as Partition)?.type ?? endpoint, n]));

/** Accumulates changes and counts, splitting certificates out of their packs. */
class Collector {
  private readonly changes: ResourceChange[] = [];
  private readonly unread: UnreadPartition[] = [];
  private ignored = 0;
  private readonly counts: ConfigurationDrift['counts'] = {};

  constructor(private readonly ignore: IgnoreList) {}

  private count(type: string, what: 'added' | 'removed' | 'changed' | 'unknown'): void {
    (this.counts[type] ??= { added: 0, removed: 0, changed: 0, unknown: 0 })[what]++;
  }

  change(c: ResourceChange): void {
    this.changes.push(c);
    this.count(c.type, c.change);
  }

  unknown(u: UnreadPartition): void {
    this.unread.push(u);
    this.count(u.type, 'unknown');
  }

  pair(kind: ResourceKind, id: string, zone: Named | null, before: unknown, after: unknown): void {
    if (kind.type !== 'certificate_pack') return this.resource(kind, id, zone, before, after);
    const [b, a] = [certificates(before), certificates(after)];
    this.resource(kind, id, zone, b?.pack, a?.pack);
    for (const certId of new Set([...(b?.certs.keys() ?? []), ...(a?.certs.keys() ?? [])])) {
      this.resource(CERTIFICATE_KIND, certId, zone, b?.certs.get(certId), a?.certs.get(certId), { type: kind.type, id });
    }
  }

  private resource(kind: ResourceKind, id: string, zone: Named | null, before: unknown, after: unknown, parent?: ResourceChange['parent']): void {
    if (before === undefined && after === undefined) return;
    const name = kind.name(asObject(after ?? before));
    const base = { type: kind.type, id, name, zone, ...(parent ? { parent } : {}) };
    if (before === undefined) return this.change({ change: 'added', ...base });
    if (after === undefined) return this.change({ change: 'removed', ...base });
    const diff = fieldDiff(kind.type, comparableVersion(kind.type, before), comparableVersion(kind.type, after), this.ignore);
    if (diff.changes.length === 0) {
      if (diff.ignored > 0) this.ignored++;
      return;
    }
    this.change({ change: 'changed', ...base, fields: diff.changes });
  }

  result(zonesOutsideScope: Named[]): ConfigurationDrift {
    const order = (type: string) => RESOURCE_TYPES.indexOf(type);
    const where = (z: Named | null) => (z ? (z.name ?? z.id) : '');
    const byPlace = (x: { zone: Named | null; type: string }, y: { zone: Named | null; type: string }) =>
      where(x.zone).localeCompare(where(y.zone)) || order(x.type) - order(y.type);
    this.changes.sort((x, y) => byPlace(x, y) || (x.name ?? '').localeCompare(y.name ?? '') || x.id.localeCompare(y.id));
    this.unread.sort(byPlace);
    const ignore = [...this.ignore.patterns];
    return { counts: this.counts, changes: this.changes, unknown: this.unread, ignoredChanges: this.ignored, ignore, zonesOutsideScope };
  }
}

/** A certificate pack without its certificates, and its certificates by id. */
function certificates(raw: unknown): { pack: Record<string, unknown>; certs: Map<string, unknown> } | undefined {
  if (raw === undefined) return undefined;
  const { certificates: list, ...pack } = asObject(raw);
  const certs = new Map<string, unknown>();
  if (Array.isArray(list)) list.forEach((c, i) => certs.set(typeof asObject(c)['id'] === 'string' ? (asObject(c)['id'] as string) : `#${i}`, c));
  return { pack, certs };
}
