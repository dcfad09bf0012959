import { SCAN_REF_BASE, scanRef } from './scan-ref.js';
import type { Partition, PartitionKind } from './tables.js';
import { jsonIsOne } from './json-rows.js';
import { COVERAGE_COLUMNS, toCoverage, type CoverageRow, type Readout } from './coverage-row.js';
import { dataRef } from './data-ref.js';
import { parsedByZone, SLICE_ROWS, type ScanView } from './scan-view.js';

/** What a scan read of each partition and how (coverage), and the readouts built on it (see SnapshotReader). */

/** SQL: a coverage row as the JSON of the CoverageRow toCoverage builds (same keys, same order). */
const COVERAGE_JSON = `json_object('kind', kind, 'scopeId', scope_id, 'endpoint', endpoint, 'state', state, 'httpStatus', http_status, 'apiCode', api_code,
  'errorCode', error_code, 'message', message, 'pages', pages, 'items', items, 'truncated', ${jsonIsOne('truncated')},
  'readIn', data_scan - ${SCAN_REF_BASE})`;

export class CoverageReader {
  private scopeCoverage: { key: string; rows: Map<Partition, CoverageRow> } | null = null;

  constructor(private readonly view: ScanView) {}

  /** Forgets the scope held (the read-ahead changed: what it holds is read again through it). */
  forget(): void {
    this.scopeCoverage = null;
  }

  /**
   * Everything this scan recorded about what it read (170,000 rows at 10,000 zones), in the order of
   * the index on first_scan (rowid within), as JSON a slice at a time.
   */
  coverage(onlyUnread = false): CoverageRow[] {
    const view = this.view;
    const ref = scanRef(view.scan.id);
    const nextScan = view.statement(`SELECT min(first_scan) FROM coverage WHERE first_scan > ? AND first_scan <= ${ref}`, 'pluck');
    // Unread: failed, denied, or cut short (what scan-coverage reports): at 10,000 zones a few rows of
    // 200,000, in an index of their own (schema 11), which SQLite would not pick over coverage_first.
    const unread = onlyUnread ? ` AND (state IN ('failed', 'denied') OR (state = 'ok' AND truncated = 1))` : '';
    // ORDER BY inside the aggregate: without it the order of its rows is not documented, and a CoverageRow has no key to check it by.
    const slice = view.statement(
      `SELECT json_group_array(${COVERAGE_JSON} ORDER BY pk), max(pk) FROM (${view.valid(onlyUnread ? 'coverage INDEXED BY coverage_unread' : 'coverage', `pk, ${COVERAGE_COLUMNS}`)}${unread} AND first_scan = ? AND pk > ? ORDER BY pk LIMIT ${SLICE_ROWS})`,
      'raw',
    );
    const rows: CoverageRow[] = [];
    for (let first = nextScan.get(-1) as number | null; first !== null; first = nextScan.get(first) as number | null) {
      // -Infinity: below every rowid (SQLite compares an integer with a real by value).
      for (let after = -Infinity; ; ) {
        const [json, last] = slice.get(first, after) as [string, number | null];
        const parsed = JSON.parse(json) as CoverageRow[];
        for (const row of parsed) rows.push(row);
        if (last === null || parsed.length < SLICE_ROWS) break;
        after = last;
      }
    }
    return rows;
  }

  /** How this scan read one partition, if it did: a scope's rows are kept until another is asked for (checks go zone by zone). */
  coverageOf(kind: PartitionKind, scopeId: string, partition: Partition): CoverageRow | undefined {
    const key = `${kind}|${scopeId}`;
    if (this.scopeCoverage?.key !== key) {
      const view = this.view;
      const ahead = kind === 'zone' ? view.ahead?.rows('coverage', scopeId, (ids) => this.runCoverage(ids), { keep: true }) : undefined;
      const rows = ahead ?? (view.statement(`${view.valid('coverage', COVERAGE_COLUMNS)} AND kind = ? AND scope_id = ?`).all(kind, scopeId) as Array<Record<string, unknown>>).map(toCoverage);
      this.scopeCoverage = { key, rows: new Map(rows.map((r) => [r.endpoint, r])) };
    }
    return this.scopeCoverage.rows.get(partition);
  }

  /** When a partition's data was read (this scan's start, or that of the scan it was carried from); null when not recorded. */
  readStartedAt(kind: PartitionKind, scopeId: string, partition: Partition): string | null {
    const c = this.coverageOf(kind, scopeId, partition);
    if (!c) return null;
    if (c.readIn === null || c.readIn === this.view.scan.id) return this.view.scan.startedAt;
    return (this.view.statement('SELECT started_at FROM scans WHERE id = ?', 'pluck').get(c.readIn) as string | undefined) ?? null;
  }

  /** The coverage of a run of zones, one JSON array a zone (17 rows of 11 columns each at most). */
  private runCoverage(zoneIds: string[]): Map<string, CoverageRow[]> {
    const sql = `${this.view.valid('coverage', `scope_id, json_group_array(${COVERAGE_JSON})`)} AND kind = 'zone' AND scope_id IN (SELECT value FROM json_each(?)) GROUP BY scope_id`;
    return parsedByZone<CoverageRow>(this.view.statement(sql, 'raw').iterate(JSON.stringify(zoneIds)) as Iterable<[string, string]>);
  }

  /** A partition's items when the scan read it completely (`load` given the scan reference holding them), else why not. */
  readout<T>(kind: PartitionKind, scopeId: string, partition: Partition, load: (ref: number) => T[]): Readout<T> {
    const c = this.coverageOf(kind, scopeId, partition);
    if (!c) return { known: false, state: 'not-read', reason: `${partition} was not read in scan ${this.view.scan.id}` };
    if (c.state !== 'ok' || c.truncated) {
      const why = c.message ?? (c.truncated ? 'the list was truncated' : c.state);
      return { known: false, state: c.truncated && c.state === 'ok' ? 'failed' : c.state, reason: `${partition}: ${why}` };
    }
    return { known: true, items: load(dataRef(this.view, c)) };
  }
}
