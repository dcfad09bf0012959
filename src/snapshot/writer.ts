import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { Statement } from 'better-sqlite3';
import { PACKAGE } from '../shared/package-info.js';
import type { Redact } from '../shared/redact.js';
import { runningScans, scanIsAlive, SnapshotError, type Db } from './db.js';
import { SCAN_REF_BASE, scanRef } from './scan-ref.js';
import { normalizeScope, type ScanScope } from './scope.js';
import { TABLES, type Endpoint, type PartitionKind, type TableSpec } from './tables.js';

/**
 * Writes one scan. Resources arrive a page at a time and are written in a transaction per page:
 * an unchanged one extends its current version to this scan, anything else gets a new version.
 * The scan becomes visible as complete only in the final transaction (`finish`).
 */

export type { ScanScope } from './scope.js';

export type CoverageState = 'ok' | 'failed' | 'skipped' | 'denied' | 'retired';

export interface CoverageOutcome {
  state: CoverageState;
  pages: number;
  items: number;
  truncated?: boolean;
  httpStatus?: number | null;
  apiCode?: number | null;
  errorCode?: string | null;
  message?: string | null;
}

const HEARTBEAT_MS = 15_000;

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

export class ScanWriter {
  readonly scanId: number;
  /** This scan as version ranges and partitions refer to it (see scan-ref.ts). */
  readonly ref: number;
  private readonly statements = new Map<string, Statement>();
  private heartbeat: NodeJS.Timeout;
  /** Items written this scan, by table. */
  readonly written: Record<string, number> = {};

  private constructor(
    readonly db: Db,
    scanId: number,
    private readonly redact: Redact,
  ) {
    this.scanId = scanId;
    this.ref = scanRef(scanId);
    const beat = db.prepare('UPDATE scans SET heartbeat_at = ? WHERE id = ?');
    this.heartbeat = setInterval(() => beat.run(new Date().toISOString(), scanId), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /**
   * Starts a scan, refusing while another live process is scanning the same database. The check
   * and the insert are one immediate transaction, so two starting scans cannot both pass.
   */
  static start(db: Db, baseUrl: string, scope: ScanScope, redact: Redact): ScanWriter {
    const id = db
      .transaction(() => {
        const running = runningScans(db);
        const live = running.find((r) => scanIsAlive(r));
        if (live) {
          throw new SnapshotError(
            'ZW_DB_BUSY',
            `scan ${live.id} is already running on this database (pid ${live.pid} on ${live.host}); wait for it to finish, or use another --db`,
          );
        }
        const now = new Date().toISOString();
        for (const r of running) db.prepare("UPDATE scans SET status = 'aborted', finished_at = ? WHERE id = ?").run(now, r.id);
        const info = db
          .prepare(
            "INSERT INTO scans (started_at, status, base_url, scope, tool_version, pid, host, heartbeat_at) VALUES (?, 'running', ?, ?, ?, ?, ?, ?)",
          )
          .run(now, baseUrl, JSON.stringify(normalizeScope(scope)), PACKAGE.version, process.pid, hostname(), now);
        return Number(info.lastInsertRowid);
      })
      .immediate();
    return new ScanWriter(db, id, redact);
  }

  private statement(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  partition(kind: PartitionKind, scopeId: string, endpoint: Endpoint): PartitionWriter {
    const row = this.statement('SELECT last_attempt_scan, last_ok_scan FROM partitions WHERE kind = ? AND scope_id = ? AND endpoint = ?').get(kind, scopeId, endpoint) as
      | { last_attempt_scan: number; last_ok_scan: number | null }
      | undefined;
    return new PartitionWriter(this, kind, scopeId, endpoint, row?.last_ok_scan ?? null, row?.last_attempt_scan ?? null);
  }

  /** Zones an account no longer lists: their partitions count as attempted, so nothing spans this scan. */
  closeZones(zoneIds: string[]): void {
    const close = this.statement("UPDATE partitions SET last_attempt_scan = ? WHERE kind = 'zone' AND scope_id = ?");
    this.db.transaction(() => {
      for (const id of zoneIds) close.run(this.ref, id);
    })();
  }

  /** Zones of an account at the last complete read of its listing (a scan reference): to find the ones that vanished. */
  zonesOfAccountAt(accountId: string, ref: number): string[] {
    // Valid at that read, not last written by it: a later --zone scan or an aborted scan may have extended the version.
    return (this.statement('SELECT item_id FROM zones WHERE account_id = ? AND first_scan <= ? AND last_scan >= ?').all(accountId, ref, ref) as Array<{ item_id: string }>).map(
      (r) => r.item_id,
    );
  }

  /** Zones this database has seen migrated (`complete`) in an earlier complete scan. */
  migratedZones(): Set<string> {
    const rows = this.db
      .prepare(
        `SELECT DISTINCT o.zone_id FROM zone_objects o JOIN scans s ON s.id + ${SCAN_REF_BASE} BETWEEN o.first_scan AND o.last_scan
         WHERE o.endpoint = 'migration_status' AND s.status = 'complete' AND json_extract(o.raw, '$.migration_state') = 'complete'`,
      )
      .all() as Array<{ zone_id: string }>;
    return new Set(rows.map((r) => r.zone_id));
  }

  run<T>(sql: string, ...params: unknown[]): T {
    return this.statement(sql).run(...params) as T;
  }

  get<T>(sql: string, ...params: unknown[]): T | undefined {
    return this.statement(sql).get(...params) as T | undefined;
  }

  all<T>(sql: string, ...params: unknown[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  redactRaw(text: string): string {
    return this.redact(text);
  }

  count(table: string, n: number): void {
    this.written[table] = (this.written[table] ?? 0) + n;
  }

  /** Ends the scan: its status and summary land in one transaction, then the WAL is folded in. */
  finish(status: 'complete' | 'incomplete' | 'aborted', summary: unknown): void {
    clearInterval(this.heartbeat);
    this.db
      .prepare('UPDATE scans SET status = ?, finished_at = ?, summary = ? WHERE id = ?')
      .run(status, new Date().toISOString(), JSON.stringify(summary), this.scanId);
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }
}

/** Marks an item this read has already stored. */
const WRITTEN = { pk: -1, hash: '' };

export class PartitionWriter {
  private current: Map<string, { pk: number; hash: string }> | null = null;
  private readonly spec: TableSpec | null;
  items = 0;

  constructor(
    private readonly scan: ScanWriter,
    readonly kind: PartitionKind,
    readonly scopeId: string,
    readonly endpoint: Endpoint,
    /** The last scan that read this partition completely: its versions are the current ones. */
    private readonly lastOk: number | null,
    private readonly lastAttempt: number | null,
  ) {
    this.spec = TABLES[endpoint];
  }

  /** The last scan before this one that read the partition completely. */
  get previousOk(): number | null {
    return this.lastOk;
  }

  private loadCurrent(spec: TableSpec): Map<string, { pk: number; hash: string }> {
    const map = new Map<string, { pk: number; hash: string }>();
    if (this.lastOk === null) return map;
    const where = spec.endpointColumn ? ` AND ${spec.endpointColumn} = ?` : '';
    const params: unknown[] = [this.scopeId, this.lastOk, ...(spec.endpointColumn ? [this.endpoint] : [])];
    const rows = this.scan.all<{ pk: number; item_id: string; hash: string }>(
      `SELECT pk, item_id, hash FROM ${spec.table} WHERE ${spec.scopeColumn} = ? AND last_scan = ?${where}`,
      ...params,
    );
    for (const r of rows) map.set(r.item_id, { pk: r.pk, hash: r.hash });
    return map;
  }

  /** Writes a page of items in one transaction. */
  write(items: ReadonlyArray<unknown>): void {
    const spec = this.spec;
    if (!spec) throw new Error(`${this.endpoint} stores no items`);
    if (items.length === 0) return;
    const current = (this.current ??= this.loadCurrent(spec));
    const scanId = this.scan.ref;
    const extra = spec.endpointColumn ? [spec.endpointColumn] : [];
    const sample = spec.columns({});
    const columns = [...Object.keys(sample), ...extra];
    const insertSql = `INSERT INTO ${spec.table} (${spec.scopeColumn}, item_id, hash, first_scan, last_scan, ${columns.map((c) => `${c}, `).join('')}raw) VALUES (?, ?, ?, ?, ?, ${columns.map(() => '?, ').join('')}?)`;
    this.scan.db.transaction(() => {
      for (const value of items) {
        const item = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
        const id = spec.itemId(item, this.endpoint);
        const existing = current.get(id);
        // An item served twice in one read (pages shift while listing) is stored once.
        if (existing === WRITTEN) continue;
        const raw = this.scan.redactRaw(JSON.stringify(value));
        const hash = sha1(raw);
        if (existing && existing.hash === hash) {
          this.scan.run(`UPDATE ${spec.table} SET last_scan = ? WHERE pk = ?`, scanId, existing.pk);
        } else {
          const cols = spec.columns(item);
          // The columns are copies of the item's fields: a secret the API served back is redacted there as in raw.
          const redacted = (v: string | number | null | undefined) => (typeof v === 'string' ? this.scan.redactRaw(v) : (v ?? null));
          const values = [...Object.keys(sample).map((c) => redacted(cols[c])), ...(spec.endpointColumn ? [this.endpoint] : [])];
          this.scan.run(insertSql, this.scopeId, id, hash, scanId, scanId, ...values, raw);
        }
        current.set(id, WRITTEN);
      }
    })();
    this.items += items.length;
    this.scan.count(spec.table, items.length);
  }

  /** Records what happened to this partition in this scan. */
  finish(outcome: CoverageOutcome): void {
    const scanId = this.scan.ref;
    const o = {
      state: outcome.state,
      http_status: outcome.httpStatus ?? null,
      api_code: outcome.apiCode ?? null,
      error_code: outcome.errorCode ?? null,
      message: outcome.message ?? null,
      pages: outcome.pages,
      items: outcome.items,
      truncated: outcome.truncated ? 1 : 0,
    };
    const hash = sha1(JSON.stringify(o));
    this.scan.db.transaction(() => {
      const current =
        this.lastAttempt === null
          ? undefined
          : this.scan.get<{ pk: number; hash: string }>(
              'SELECT pk, hash FROM coverage WHERE kind = ? AND scope_id = ? AND endpoint = ? AND last_scan = ?',
              this.kind,
              this.scopeId,
              this.endpoint,
              this.lastAttempt,
            );
      if (current && current.hash === hash) {
        this.scan.run('UPDATE coverage SET last_scan = ? WHERE pk = ?', scanId, current.pk);
      } else {
        this.scan.run(
          `INSERT INTO coverage (kind, scope_id, endpoint, hash, first_scan, last_scan, state, http_status, api_code, error_code, message, pages, items, truncated)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          this.kind,
          this.scopeId,
          this.endpoint,
          hash,
          scanId,
          scanId,
          o.state,
          o.http_status,
          o.api_code,
          o.error_code,
          o.message === null ? null : this.scan.redactRaw(o.message),
          o.pages,
          o.items,
          o.truncated,
        );
      }
      this.scan.run(
        `INSERT INTO partitions (kind, scope_id, endpoint, last_attempt_scan, last_ok_scan) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (kind, scope_id, endpoint) DO UPDATE SET last_attempt_scan = excluded.last_attempt_scan,
           last_ok_scan = coalesce(excluded.last_ok_scan, partitions.last_ok_scan)`,
        this.kind,
        this.scopeId,
        this.endpoint,
        scanId,
        outcome.state === 'ok' && !outcome.truncated ? scanId : null,
      );
    })();
  }
}
