import type { Statement } from 'better-sqlite3';
import { SnapshotError, type Db } from './db.js';
import { scanRef } from './scan-ref.js';
import { parseScope, type ScanScope } from './scope.js';
import type { Partition } from './tables.js';
import type { ZoneReadAhead } from './read-ahead.js';
import type { CoverageRow } from './coverage-row.js';

/** What every part of a SnapshotReader shares: the scan, a statement per query shape, the read-ahead, the SQL of valid versions. */

export interface ScanRow {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  status: 'running' | 'complete' | 'incomplete' | 'aborted';
  baseUrl: string;
  scope: ScanScope;
  toolVersion: string;
  summary: unknown;
}

/** The stored scan `scanId`; refused when it does not exist, or is running or aborted (its data is partial). */
export function openScanRow(db: Db, scanId: number): ScanRow {
  const select = 'SELECT id, started_at AS startedAt, finished_at AS finishedAt, status, base_url AS baseUrl, scope, tool_version AS toolVersion, summary FROM scans WHERE id = ?';
  const row = db.prepare(select).get(scanId) as (Omit<ScanRow, 'scope' | 'summary'> & { scope: string; summary: string | null }) | undefined;
  if (!row) throw new SnapshotError('ZW_SCAN_MISSING', `there is no scan ${scanId} in this database; zonewarden scans lists them`);
  const scan: ScanRow = { ...row, scope: parseScope(row.scope), summary: row.summary === null ? null : JSON.parse(row.summary) };
  if (scan.status === 'running' || scan.status === 'aborted') {
    throw new SnapshotError('ZW_SCAN_UNUSABLE', `scan ${scanId} is ${scan.status}: its data is partial; use a complete or incomplete scan`);
  }
  return scan;
}

export const flag = (v: number | null): boolean | null => (v === null ? null : v === 1);

/**
 * Rows in one JSON text where a list is read in slices (a zone of 440,000 DNS records is otherwise
 * 60 MB of text). Under V8's largest regular object (128 KB) a text is collected young: that zone
 * peaked at 193 MB RSS in slices of 500, 214 MB in slices of 20,000, and took no longer.
 */
export const SLICE_ROWS = 500;

/** Rows of (zone id, JSON array of that zone's rows), parsed, by zone. */
export function parsedByZone<T>(rows: Iterable<[string, string]>): Map<string, T[]> {
  const parsed = new Map<string, T[]>();
  for (const [zoneId, json] of rows) parsed.set(zoneId, JSON.parse(json) as T[]);
  return parsed;
}

export class ScanView {
  /** Prepared once per query shape: checks call these for every zone of a scan. */
  private readonly statements = new Map<string, Statement>();
  /** The audit's zones read a run at a time (see SnapshotReader.readAhead); null: one zone at a time. */
  ahead: ZoneReadAhead | null = null;

  constructor(
    readonly db: Db,
    readonly scan: ScanRow,
  ) {}

  /** A prepared statement returning rows as objects, as arrays (`raw`), or their first column (`pluck`). */
  statement(sql: string, mode: 'objects' | 'raw' | 'pluck' = 'objects'): Statement {
    const key = `${mode}:${sql}`;
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (mode === 'raw') statement.raw(true);
      if (mode === 'pluck') statement.pluck(true);
      this.statements.set(key, statement);
    }
    return statement;
  }

  valid(table: string, columns = '*', ref = scanRef(this.scan.id)): string {
    return `SELECT ${columns} FROM ${table} WHERE first_scan <= ${ref} AND last_scan >= ${ref}`;
  }

  /** The rows of a run of zones: zone_id among the JSON array bound to the first parameter, in the order of the table's (zone_id, item_id) index. */
  forZones(table: string, columns: string, ref?: number): string {
    return `${this.valid(table, `zone_id, ${columns}`, ref)} AND zone_id IN (SELECT value FROM json_each(?)) ORDER BY zone_id, item_id`;
  }

  /** A zone list's expected size (of one endpoint, or several sharing a table), from the coverage read ahead with it: what bounds a run of zones. */
  weightOf(...partitions: Partition[]): (zoneId: string) => number | undefined {
    return (zoneId) => {
      const coverage = this.ahead?.peek<CoverageRow>('coverage', zoneId);
      if (coverage === undefined) return undefined;
      let items = 0;
      for (const c of coverage) if (partitions.includes(c.endpoint)) items += c.items;
      return items;
    };
  }
}
