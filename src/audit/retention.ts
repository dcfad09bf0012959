import type { Db } from '../snapshot/db.js';
import { pruneScans, type PruneResult } from '../snapshot/prune.js';
import { materialize } from './store.js';

/**
 * Retention of audits when scans are pruned: the schema deletes a scan's audits with it, and an
 * audit of a kept scan that reads rows of one that goes (verdict reuse) first gets its own copy.
 */
export function pruneScansAndAudits(db: Db, keep: number): PruneResult {
  return pruneScans(db, keep, { beforeDeleting: keepAuditsWhole });
}

/** Inside prune's write transaction, before the scans go: copies the rows kept audits read from audits about to go. */
function keepAuditsWhole(db: Db, scans: { kept: ReadonlySet<number>; deleted: readonly number[] }): void {
  for (const id of dependentAudits(db, scans.kept, scans.deleted)) materialize(db, id);
}

/** Audits (official or trial) of kept scans that read rows of an audit of a scan about to be deleted. */
function dependentAudits(db: Db, kept: ReadonlySet<number>, deleted: readonly number[]): number[] {
  if (deleted.length === 0) return [];
  return db
    .prepare(
      `SELECT DISTINCT z.audit_id FROM audit_zones z JOIN audits a ON a.id = z.audit_id JOIN audits s ON s.id = z.source_audit
       WHERE s.scan_id IN (SELECT value FROM json_each(?)) AND a.scan_id IN (SELECT value FROM json_each(?))`,
    )
    .pluck()
    .all(JSON.stringify(deleted), JSON.stringify([...kept])) as number[];
}
