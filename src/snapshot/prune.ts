import { runningScans, scanIsAlive, SnapshotError, type Db } from './db.js';
import { SCAN_REF_BASE } from './scan-ref.js';
import { parseScope, scopeKey } from './scope.js';

/**
 * Retention: keeps the newest `keep` scans, and always the latest complete scan of each scope and every
 * accepted baseline, whatever their age. Versions no kept scan falls inside are deleted with the
 * scans. It refuses while a scan is running: that scan extends the versions of the scan before it
 * page by page, and deleting them under it would cost it the rest of a night's work (the writer
 * would store them afresh, but a long delete also holds the file's lock for its duration).
 */
export interface PruneResult {
  deletedScans: number[];
  keptScans: number[];
  deletedRows: number;
}

const VERSIONED_TABLES = [
  'coverage',
  'accounts',
  'zones',
  'dns_records',
  'certificate_packs',
  'firewall_rules',
  'filters',
  'zone_objects',
  'waf_packages',
  'waf_groups',
  'waf_rules',
  'waf_overrides',
  'invites',
];

export function pruneScans(db: Db, keep: number): PruneResult {
  return db
    .transaction((): PruneResult => {
      const live = runningScans(db).find((r) => scanIsAlive(r));
      if (live) {
        throw new SnapshotError(
          'ZW_DB_BUSY',
          `scan ${live.id} is running on this database (pid ${live.pid} on ${live.host}); prune when it ends, nothing was deleted`,
        );
      }
            const scans = db.prepare('SELECT id, status, scope FROM scans ORDER BY id DESC').all() as Array<{ id: number; status: string; scope: string }>;
      const protectedIds = new Set<number>();
      // The latest complete scan of each scope: a one-zone rescan must not cost the organisation's scan.
      const scopesSeen = new Set<string>();
      for (const s of scans) {
        if (s.status !== 'complete') continue;
        const key = scopeKey(parseScope(s.scope));
        if (!scopesSeen.has(key)) protectedIds.add(s.id);
        scopesSeen.add(key);
      }
      for (const r of db.prepare('SELECT DISTINCT scan_id FROM baselines').all() as Array<{ scan_id: number }>) protectedIds.add(r.scan_id);
      for (const s of scans) if (s.status === 'running') protectedIds.add(s.id);
      const kept = new Set(scans.slice(0, keep).map((s) => s.id));
      for (const id of protectedIds) kept.add(id);
      // A kept scan that carried partitions forward reads their data in the scans that read them:
      // those stay too (a carried partition always points at a read, never at another carry).
      for (const id of carriedFrom(db, kept)) if (scans.some((s) => s.id === id)) kept.add(id);
      const deleted = scans.filter((s) => !kept.has(s.id)).map((s) => s.id);
      if (deleted.length === 0) return { deletedScans: [], keptScans: [...kept].sort((a, b) => a - b), deletedRows: 0 };
      const del = db.prepare('DELETE FROM scans WHERE id = ?');
      for (const id of deleted) del.run(id);
      let deletedRows = 0;
      // A version survives if some remaining scan lies in its range.
      for (const table of VERSIONED_TABLES) {
        deletedRows += db
          .prepare(`DELETE FROM ${table} WHERE NOT EXISTS (SELECT 1 FROM scans s WHERE s.id + ${SCAN_REF_BASE} BETWEEN ${table}.first_scan AND ${table}.last_scan)`)
          .run().changes;
      }
      // Changes before the oldest scan left can no longer tell two remaining scans apart.
      db.prepare(`DELETE FROM zone_changes WHERE scan_ref < (SELECT min(id) + ${SCAN_REF_BASE} FROM scans)`).run();
      return { deletedScans: deleted.sort((a, b) => a - b), keptScans: [...kept].sort((a, b) => a - b), deletedRows };
    })
    .immediate();
}

/** The scans whose reads the coverage of these scans carries forward (data_scan). */
function carriedFrom(db: Db, scanIds: ReadonlySet<number>): number[] {
  const ids = JSON.stringify([...scanIds].map((id) => id + SCAN_REF_BASE));
  const rows = db
    .prepare(
      `SELECT DISTINCT c.data_scan - ${SCAN_REF_BASE} AS id FROM coverage c
       WHERE c.data_scan IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(?) k WHERE k.value BETWEEN c.first_scan AND c.last_scan)`,
    )
    .all(ids) as Array<{ id: number }>;
  return rows.map((r) => r.id);
}
