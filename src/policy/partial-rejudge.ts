import type { Db } from '../snapshot/db.js';
import type { ExpectedReads } from '../snapshot/read-ahead.js';
import { ReplayMismatch, type ReplayedVerdicts } from './engine.js';
import type { Finding, Named } from './findings.js';
import type { Category, Severity } from './rule.js';
import { decodeTally, reversedName, type KeptZone, type ZoneTally } from './verdict-reuse.js';

/**
 * A zone whose change touched few of its lists is judged again only by the rules that read them.
 *
 * Most nights a zone changes in one place: its certificate was renewed, a DNS record edited. The
 * engine notes which of the zone's endpoints each rule read (ZoneView.readsOf), and the audit keeps
 * that with the zone (audit_zones.reads); the scan notes which endpoint of a zone changed
 * (zone_changes.endpoint). A changed zone is then judged again by the rules that read a changed
 * endpoint; every other rule's verdicts are taken over from the audit that judged the zone last,
 * findings and passes, and pass through the waivers, counts and storage as if the rule had given
 * them again. The zone's row (the zone endpoint) is seen by every rule: a change to it, or a
 * change of unknown endpoint (rows stored before schema 12), judges the whole zone again.
 *
 * What the taken-over verdicts held on (their horizon, the zones and names they looked up) is kept
 * with the new verdicts', so the zone is judged again no later than it would have been.
 */

/** A zone judged again in part: the audit that holds its verdicts, the rules whose verdicts are taken over, and what those held on. */
export interface PartialZone {
  source: number;
  replay: ReadonlySet<string>;
  /** Its tally as the source stored it (the taken-over rules' passes). */
  tally: ZoneTally;
  /** Its holds as the source stored it (e, h, z; see verdict-reuse.ts holdsOf). */
  holds: string | null;
  /** What the rules read when the source judged it: per endpoint, the rules' places in the order (see ZoneReads). */
  reads: Record<string, number[]>;
  /** The names its verdicts looked up (audit_names), read when first asked for: most zones never are. */
  names: () => readonly string[];
  /** Its row as a later audit keeps it, should it turn out unchanged (confirm-unchanged.ts). */
  asKept: KeptZone;
}

/** Endpoints whose change every rule sees: the zone's own row, and a change stored without its endpoint. */
const SEEN_BY_EVERY_RULE = new Set(['zone', '*']);

/** Per zone, the endpoints with a change recorded in scans after `fromRef` up to `toRef`. */
export function changedEndpoints(db: Db, fromRef: number, toRef: number): Map<string, Set<string>> {
  const changed = new Map<string, Set<string>>();
  const rows = db.prepare('SELECT zone_id, endpoint FROM zone_changes WHERE scan_ref > ? AND scan_ref <= ?').raw();
  for (const [zoneId, endpoint] of rows.iterate(fromRef, toRef) as Iterable<[string, string]>) {
    let set = changed.get(zoneId);
    if (!set) changed.set(zoneId, (set = new Set()));
    set.add(endpoint);
  }
  return changed;
}

/**
 * The reads of the zones judged, as stored (audit_zones.reads): per endpoint, the places (in the
 * audit's reusable rules' order) of the rules that read it. Kept encoded as each zone is done: a
 * set per rule and zone would hold half a million at 10,000 zones.
 */
export class ZoneReads {
  private readonly place: Map<string, number>;
  private zoneId: string | null = null;
  private current: Record<string, number[]> = {};
  private readonly stored = new Map<string, string>();

  constructor(order: readonly string[]) {
    this.place = new Map(order.map((rule, i) => [rule, i]));
  }

  /** A rule stood on a zone having read these endpoints of it (rules not in the order are not kept). */
  add(zoneId: string, rule: string, endpoints: ReadonlySet<string>): void {
    const i = this.place.get(rule);
    if (i === undefined) return;
    if (zoneId !== this.zoneId) this.done(zoneId);
    for (const e of endpoints) (this.current[e] ??= []).push(i);
  }

  private done(next: string | null): void {
    if (this.zoneId !== null) this.stored.set(this.zoneId, JSON.stringify(this.current));
    this.zoneId = next;
    this.current = {};
  }

  /** The zone's reads as stored ('{}': its rules read nothing of it). */
  of(zoneId: string): string {
    if (zoneId === this.zoneId) this.done(null);
    return this.stored.get(zoneId) ?? '{}';
  }

  /** Adds reads taken over with verdicts (a zone judged in part: its replayed rules'). */
  merge(zoneId: string, more: Readonly<Record<string, readonly number[]>>): void {
    const reads = JSON.parse(this.of(zoneId)) as Record<string, number[]>;
    for (const [endpoint, places] of Object.entries(more)) reads[endpoint] = [...new Set([...(reads[endpoint] ?? []), ...places])].sort((a, b) => a - b);
    this.stored.set(zoneId, JSON.stringify(reads));
  }
}

/**
 * The part of a changed zone that can be taken over, or null (judge it whole): the source row's
 * tally and reads, and the reusable rules that read none of the changed endpoints. One statement
 * for every zone asked about.
 */
export function partsOf(db: Db, order: readonly string[]): (zoneId: string, was: KeptZone, changed: ReadonlySet<string>) => PartialZone | null {
  const source = db.prepare('SELECT counts, reads, holds FROM audit_zones WHERE audit_id = ? AND zone_id = ?').raw();
  const named = db.prepare('SELECT rname FROM audit_names WHERE audit_id = ? AND zone_id = ?').pluck();
  return (zoneId, was, changed) => {
    const sourceId = was.source;
    for (const endpoint of changed) if (SEEN_BY_EVERY_RULE.has(endpoint)) return null;
    const row = source.get(sourceId, zoneId) as [string, string | null, string | null] | undefined;
    if (!row || row[1] === null || row[0] === '') return null;
    const reads = JSON.parse(row[1]) as Record<string, number[]>;
    const rerun = new Set<number>();
    for (const endpoint of changed) for (const i of reads[endpoint] ?? []) rerun.add(i);
    const replay = new Set(order.filter((_, i) => !rerun.has(i)));
    if (replay.size === 0) return null;
    let names: string[] | null = null;
    const namesOf = () => (names ??= (named.all(sourceId, zoneId) as string[]).map(reversedName));
    return { source: sourceId, replay, tally: decodeTally(row[0], order), holds: row[2], reads, names: namesOf, asKept: was };
  };
}

/**
 * What each zone judged is expected to read: for a zone judged in part, what its rules to run read
 * when it was judged last; null (anything) for a zone judged whole.
 */
export function expectedReads(partial: ReadonlyMap<string, PartialZone>, order: readonly string[]): ExpectedReads {
  const expected = new Map<string, Set<string>>();
  for (const [zoneId, p] of partial) {
    const reads = new Set<string>();
    for (const [endpoint, rules] of Object.entries(p.reads)) if (rules.some((i) => !p.replay.has(order[i]!))) reads.add(endpoint);
    expected.set(zoneId, reads);
  }
  return (zoneId) => expected.get(zoneId) ?? null;
}

type Row = [number, string, Category, Severity, Finding['status'], string | null, string | null, string | null, string | null, string, string, string | null, string, string | null, string, string];

const named = (id: string | null, name: string | null): Named | null => (id === null ? null : { id, name });

/** Rows read at once when a rule's verdicts are taken over: a rule may have given one per record of a zone of 400,000. */
const SLICE = 2_000;

const COLUMNS = 'pk, rule, category, severity, status, account_id, account_name, zone_id, zone_name, resource_type, resource_id, resource_name, message, message_id, data, fingerprint';

/** A stored row as the rule gave it: a waived failure is a failure again, for this audit's waivers to apply. */
function asGiven(row: Row): Finding {
  const [, rule, category, severity, status, accountId, accountName, zone, zoneName, type, id, name, message, messageId, data, fingerprint] = row;
  return {
    rule,
    category,
    severity,
    status: status === 'waived' ? 'fail' : status,
    account: named(accountId, accountName),
    zone: { id: zone!, name: zoneName },
    resource: { type, id, name },
    message,
    messageId,
    data: JSON.parse(data) as Record<string, unknown>,
    fingerprint,
  };
}

/** The source's rows of a zone by rule, when there are few enough to read in one query. */
interface ZoneRows {
  zoneId: string;
  byRule: Map<string, Row[]> | null;
}

/**
 * The verdicts of the taken-over rules, read from each zone's source rows (findings_by_zone). A
 * zone's rows are read in one query when they are at most a slice (most zones: a handful of rows
 * for each of 50 rules, where a query per rule cost more than the rows); a zone with more is read
 * a rule and a slice at a time as the engine takes them, so memory holds one slice however many
 * there are. If the rows turn out not to match the source's tally, or name the zone otherwise,
 * reading them throws and the engine runs the rule instead.
 */
export function replayer(db: Db, partial: ReadonlyMap<string, PartialZone>): (zoneId: string, rule: string) => ReplayedVerdicts | null {
  const slice = db.prepare(`SELECT ${COLUMNS} FROM findings WHERE audit_id = ? AND zone_id = ? AND rule = ? AND pk > ? ORDER BY pk LIMIT ${SLICE}`).raw();
  const whole = db.prepare(`SELECT ${COLUMNS} FROM findings WHERE audit_id = ? AND zone_id = ? AND rule IN (SELECT value FROM json_each(?)) ORDER BY rule, pk`).raw();
  let current: ZoneRows | null = null;

  const rowsOfZone = (p: PartialZone, zoneId: string): ZoneRows => {
    if (current?.zoneId === zoneId) return current;
    let stored = 0;
    for (const rule of p.replay) {
      const [, fail, unknown, waived] = p.tally.r[rule] ?? [0, 0, 0, 0];
      stored += fail + unknown + waived;
    }
    let byRule: Map<string, Row[]> | null = null;
    if (stored <= SLICE) {
      byRule = new Map();
      for (const row of whole.all(p.source, zoneId, JSON.stringify([...p.replay])) as Row[]) (byRule.get(row[1]) ?? byRule.set(row[1], []).get(row[1])!).push(row);
    }
    return (current = { zoneId, byRule });
  };

  function* sliced(source: number, zoneId: string, rule: string): Generator<Row> {
    let last = 0;
    for (;;) {
      const rows = slice.all(source, zoneId, rule, last) as Row[];
      for (const row of rows) {
        last = row[0];
        yield row;
      }
      if (rows.length < SLICE) return;
    }
  }

  function* given(p: PartialZone, zoneId: string, rule: string, expected: number): Generator<Finding> {
    const { byRule } = rowsOfZone(p, zoneId);
    let n = 0;
    for (const row of byRule ? (byRule.get(rule) ?? []) : sliced(p.source, zoneId, rule)) {
      if (row[7] !== zoneId || row[1] !== rule || ++n > expected) throw new ReplayMismatch(`audit ${p.source}'s rows of ${rule} on ${zoneId} are not those it counted`);
      yield asGiven(row);
    }
    if (n !== expected) throw new ReplayMismatch(`audit ${p.source} holds ${n} row(s) of ${rule} on ${zoneId}, its tally ${expected}`);
  }

  return (zoneId, rule) => {
    const p = partial.get(zoneId);
    if (!p?.replay.has(rule)) return null;
    const [pass, fail, unknown, waived] = p.tally.r[rule] ?? [0, 0, 0, 0];
    const expected = fail + unknown + waived;
    if (pass + expected === 0) return null;
    return { findings: expected === 0 ? [] : given(p, zoneId, rule, expected), passes: pass };
  };
}

/**
 * A partial zone's new tally made whole: what the taken-over verdicts held on is kept with what the
 * rules run gave (the earlier horizon, every zone and name either looked up). Returns what the
 * taken-over rules read then, to keep with the zone's reads. A rule that could not be taken over
 * and ran keeps its old reads as well as its new: more than it reads, never less.
 */
export function carryOver(t: ZoneTally, p: PartialZone, order: readonly string[]): Record<string, number[]> {
  const old = p.holds === null ? {} : (JSON.parse(p.holds) as Pick<ZoneTally, 'h' | 'z'>);
  if (old.h !== undefined) t.h = t.h === undefined ? old.h : Math.min(t.h, old.h);
  if (old.z?.length) t.z = [...new Set([...(t.z ?? []), ...old.z])].sort();
  const names = p.names();
  if (names.length) t.n = [...new Set([...(t.n ?? []), ...names])].sort();
  const carried: Record<string, number[]> = {};
  for (const [endpoint, places] of Object.entries(p.reads)) {
    const taken = places.filter((i) => p.replay.has(order[i]!));
    if (taken.length) carried[endpoint] = taken;
  }
  return carried;
}
