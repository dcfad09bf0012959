import { createHash } from 'node:crypto';
import { PACKAGE } from '../common/package-info.js';
import type { ZoneReads } from '../api/endpoints.js';
import type { Db } from '../snapshot/db.js';
import { askedFor, declaredReadsOf } from '../snapshot/declared-reads.js';
import { SnapshotReader, type ZoneRow } from '../snapshot/reader.js';
import { scanRef } from '../snapshot/scan-ref.js';
import { scopeKey } from '../snapshot/scope.js';
import type { FindingCounter } from './audit.js';
import type { Evaluation } from './engine.js';
import type { Status } from './findings.js';
import { ruleSourceOf } from './rule-source.js';
import { overridesOf } from './zone-overrides.js';
import type { ActiveRule } from './registry.js';
import type { Severity } from './rule.js';
import type { Waiver, WaiverSet } from './waivers.js';
import { KEPT_COUNTS } from './store.js';
import { changedEndpoints, partsOf, type PartialZone } from './partial-rejudge.js';

/**
 * Verdict reuse: an audit judges again only what may have changed. A zone whose data did not
 * change since an earlier audit of the same scope (no zone_changes row in between, its account's
 * row the same), under the same rules, rule code, settings and waivers, keeps that audit's
 * verdicts of the zone rules that do not depend on the time. Rules that do (meta.dependsOnTime)
 * and organisation rules run every time, on everything.
 */

/** Referenced audits at most: each is one more run of rows every reader merges. */
export const MAX_SOURCES = 5;

/** Counts of one verdict status, in this order in a tally. */
const TALLY_STATUSES = ['pass', 'fail', 'unknown', 'waived'] as const satisfies readonly Status[];

/** A zone's reusable verdicts as counts, kept with each audit (audit_zones.counts). */
export interface ZoneTally {
  /** By rule: pass, fail, unknown, waived. */
  r: Record<string, [number, number, number, number]>;
  /** Failures by severity. */
  s: Partial<Record<Severity, number>>;
  /** Failures each waiver matched, by its index in the waiver list. */
  w: Record<string, number>;
  /** A rule could not run on the zone: its verdicts are not reused. */
  e?: 1;
  /** Until when (ms since the epoch) the verdicts of the rules that declare a horizon hold; absent: at any time. */
  h?: number;
  /** Other zones whose data the verdicts depend on (ZoneContext.dependsOnZones). */
  z?: string[];
  /** Names whose holding zone in the scan the verdicts depend on. */
  n?: string[];
}

export const emptyTally = (): ZoneTally => ({ r: {}, s: {}, w: {} });

/**
 * A tally as stored: the counts by rule as a list in the order of the audit's reusable rules
 * (the reuse key fixes them, so a later audit with the same key reads them in the same order),
 * one pass written 1 and nothing 0. At 10,000 zones and 55 rules the text is a tenth of the
 * rule-keyed form, and every night reads and writes one per zone.
 */
export function encodeTally(t: ZoneTally, order: readonly string[]): string {
  // What the verdicts hold on (e, h, z, n) is kept beside the counts: see judgedRow.
  const { r, s, w } = t;
  const rest = { s, w };
  const q = order.map((rule) => {
    const c = r[rule];
    if (!c || (c[0] === 0 && c[1] === 0 && c[2] === 0 && c[3] === 0)) return 0;
    return c[0] === 1 && c[1] === 0 && c[2] === 0 && c[3] === 0 ? 1 : c;
  });
  return JSON.stringify({ q, ...rest });
}

export function decodeTally(text: string, order: readonly string[]): ZoneTally {
  const { q, ...rest } = JSON.parse(text) as Omit<ZoneTally, 'r'> & { q: Array<0 | 1 | [number, number, number, number]> };
  const r: ZoneTally['r'] = {};
  order.forEach((rule, i) => {
    const c = q[i];
    if (c === 1) r[rule] = [1, 0, 0, 0];
    else if (Array.isArray(c)) r[rule] = c;
  });
  return { r, ...rest };
}

export function tallyVerdicts(t: ZoneTally, rule: string, status: Status, severity: Severity, n: number): void {
  const row = (t.r[rule] ??= [0, 0, 0, 0]);
  row[TALLY_STATUSES.indexOf(status as (typeof TALLY_STATUSES)[number])]! += n;
  if (status === 'fail') t.s[severity] = (t.s[severity] ?? 0) + n;
}

/**
 * The rules whose verdicts on an unchanged zone are kept: zone rules that do not read the time, and
 * those that do and say until when their verdicts hold (kept until then).
 */
export function reusableRules(rules: readonly ActiveRule[]): Set<string> {
  const reusable = (meta: ActiveRule['rule']['meta']) => meta.scope === 'zone' && (meta.dependsOnTime !== true || meta.declaresHorizon === true);
  return new Set(rules.filter((r) => reusable(r.rule.meta)).map((r) => r.rule.meta.id));
}

/**
 * What can undo verdicts kept on an unchanged zone besides its own data: the time, other zones'
 * data, and zones that came or changed and may now hold a name the verdicts looked up.
 */
interface Elsewhere {
  now: number;
  /** Zones with a change recorded since the base audit's scan. */
  changed: ReadonlySet<string>;
  present: ReadonlySet<string>;
}

/** A name as the verdicts' dependencies are kept and compared: lower case, no trailing dot. */
export const dependencyName = (name: string): string => name.toLowerCase().replace(/\.$/, '');

/** Holds as holdsOf writes them when they name a horizon and nothing else. */
const HORIZON_ONLY = /^\{"h":(\d+)\}$/;

/** Whether a kept zone's verdicts still hold: no rule error, horizon not reached, no zone they read changed (names: touchedByNames). */
function stillHolds(holds: string | null, at: Elsewhere): boolean {
  if (holds === null) return true;
  // Most zones hold until a time only (a certificate's): read without a parse, 10,000 a night.
  const until = HORIZON_ONLY.exec(holds);
  if (until) return at.now < Number(until[1]);
  const t = JSON.parse(holds) as Pick<ZoneTally, 'e' | 'h' | 'z'>;
  if (t.e === 1) return false;
  if (t.h !== undefined && at.now >= t.h) return false;
  if (t.z?.some((id) => at.changed.has(id) || !at.present.has(id))) return false;
  return true;
}

/**
 * What verdicts depend on besides the data: the tool's version (the helpers rules call), every
 * rule's definition (its meta, defaults and code) and settings, the waivers, the scan's scope.
 */
export function reuseKey(scope: SnapshotReader['scan']['scope'], rules: readonly ActiveRule[], waivers: readonly Waiver[]): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ tool: PACKAGE.version, scope: scopeKey(scope) }));
  for (const r of rules) hash.update(ruleIdentity(r));
  hash.update(JSON.stringify(waivers.map((w) => ({ ...w, expiresAt: w.expiresAt.toISOString() }))));
  return hash.digest('hex');
}

/**
 * A rule's definition (meta, defaults, code) and settings, as text: what its verdicts depend on. A
 * custom rule's code is also every file of its rules directory (rule-source.ts): what `check` calls.
 */
export function ruleIdentity(r: ActiveRule): string {
  const { rule } = r;
  const source = ruleSourceOf(rule);
  return JSON.stringify({
    meta: rule.meta,
    defaults: rule.defaultOptions,
    code: String(rule.check),
    ...(source === undefined ? {} : { source }),
    enabled: r.enabled,
    severity: r.severity,
    options: r.options,
    ...overridesOf(r),
  });
}

/** A zone's row with an audit (audit_zones), as a later audit that keeps its verdicts copies it. */
export interface KeptZone {
  /** The audit whose findings rows and counts hold the zone's verdicts: the one that judged it. */
  source: number;
  /** The tallied verdicts' failures and passes (the zone's pass rate). */
  fails: number;
  passes: number;
  /** When the verdicts stop holding (see holdsOf). */
  holds: string | null;
}

/** What an audit writes per zone it judged: its tally as stored, the columns beside it, and the names its verdicts looked up (audit_names). */
export function judgedRow(t: ZoneTally, order: readonly string[]): { counts: string; fails: number; passes: number; holds: string | null; names: readonly string[] } {
  let fails = 0;
  let passes = 0;
  for (const c of Object.values(t.r)) {
    passes += c[0];
    fails += c[1];
  }
  return { counts: encodeTally(t, order), fails, passes, holds: holdsOf(t), names: t.n ?? [] };
}

/** The parts of a tally that say until when, and on which zones, its verdicts hold: null when at any time, on the zone's own data alone. */
function holdsOf(t: ZoneTally): string | null {
  const { e, h, z } = t;
  if (e === undefined && h === undefined && z === undefined) return null;
  return JSON.stringify({ ...(e ? { e } : {}), ...(h !== undefined ? { h } : {}), ...(z ? { z } : {}) });
}

/**
 * A name as audit_names keeps it: reversed, so that a name and every name under it start alike
 * (`b.example` -> `elpmaxe.b`). By characters, not UTF-16 units: a character outside the BMP
 * reversed unit by unit would be two lone surrogates, which SQLite stores as U+FFFD and which
 * then match nothing.
 */
export function reversedName(name: string): string {
  return [...name].reverse().join('');
}

/**
 * Which zones an audit judged whose verdicts looked up a name or a name under it (audit_names).
 * Both sides of every comparison go through SQLite, so a name is matched as it was stored.
 */
export function zonesLookingUp(db: Db): (auditId: number, name: string) => string[] {
  const query = db
    .prepare('SELECT zone_id FROM audit_names WHERE audit_id = ? AND rname = ? UNION ALL SELECT zone_id FROM audit_names WHERE audit_id = ? AND rname >= ? AND rname < ?')
    .pluck();
  return (auditId, name) => {
    const r = reversedName(name);
    // '/' follows '.': [r + '.', r + '/') holds exactly the names that start with r + '.'.
    return query.all(auditId, r, auditId, `${r}.`, `${r}/`) as string[];
  };
}

/**
 * Of these kept zones (in either map), those whose verdicts looked up a name that one of `names` (zones added or
 * changed, by name) is, or is above: their verdicts may now find another holding zone, or read its
 * changed data. Asked of the names kept with each audit that judged kept zones. A changed zone is
 * not touched by its own name: what its verdicts read of itself is in its own reads
 * (partial-rejudge.ts), and its name, held by the same zone, still leads there.
 */
function touchedByNames(db: Db, kept: ReadonlyArray<ReadonlyMap<string, KeptZone>>, names: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  const touched = new Set<string>();
  if (names.size === 0) return touched;
  const lookingUp = zonesLookingUp(db);
  const keptFrom = (zoneId: string) => kept.find((m) => m.has(zoneId))?.get(zoneId)?.source;
  for (const source of new Set(kept.flatMap((m) => [...m.values()].map((k) => k.source)))) {
    for (const [name, holders] of names) {
      for (const zoneId of lookingUp(source, name)) {
        if (keptFrom(zoneId) === source && !(holders.size === 1 && holders.has(zoneId))) touched.add(zoneId);
      }
    }
  }
  return touched;
}

/** Adds (or, with -1, takes away) a tally's counts by rule, severity and waiver. */
export function addTally(into: ZoneTally, t: ZoneTally, sign: 1 | -1 = 1): void {
  for (const [rule, c] of Object.entries(t.r)) {
    const row = (into.r[rule] ??= [0, 0, 0, 0]);
    for (let i = 0; i < 4; i++) row[i] = row[i]! + sign * c[i]!;
  }
  for (const [severity, n] of Object.entries(t.s) as Array<[Severity, number]>) into.s[severity] = (into.s[severity] ?? 0) + sign * n;
  for (const [i, n] of Object.entries(t.w)) into.w[i] = (into.w[i] ?? 0) + sign * n;
}

const anyNegative = (t: ZoneTally): boolean =>
  Object.values(t.r).some((c) => c.some((n) => n < 0)) || Object.values(t.s).some((n) => n < 0) || Object.values(t.w).some((n) => n < 0);

/** An earlier audit to reuse: the zones whose verdicts this audit keeps, and their counts summed. */
export interface ReuseBase {
  auditId: number;
  scanId: number;
  kept: Map<string, KeptZone>;
  /** The kept zones' tallies, summed (by rule, severity and waiver). */
  total: ZoneTally;
  /** Zones judged again in part: the rules whose verdicts are taken over, and from where. */
  partial: Map<string, PartialZone>;
  /** Zones judged again in part that gave the verdicts they had, and are kept after all (confirm-unchanged.ts). */
  confirmed: number;
  /** The audits this one reads (the base and the kept zones' sources) as they were when it chose: see sourcesAsSeen. */
  sources: SourcesSeen;
}

/** Audits an audit reads rows or sums of, and what they looked like when it read them. */
export interface SourcesSeen {
  ids: number[];
  seen: string;
}

/**
 * What an audit's sources look like now: their ids, times and runs of rows. An audit chooses what
 * to keep in its read transaction and stores in a later write transaction; a source replaced
 * (under its own id) or pruned in between shows here as a difference, and the audit is made again.
 */
export function sourcesAsSeen(db: Db, ids: readonly number[]): string {
  const rows = db.prepare('SELECT id, evaluated_at, findings_from, findings_to, tally_total IS NOT NULL FROM audits WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id').raw().all(JSON.stringify(ids));
  return JSON.stringify(rows);
}

/** The earlier audit found to reuse: its ids and the sum of its zones' tallies (audits.tally_total). */
export interface BaseAudit {
  auditId: number;
  scanId: number;
  tallyTotal: string;
}

/**
 * The earlier audit whose verdicts this one may reuse, or null: the latest audit of an earlier scan
 * with the same key (official or trial: the key says they judged alike), no waiver starting or
 * ending to apply between the two scans' times, the scan not dated before the base's (a kept
 * verdict on the time holds up to its horizon, judged from the base's time on), and both scans
 * asked to read what the rules read (`reads`). A scan made with a rule off did not read its
 * settings or objects, and records no change of a part it never attempted: its verdicts are
 * "not read in scan N", naming the scan, and the base's verdicts say nothing of it.
 */
export function findBase(db: Db, reader: SnapshotReader, key: string, waivers: readonly Waiver[], reads: ZoneReads): BaseAudit | null {
  const base = db
    .prepare('SELECT id AS auditId, scan_id AS scanId, tally_total AS tallyTotal FROM audits WHERE reuse_key = ? AND scan_id < ? AND tally_total IS NOT NULL ORDER BY scan_id DESC, id DESC LIMIT 1')
    .get(key, reader.scan.id) as BaseAudit | undefined;
  if (base === undefined) return null;
  const then = new Date((db.prepare('SELECT started_at FROM scans WHERE id = ?').pluck().get(base.scanId) as string) ?? 0).getTime();
  const now = new Date(reader.scan.startedAt).getTime();
  if (!(now >= then)) return null;
  // A waiver that ended in between would change a kept failure's status.
  if (waivers.some((w) => w.expiresAt.getTime() > then !== w.expiresAt.getTime() > now)) return null;
  if (!askedFor(declaredReadsOf(db, reader.scan.id), reads) || !askedFor(declaredReadsOf(db, base.scanId), reads)) return null;
  return base;
}

/**
 * The zones of this scan that keep the base audit's verdicts: covered by it without a rule error,
 * no change recorded since its scan, their account's row the same, the horizon of their verdicts
 * on the time not reached at `now`. Zones of the referenced audits holding fewest zones are judged
 * again when more than MAX_SOURCES would be referenced. Their counts come as one sum: the base's
 * total less the tallies of the zones it covered that are not kept (a night reads a few hundred
 * tallies, not one per zone). Null when the base's rows do not add up (then nothing is kept).
 */
export function keptZones(db: Db, reader: SnapshotReader, base: BaseAudit, order: readonly string[], zones: readonly ZoneRow[], now: Date): ReuseBase | null {
  const endpoints = changedEndpoints(db, scanRef(base.scanId), scanRef(reader.scan.id));
  const changed = new Set(endpoints.keys());
  const accountsNow = accountStates(reader);
  const accountsThen = accountStates(new SnapshotReader(db, base.scanId));
  const covered = new Map<string, KeptZone>();
  // As one JSON text (see json-rows.ts): 10,000 rows handed over one by one cost twice as much.
  const rows = db.prepare('SELECT json_group_array(json_array(zone_id, source_audit, fails, passes, holds)) FROM audit_zones WHERE audit_id = ?').pluck();
  for (const [zoneId, source, fails, passes, holds] of JSON.parse(rows.get(base.auditId) as string) as Array<[string, number, number | null, number | null, string | null]>) {
    if (fails === null || passes === null) return null;
    covered.set(zoneId, { source, fails, passes, holds });
  }
  const kept = new Map<string, KeptZone>();
  // Changed zones whose verdicts would otherwise be kept: judged again in part (partial-rejudge.ts).
  const inPart = new Map<string, KeptZone>();
  const newNames = new Map<string, Set<string>>();
  for (const z of zones) {
    if (covered.has(z.id) && !changed.has(z.id)) continue;
    const name = dependencyName(z.name);
    (newNames.get(name) ?? newNames.set(name, new Set()).get(name)!).add(z.id);
  }
  const elsewhere: Elsewhere = { now: now.getTime(), changed, present: new Set(zones.map((z) => z.id)) };
  for (const zone of zones) {
    const was = covered.get(zone.id);
    if (!was || !stillHolds(was.holds, elsewhere)) continue;
    const account = zone.accountId ?? '';
    if (accountsNow(account) !== accountsThen(account)) continue;
    (changed.has(zone.id) ? inPart : kept).set(zone.id, was);
  }
  for (const zoneId of touchedByNames(db, [kept, inPart], newNames)) {
    kept.delete(zoneId);
    inPart.delete(zoneId);
  }
  // Bound the runs a reader merges: the smallest sources' zones are judged again.
  const bySource = new Map<number, number>();
  for (const { source } of kept.values()) bySource.set(source, (bySource.get(source) ?? 0) + 1);
  if (bySource.size > MAX_SOURCES) {
    const dropped = new Set([...bySource].sort((a, b) => a[1] - b[1] || a[0] - b[0]).slice(0, bySource.size - MAX_SOURCES).map(([s]) => s));
    for (const [zone, { source }] of kept) if (dropped.has(source)) kept.delete(zone);
  }
  const sources = new Set([...kept.values()].map((k) => k.source));
  const present = db.prepare('SELECT count(*) FROM audits WHERE id IN (SELECT value FROM json_each(?))').pluck().get(JSON.stringify([...sources])) as number;
  if (present !== sources.size) return null;
  const total = decodeTally(base.tallyTotal, order);
  const notKept = [...covered.keys()].filter((z) => !kept.has(z));
  const tallies = db.prepare(
    `SELECT CASE WHEN a.counts = '${KEPT_COUNTS}' THEN s.counts ELSE a.counts END
     FROM audit_zones a LEFT JOIN audit_zones s ON s.audit_id = a.source_audit AND s.zone_id = a.zone_id
     WHERE a.audit_id = ? AND a.zone_id IN (SELECT value FROM json_each(?))`,
  );
  let subtracted = 0;
  for (const counts of tallies.pluck().iterate(base.auditId, JSON.stringify(notKept)) as Iterable<string | null>) {
    if (counts === null) return null;
    addTally(total, decodeTally(counts, order), -1);
    subtracted++;
  }
  if (subtracted !== notKept.length || anyNegative(total)) return null;
  const partial = new Map<string, PartialZone>();
  const partOf = partsOf(db, order);
  for (const [zoneId, was] of inPart) {
    const part = partOf(zoneId, was, endpoints.get(zoneId)!);
    if (part) partial.set(zoneId, part);
  }
  const read = [...new Set([base.auditId, ...sources, ...[...partial.values()].map((p) => p.source)])].sort((a, b) => a - b);
  return { auditId: base.auditId, scanId: base.scanId, kept, total, partial, confirmed: 0, sources: { ids: read, seen: sourcesAsSeen(db, read) } };
}

/** The account row as the zone rules see it (its name in findings, its type), by account id. */
function accountStates(reader: SnapshotReader): (accountId: string) => string {
  const readout = reader.accounts();
  if (!readout.known) {
    const state = `unknown:${readout.state}:${readout.reason}`;
    return () => state;
  }
  const byId = new Map(readout.items.map((a) => [a.id, JSON.stringify([a.name, a.type, a.raw])]));
  return (id) => byId.get(id) ?? 'absent';
}

/** Adds the kept zones' verdicts to the audit's counts, passes and waiver matches: their sum, and each zone's failures and passes. */
export function addKeptVerdicts(base: ReuseBase, counter: FindingCounter, evaluation: Evaluation, waivers: WaiverSet): void {
  const counts = counter.counts;
  for (const [rule, [pass, fail, unknown, waived]] of Object.entries(base.total.r)) {
    const byRule = (counts.byRule[rule] ??= { fail: 0, unknown: 0, waived: 0, pass: 0 });
    byRule.fail += fail;
    byRule.unknown += unknown;
    byRule.waived += waived;
    counts.byStatus.fail += fail;
    counts.byStatus.unknown += unknown;
    counts.byStatus.waived += waived;
    evaluation.passes[rule] = (evaluation.passes[rule] ?? 0) + pass;
  }
  for (const [severity, n] of Object.entries(base.total.s) as Array<[Severity, number]>) counts.failBySeverity[severity] += n;
  for (const [zoneId, { fails, passes }] of base.kept) {
    if (fails > 0) (counts.byZone![zoneId] ??= { pass: 0, fail: 0 }).fail += fails;
    if (passes > 0) evaluation.passesByZone[zoneId] = (evaluation.passesByZone[zoneId] ?? 0) + passes;
  }
  const matched: number[] = [];
  for (const [i, n] of Object.entries(base.total.w)) for (let k = 0; k < n; k++) matched.push(Number(i));
  waivers.confirm(matched);
}
