import { runningScans, scanIsAlive, SnapshotError, type Db } from './db.js';
import { SCAN_REF_BASE } from './scan-ref.js';
import { parseScope, scopeKey } from './scope.js';

/**
 * Retention: keeps the newest `keep` scans, and always the latest complete scan of each scope and
 * every accepted baseline. A scan's audits go with it, and versions no kept scan falls inside. It
 * refuses while a scan runs: that scan extends the versions of the one before page by page, and
 * deleting them under it would cost it the rest of a night's work (and hold the file's lock).
 */
export interface PruneResult {
  deletedScans: number[];
  keptScans: number[];
  deletedRows: number;
}

/** Zone tables of one partition each: a carried partition names them by the table's name. */
const ZONE_LISTS = [
  ...['dns_records', 'certificate_packs', 'firewall_rules', 'filters'],
  ...['waf_packages', 'waf_groups', 'waf_rules', 'waf_overrides'],
];
/** The versioned tables besides coverage. */
const VERSIONED_TABLES = ['accounts', 'zones', ...ZONE_LISTS, 'zone_objects', 'invites', 'account_objects'];

/** What the audits (audit/retention.ts) do in prune's transaction before the scans go: the snapshot knows no audits. */
export interface PruneHooks {
  beforeDeleting?(db: Db, scans: { kept: ReadonlySet<number>; deleted: readonly number[] }): void;
}

export function pruneScans(db: Db, keep: number, hooks: PruneHooks = {}): PruneResult {
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
      const deleted = scans.filter((s) => !kept.has(s.id)).map((s) => s.id);
      hooks.beforeDeleting?.(db, { kept, deleted });
      if (deleted.length === 0) return { deletedScans: [], keptScans: [...kept].sort((a, b) => a - b), deletedRows: 0 };
      const del = db.prepare('DELETE FROM scans WHERE id = ?');
      for (const id of deleted) del.run(id);
      let deletedRows = 0;
      // A version survives if some remaining scan lies in its range, or if a remaining scan carried
      // its partition forward from a read the version was current at (coverage.data_scan): the
      // scan that read it may go, the data it read stays as long as a kept scan points at it.
      deletedRows += deleteOutside(db, 'coverage', null);
      db.exec('CREATE TEMP TABLE IF NOT EXISTS prune_carried (scope_id TEXT NOT NULL, endpoint TEXT NOT NULL, ref INTEGER NOT NULL, PRIMARY KEY (scope_id, endpoint, ref)) WITHOUT ROWID');
      db.exec('DELETE FROM temp.prune_carried');
      db.exec("INSERT OR IGNORE INTO temp.prune_carried SELECT scope_id, endpoint, data_scan FROM coverage WHERE kind = 'zone' AND data_scan IS NOT NULL");
      for (const table of VERSIONED_TABLES) deletedRows += deleteOutside(db, table, carriedEndpoint(table));
      db.exec('DELETE FROM temp.prune_carried');
      // Changes before the oldest scan left can no longer tell two remaining scans apart.
      db.prepare(`DELETE FROM zone_changes WHERE scan_ref < (SELECT min(id) + ${SCAN_REF_BASE} FROM scans)`).run();
      return { deletedScans: deleted.sort((a, b) => a - b), keptScans: [...kept].sort((a, b) => a - b), deletedRows };
    })
    .immediate();
}

/** The endpoint of a zone table's rows as carried partitions name it (null: never carried). */
function carriedEndpoint(table: string): string | null {
  if (table === 'zone_objects') return 'endpoint';
  return ZONE_LISTS.includes(table) ? `'${table}'` : null;
}

/** Deletes the versions of a table no remaining scan lies in, nor (zone tables) a carried read. */
function deleteOutside(db: Db, table: string, endpoint: string | null): number {
  const inScan = `EXISTS (SELECT 1 FROM scans s WHERE s.id + ${SCAN_REF_BASE} BETWEEN ${table}.first_scan AND ${table}.last_scan)`;
  const carried =
    endpoint === null
      ? ''
      : ` OR EXISTS (SELECT 1 FROM temp.prune_carried c WHERE c.scope_id = ${table}.zone_id AND c.endpoint = ${endpoint.startsWith("'") ? endpoint : `${table}.${endpoint}`} AND c.ref BETWEEN ${table}.first_scan AND ${table}.last_scan)`;
  return db.prepare(`DELETE FROM ${table} WHERE NOT (${inScan}${carried})`).run().changes;
}
