import type { Db } from '../snapshot/db.js';
import { filterCondition, type ScanFilter } from '../snapshot/scan-filter.js';
import type { Status } from '../policy/findings.js';
import { findingsTableFor } from './reuse-rows.js';

/**
 * Two audits' findings side by side, by fingerprint: what drift between two audits (src/drift)
 * rests on, answered here where the findings table's SQL lives.
 */

/** A finding's status in an audit as its rows hold it (passes are counted, not stored), or null: no such finding. */
export type StoredState = Exclude<Status, 'pass'> | null;

export interface Merged {
  /** Findings with the same status and severity in both audits, by status. */
  steady: Map<string, number>;
  /** Findings of the later audit that are new or moved: their row, and the earlier status and severity. */
  later: Array<{ pk: number; before: StoredState; beforeSeverity: string | null }>;
  /** Rows of the earlier audit whose fingerprint the later one lacks. */
  gone: number[];
  unknownInFrom: Set<string>;
  unknownInTo: Set<string>;
}

/**
 * The two audits side by side, by fingerprint, in three joins that SQLite answers from the
 * covering index of schema 4 without reading the findings' rows: the steady findings are only
 * counted, and only the moved ones are loaded whole afterwards.
 */
export function mergeByFingerprint(db: Db, from: number, to: number, key: (rule: string, zoneId: string | null) => string, view: ScanFilter | null): Merged {
  // An audit that kept verdicts of an earlier one reads some rows there: a table of all its rows then.
  const table = findingsTableFor(db, [from, to]);
  // A fingerprint names the rule, zone and resource, so both sides of a pair are in a view or neither.
  const inView = (alias: string) => {
    if (!view) return { sql: '', params: [] as unknown[] };
    const c = filterCondition(view, alias);
    return { sql: ` AND ${c.sql}`, params: c.params };
  };
  const unknownIn = (auditId: number) =>
    new Set(
      (db.prepare(`SELECT DISTINCT rule, zone_id FROM ${table(auditId)} u WHERE audit_id = ? AND status = 'unknown'${inView('u').sql}`).raw().all(auditId, ...inView('u').params) as Array<[string, string | null]>).map(
        ([rule, zone]) => key(rule, zone),
      ),
    );
  const steady = db
    .prepare(
      `SELECT t.status, count(*) FROM ${table(to)} t JOIN ${table(from)} f ON f.audit_id = ? AND f.fingerprint = t.fingerprint
       WHERE t.audit_id = ? AND f.status = t.status AND f.severity = t.severity${inView('t').sql} GROUP BY t.status`,
    )
    .raw()
    .all(from, to, ...inView('t').params) as Array<[string, number]>;
  const later = db
    .prepare(
      `SELECT t.pk, f.status, f.severity FROM ${table(to)} t LEFT JOIN ${table(from)} f ON f.audit_id = ? AND f.fingerprint = t.fingerprint
       WHERE t.audit_id = ? AND (f.pk IS NULL OR f.status != t.status OR f.severity != t.severity)${inView('t').sql}`,
    )
    .raw()
    .all(from, to, ...inView('t').params) as Array<[number, StoredState, string | null]>;
  const gone = db
    .prepare(
      `SELECT f.pk FROM ${table(from)} f WHERE f.audit_id = ? AND NOT EXISTS (SELECT 1 FROM ${table(to)} t WHERE t.audit_id = ? AND t.fingerprint = f.fingerprint)${inView('f').sql}`,
    )
    .raw()
    .all(from, to, ...inView('f').params) as Array<[number]>;
  return {
    steady: new Map(steady),
    later: later.map(([pk, before, beforeSeverity]) => ({ pk, before, beforeSeverity })),
    gone: gone.map(([pk]) => pk),
    unknownInFrom: unknownIn(from),
    unknownInTo: unknownIn(to),
  };
}
