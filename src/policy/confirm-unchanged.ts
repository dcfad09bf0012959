import type { Db } from '../snapshot/db.js';
import type { ZoneHolds } from './engine.js';
import type { Finding } from './findings.js';
import type { HeldUnit } from './held-zone.js';
import type { PartialZone } from './partial-rejudge.js';
import { values } from './store.js';
import { addTally, dependencyName, MAX_SOURCES, type ReuseBase, type ZoneTally } from './verdict-reuse.js';

/**
 * Whether a zone judged in part gave again exactly the verdicts the audit that judged it holds,
 * so that it is kept like an unchanged zone (see held-zone.ts). Everything a later audit reads of
 * a kept zone must then still be true:
 * - the rules run gave the same findings (every stored column, a waived failure as a failure:
 *   the waivers are the same, findBase says so) and the same number of passes, those alike in
 *   every key the listing orders by in the same order (theirs is the rule's: tiesInSameOrder);
 * - each read the same endpoints of the zone (what a later night's partial judgement goes by);
 * - what they hold on is within what the kept row says: a horizon no earlier, no other zone or
 *   name it did not name already (the kept row keeps the earlier, which is judged again sooner);
 * - the rows of the rules taken over are those their tally counts (replaying checked that);
 * - the audit holding its rows stays within the sources a reader merges (MAX_SOURCES).
 * A zone kept so moves from `base.partial` to `base.kept`, its tally back into the kept sum.
 */
export function confirmer(db: Db, base: ReuseBase, order: readonly string[]): (zoneId: string, ran: readonly HeldUnit[], holds: ZoneHolds, takenOver: readonly string[]) => boolean {
  // By rule, then as listed (the index's order): findings tied on every listing key come in the order the rule gave them.
  const stored = db.prepare(`SELECT ${GIVEN} FROM findings WHERE audit_id = ? AND zone_id = ? AND rule IN (SELECT value FROM json_each(?)) ORDER BY rule, pk`).raw();
  const sources = new Set([...base.kept.values()].map((k) => k.source));
  // From the index alone (findings_by_zone): how many rows each rule has on the zone.
  const counted = db.prepare('SELECT rule, count(*) FROM findings WHERE audit_id = ? AND zone_id = ? GROUP BY rule').raw();
  return (zoneId, ran, holds, takenOver) => {
    const p = base.partial.get(zoneId);
    if (!p) return false;
    if (!rowsAsCounted(counted.all(p.source, zoneId) as Array<[string, number]>, p, takenOver)) return false;
    if (!sources.has(p.source) && sources.size >= MAX_SOURCES) return false;
    if (!holdsWithin(p.asKept.holds, p.names, holds)) return false;
    let rows = 0;
    for (const u of ran) {
      const [pass, fail, unknown, waived] = p.tally.r[u.rule] ?? [0, 0, 0, 0];
      if (passesOn(zoneId, u.passes) !== pass || u.findings.length !== fail + unknown + waived) return false;
      if (!sameEndpoints(u.reads, readsOfRule(p, order.indexOf(u.rule)))) return false;
      rows += u.findings.length;
    }
    if (rows > 0) {
      const beforeRows = stored.all(p.source, zoneId, JSON.stringify(ran.map((u) => u.rule))) as unknown[][];
      if (beforeRows.length !== rows) return false;
      const found = ran.flatMap((u) => u.findings);
      const before = beforeRows.map(rowKey);
      const now = found.map(findingKey);
      if (!tiesInSameOrder(beforeRows, before, found, now)) return false;
      before.sort();
      now.sort();
      for (let i = 0; i < rows; i++) if (before[i] !== now[i]) return false;
    }
    base.partial.delete(zoneId);
    base.kept.set(zoneId, p.asKept);
    addTally(base.total, p.tally);
    base.confirmed++;
    sources.add(p.source);
    return true;
  };
}

/**
 * Whether findings that share a rule and a resource name (an A and an AAAA record of one host)
 * come now in the order the stored rows have them: the listing keeps such findings in the order
 * the rule gave them, which the multiset comparison does not see. The stored rows come by rule,
 * then as listed. Tied findings of different statuses are listed apart, so a change of their
 * order there is seen as one too: the zone is then judged again, which is only slower.
 */
function tiesInSameOrder(stored: readonly unknown[][], storedKeys: readonly string[], found: readonly Finding[], foundKeys: readonly string[]): boolean {
  const groups = (ties: string[], keys: readonly string[]) => {
    const byTie = new Map<string, string[]>();
    ties.forEach((tie, i) => (byTie.get(tie) ?? byTie.set(tie, []).get(tie)!).push(keys[i]!));
    return byTie;
  };
  const before = groups(
    stored.map((r) => `${String(r[RULE])}\u0000${String(r[RESOURCE_NAME] ?? r[RESOURCE_ID])}`),
    storedKeys,
  );
  const now = groups(
    found.map((f) => `${f.rule}\u0000${f.resource.name ?? f.resource.id}`),
    foundKeys,
  );
  for (const [tie, keys] of now) {
    if (keys.length < 2) continue;
    const was = before.get(tie);
    if (!was || was.length !== keys.length || was.some((k, i) => k !== keys[i])) return false;
  }
  return true;
}

/** The columns of a row that a rule gives (all but the audit and the waiver), in COLUMNS' order. */
const GIVEN = 'fingerprint, rule, category, severity, status, account_id, account_name, zone_id, zone_name, resource_type, resource_id, resource_name, message, message_id, data';
const RULE = 1;
const STATUS = 4;
const RESOURCE_ID = 10;
const RESOURCE_NAME = 11;

/** A stored row as the rule gave it (before waivers), as one text. */
function rowKey(r: unknown[]): string {
  if (r[STATUS] === 'waived') r[STATUS] = 'fail';
  return JSON.stringify(r);
}

/** A finding as it would be stored, as one text in rowKey's form. */
function findingKey(f: Finding): string {
  return JSON.stringify(values(0, f).slice(1, -1));
}

/**
 * Whether the source holds, for each rule taken over, the rows its tally counts, and the tally
 * some verdict: kept, the zone is read from those rows with those counts, never replayed (which
 * is what would notice otherwise, and run the rule).
 */
function rowsAsCounted(rows: Array<[string, number]>, p: PartialZone, takenOver: readonly string[]): boolean {
  const stored = new Map(rows);
  for (const rule of takenOver) {
    const [pass, fail, unknown, waived] = p.tally.r[rule] ?? [0, 0, 0, 0];
    if (pass + fail + unknown + waived === 0 || (stored.get(rule) ?? 0) !== fail + unknown + waived) return false;
  }
  return true;
}

/** A zone rule's passes on its zone; -1 (never a count) when it passed something elsewhere. */
function passesOn(zoneId: string, passes: ReadonlyMap<string, number>): number {
  let n = 0;
  for (const [key, count] of passes) {
    if (key !== zoneId) return -1;
    n += count;
  }
  return n;
}

/** The endpoints the rule at `place` read when the source judged the zone. */
function readsOfRule(p: PartialZone, place: number): Set<string> {
  const endpoints = new Set<string>();
  for (const [endpoint, places] of Object.entries(p.reads)) if (places.includes(place)) endpoints.add(endpoint);
  return endpoints;
}

function sameEndpoints(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const e of a) if (!b.has(e)) return false;
  return true;
}

/** Whether what the verdicts hold on now is within what the kept row says (see confirmer). */
function holdsWithin(kept: string | null, keptNames: () => readonly string[], now: ZoneHolds): boolean {
  const was = kept === null ? {} : (JSON.parse(kept) as Pick<ZoneTally, 'e' | 'h' | 'z'>);
  if (was.e === 1) return false;
  if (now.horizon < (was.h ?? Number.POSITIVE_INFINITY)) return false;
  const zones = new Set(was.z ?? []);
  for (const z of now.zones) if (!zones.has(z)) return false;
  if (now.names.size === 0) return true;
  const names = new Set(keptNames().map(dependencyName));
  for (const n of now.names) if (!names.has(dependencyName(n))) return false;
  return true;
}
