import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { Statement } from 'better-sqlite3';
import { HeapCeiling } from '../common/heap.js';
import { PACKAGE } from '../common/package-info.js';
import type { Redact } from '../common/redact.js';
import { endScanInThisProcess, runningScans, scanIsAlive, SnapshotError, type Db } from './db.js';
import { DiskReserve, diskIsFull } from './disk-reserve.js';
import { scanOfRef, scanRef } from './scan-ref.js';
import { normalizeScope, type ScanScope } from './scope.js';
import { TABLES, type Partition, type PartitionKind, type TableSpec } from './tables.js';

/**
 * Writes one scan, a transaction per page of resources: an unchanged one extends its current
 * version to this scan, anything else gets a new version. The scan is complete only at `finish`.
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
  /** Stored pages are garbage V8 lets pile up far past what is live: collected past this ceiling, checked every few pages. */
  private readonly heap = new HeapCeiling(96, 2);
  /** Room for marking the scan aborted when the disk fills (see disk-reserve.ts). */
  private readonly reserve: DiskReserve;

  private constructor(
    readonly db: Db,
    scanId: number,
    private readonly redact: Redact,
  ) {
    this.scanId = scanId;
    this.ref = scanRef(scanId);
    this.reserve = DiskReserve.beside(db.name);
    const beat = db.prepare('UPDATE scans SET heartbeat_at = ? WHERE id = ?');
    this.heartbeat = setInterval(() => {
      try {
        beat.run(new Date().toISOString(), scanId);
      } catch {
        // A heartbeat that cannot be written (a full disk, a lock) is skipped: the scan's own writes report the problem.
      }
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /**
   * Starts a scan, refusing while another live process scans the database: check and insert are one
   * immediate transaction, so two cannot both pass. `summary`: the row's until it ends, redacted.
   */
  static start(db: Db, baseUrl: string, scope: ScanScope, redact: Redact, summary: unknown = null): ScanWriter {
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
            "INSERT INTO scans (started_at, status, base_url, scope, tool_version, pid, host, heartbeat_at, summary) VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?)",
          )
          .run(now, baseUrl, JSON.stringify(normalizeScope(scope)), PACKAGE.version, process.pid, hostname(), now, summary === null ? null : redact(JSON.stringify(summary)));
        return Number(info.lastInsertRowid);
      })
      .immediate();
    return new ScanWriter(db, id, redact);
  }

  /** A statement prepared once per distinct SQL text, for this scan's connection. */
  statement(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  partition(kind: PartitionKind, scopeId: string, partition: Partition): PartitionWriter {
    const row = this.partitionRow(kind, this.storedId(scopeId), partition);
    return new PartitionWriter(this, kind, scopeId, partition, row?.last_ok_scan ?? null, row?.last_attempt_scan ?? null);
  }

  private partitionRow(kind: PartitionKind, stored: string, partition: Partition) {
    const sql = 'SELECT last_attempt_scan, last_ok_scan FROM partitions WHERE kind = ? AND scope_id = ? AND endpoint = ?';
    return this.get<{ last_attempt_scan: number; last_ok_scan: number | null }>(sql, kind, stored, partition);
  }

  /** Zones an account no longer lists (stored ids): their partitions count as attempted, so nothing spans this scan. */
  closeZones(zoneIds: string[]): void {
    const close = this.statement("UPDATE partitions SET last_attempt_scan = ? WHERE kind = 'zone' AND scope_id = ?");
    this.db.transaction(() => {
      for (const id of zoneIds) close.run(this.ref, id);
    })();
  }

  /** Zones of an account at the last complete read of its listing (a scan reference), as stored ids: to find the ones that vanished. */
  zonesOfAccountAt(accountId: string, ref: number): string[] {
    // Valid at that read, not last written by it: a later --zone scan or an aborted scan may have extended the version.
    return (this.statement('SELECT item_id FROM zones WHERE account_id = ? AND first_scan <= ? AND last_scan >= ?').all(this.storedId(accountId), ref, ref) as Array<{ item_id: string }>).map(
      (r) => r.item_id,
    );
  }

  /**
   * Zones (stored ids) this database has seen on the new managed rules only: a stored migration
   * status `complete`, or born on them (no migration state, the new version enabled and the old one
   * not, as the crawler reads a status). Both are for good, so any stored version counts, whatever
   * became of its scan: a token refused one part every night leaves no scan complete, and a status
   * carried for months keeps the range of the scan that read it, which prune may delete.
   */
  migratedZones(): Set<string> {
    const rows = this.db
      .prepare(
        `SELECT DISTINCT o.zone_id FROM zone_objects o
         WHERE o.endpoint = 'migration_status'
           AND (json_extract(o.raw, '$.migration_state') = 'complete'
             OR (coalesce(json_type(o.raw, '$.migration_state'), 'null') <> 'text'
               AND json_extract(o.raw, '$.new_waf_status') = 'enabled'
               AND coalesce(json_extract(o.raw, '$.old_waf_status'), '') <> 'enabled'))`,
      )
      .all() as Array<{ zone_id: string }>;
    return new Set(rows.map((r) => r.zone_id));
  }

  /** Records that something a zone's checks see through this endpoint changed in this scan (see zone_changes). */
  zoneChanged(storedZoneId: string, endpoint: string): void {
    this.statement('INSERT OR IGNORE INTO zone_changes (zone_id, scan_ref, endpoint) VALUES (?, ?, ?)').run(storedZoneId, this.ref, endpoint);
  }

  /**
   * Records that this scan read the zone in full: its turn starts again. At the scan's start, as its
   * row says: reports date a carried zone's data by it once that scan is pruned (report/data-freshness.ts).
   */
  zoneReadInFull(zoneId: string): void {
    this.startedAt ??= this.statement('SELECT started_at FROM scans WHERE id = ?').pluck().get(this.scanId) as string;
    this.statement('INSERT INTO zone_full_reads (zone_id, read_at) VALUES (?, ?) ON CONFLICT (zone_id) DO UPDATE SET read_at = excluded.read_at').run(this.storedId(zoneId), this.startedAt);
  }
  private startedAt: string | undefined;

  /** When each zone (stored id) was last read in full. */
  fullReads(): Map<string, string> {
    const rows = this.statement('SELECT zone_id, read_at FROM zone_full_reads').all() as Array<{ zone_id: string; read_at: string }>;
    return new Map(rows.map((r) => [r.zone_id, r.read_at]));
  }

  /** Whether any scan recorded this partition. */
  hasPartition(kind: PartitionKind, scopeId: string, partition: Partition): boolean {
    return this.partitionRow(kind, this.storedId(scopeId), partition) !== undefined;
  }

  /** The last scan that held an answer for a partition, read or carried (its id); 0 when none did. */
  lastAnswered(kind: PartitionKind, scopeId: string, partition: Partition): number {
    const ref = this.statement("SELECT max(last_scan) FROM coverage WHERE kind = ? AND scope_id = ? AND endpoint = ? AND state = 'ok'").pluck().get(kind, this.storedId(scopeId), partition) as number | null;
    return ref === null ? 0 : scanOfRef(ref);
  }

  /** The scan whose read holds the data carry() would carry forward (its id; it writes nothing); null when it would carry nothing. */
  carrySource(kind: PartitionKind, scopeId: string, partition: Partition): number | null {
    const found = this.carryable(kind, this.storedId(scopeId), partition);
    return found ? scanOfRef(found.dataScan) : null;
  }

  /** The state carry() would carry forward (`ok`, `skipped`...); null when it would carry nothing. */
  carryState(kind: PartitionKind, scopeId: string, partition: Partition): string | null {
    return this.carryable(kind, this.storedId(scopeId), partition)?.last.state ?? null;
  }

  private carryable(kind: PartitionKind, stored: string, partition: Partition) {
    const part = this.partitionRow(kind, stored, partition);
    if (!part || part.last_attempt_scan === this.ref) return null;
    const last = this.statement('SELECT pk, state, truncated, data_scan FROM coverage WHERE kind = ? AND scope_id = ? AND endpoint = ? AND last_scan = ?').get(kind, stored, partition, part.last_attempt_scan) as
      | { pk: number; state: string; truncated: number; data_scan: number | null }
      | undefined;
    // A denied part says nothing of the zone, and a permission granted since is in no audit log: read it again.
    if (!last || last.state === 'failed' || last.state === 'denied' || last.truncated === 1) return null;
    return { last, dataScan: last.data_scan ?? part.last_attempt_scan };
  }

  /**
   * Carries a partition forward unread: this scan's coverage says what the last attempt said and
   * points (data_scan) at the scan whose versions hold the data; no data row is copied. Refused
   * (false) for a partition never read, or whose last attempt failed, was denied or truncated.
   */
  carry(kind: PartitionKind, scopeId: string, partition: Partition): boolean {
    const stored = this.storedId(scopeId);
    const found = this.carryable(kind, stored, partition);
    if (!found) return false;
    const { last, dataScan } = found;
    this.db
      .transaction(() => {
        // Carried from the same read as last night: one row for the whole run of carried nights.
        // Its hash stays the outcome's own, so reading the partition again compares like with like.
        if (last.data_scan === dataScan) {
          this.run('UPDATE coverage SET last_scan = ? WHERE pk = ?', this.ref, last.pk);
        } else {
          this.run(
            `INSERT INTO coverage (kind, scope_id, endpoint, hash, first_scan, last_scan, state, http_status, api_code, error_code, message, pages, items, truncated, data_scan)
             SELECT kind, scope_id, endpoint, hash, ?, ?, state, http_status, api_code, error_code, message, pages, items, truncated, ? FROM coverage WHERE pk = ?`,
            this.ref, this.ref, dataScan, last.pk,
          );
        }
        this.run('UPDATE partitions SET last_attempt_scan = ? WHERE kind = ? AND scope_id = ? AND endpoint = ?', this.ref, kind, stored, partition);
      })
      .immediate();
    return true;
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

  /** The item ids this scan holds for a partition of a zone it read tonight (a list read just before). */
  itemsReadTonight(zoneId: string, partition: Partition): string[] {
    const spec = TABLES[partition];
    if (!spec) throw new Error(`${partition} stores no items`);
    const shared = ofPartition(spec, partition);
    const sql = `SELECT item_id FROM ${spec.table} WHERE ${spec.scopeColumn} = ? AND last_scan = ?${shared.sql}`;
    return this.all<{ item_id: string }>(sql, this.storedId(zoneId), this.ref, ...shared.params).map((r) => r.item_id);
  }

  redactRaw(text: string): string {
    return this.redact(text);
  }

  /** An id as stored: the API's own, with any credential it echoes redacted (REDACTED in its place). */
  storedId(id: string): string {
    return this.redact(id);
  }

  count(table: string, n: number): void {
    this.written[table] = (this.written[table] ?? 0) + n;
    this.heap.check();
  }

  /** Ends the scan in one transaction (the summary, which names zones and quotes errors, redacted), then folds the WAL in. */
  finish(status: 'complete' | 'incomplete' | 'aborted', summary: unknown): void {
    clearInterval(this.heartbeat);
    const mark = () =>
      this.db
        .prepare('UPDATE scans SET status = ?, finished_at = ?, summary = ? WHERE id = ?')
        .run(status, new Date().toISOString(), this.redact(JSON.stringify(summary)), this.scanId);
    try {
      // A write that failed (a full disk) may leave its transaction open: the mark would join it
      // and never be committed. Rolled back, its room in the WAL is free for the mark.
      if (status === 'aborted' && this.db.inTransaction) this.db.exec('ROLLBACK');
      try {
        mark();
      } catch (err) {
        // On a full disk, once more with the reserve given back.
        if (!diskIsFull(err) || !this.reserve.release()) throw err;
        mark();
      }
    } catch (err) {
      // Marking a failed scan aborted can still fail (no reserve could be made, another failure):
      // the row stays `running` with no live writer behind it, and the next start or open marks it aborted.
      if (status !== 'aborted') throw err;
    } finally {
      endScanInThisProcess(this.scanId);
      this.reserve.release();
    }
    // An aborted scan leaves the WAL to the next writer: on a full disk, a checkpoint would grow the
    // database into the room just given back, which the run still needs to record its end.
    if (status === 'aborted') return;
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // The scan's outcome is committed; folding the WAL in is housekeeping the next writer repeats.
    }
  }
}

/** The condition and parameter that pick a partition's rows of a table several partitions share (its endpoint column). */
function ofPartition(spec: TableSpec, partition: Partition): { sql: string; params: Partition[] } {
  return spec.endpointColumn ? { sql: ` AND ${spec.endpointColumn} = ?`, params: [partition] } : { sql: '', params: [] };
}

/** A stored version of an item, as the writer compares it. */
interface Version {
  pk: number;
  hash: string;
  first_scan: number;
  last_scan: number;
}

export class PartitionWriter {
  private readonly spec: TableSpec | null;
  /** The statement of `versions`, prepared at the first page. */
  private lookup: Statement | undefined;
  /** The stored id of this partition's scope: the API's id with credentials redacted. */
  readonly storedScopeId: string;
  items = 0;
  /** Versions this read holds that were not current at the last complete read, and versions current then that it extended. */
  private inserted = 0;
  private extended = 0;
  /** The latest scan (ref) that first stored a version this read holds. */
  private newestFirstScan = 0;

  constructor(
    private readonly scan: ScanWriter,
    readonly kind: PartitionKind,
    readonly scopeId: string,
    readonly partition: Partition,
    /** The last scan before this one that read this partition completely: its versions are the current ones. */
    readonly previousOk: number | null,
    private readonly lastAttempt: number | null,
  ) {
    this.spec = TABLES[partition];
    this.storedScopeId = scan.storedId(scopeId);
  }

  /** Whether this read holds an item other than at the last complete read (a new version). */
  get wroteNewVersion(): boolean {
    return this.inserted > 0;
  }

  /** Whether a version this read holds was first stored after the given scan (by this one, or by one between). */
  storedSince(scanId: number): boolean {
    return this.newestFirstScan > scanRef(scanId);
  }

  /**
   * How the last scan before this one that tried the partition ended (`ok`, `denied`...); null when
   * none did. Asked before this read finishes, which may replace that scan's coverage row.
   */
  previousState(): string | null {
    if (this.lastAttempt === this.scan.ref) return null;
    return this.lastAttemptCoverage()?.state ?? null;
  }

  /** The coverage row of the last scan that tried the partition, if any. */
  private lastAttemptCoverage(): { pk: number; hash: string; data_scan: number | null; state: string } | undefined {
    if (this.lastAttempt === null) return undefined;
    const sql = 'SELECT pk, hash, data_scan, state FROM coverage WHERE kind = ? AND scope_id = ? AND endpoint = ? AND last_scan = ?';
    return this.scan.get(sql, this.kind, this.storedScopeId, this.partition, this.lastAttempt);
  }

  /** The raw JSON of an item (its API id) as stored for a scan (a ref), if it held one. */
  storedRawAt(itemId: string, ref: number): string | undefined {
    const spec = this.spec;
    if (!spec) return undefined;
    const shared = ofPartition(spec, this.partition);
    const valid = `${spec.scopeColumn} = ? AND item_id = ? AND first_scan <= ? AND last_scan >= ?${shared.sql}`;
    const sql = `SELECT raw FROM ${spec.table} WHERE ${valid} LIMIT 1`;
    return this.scan.get<{ raw: string }>(sql, this.storedScopeId, this.scan.storedId(itemId), ref, ref, ...shared.params)?.raw;
  }

  /**
   * The versions of one item this scan may extend, newest first: the one current at the last
   * complete read, and any written since by reads that did not finish (reusing them keeps an
   * interrupted scan from leaving duplicates). Looked up item by item inside the page's
   * transaction, so memory does not grow with the zone; a version pruned meanwhile is written afresh.
   */
  private versions(spec: TableSpec, id: string): Version[] {
    const shared = ofPartition(spec, this.partition);
    this.lookup ??= this.scan.statement(
      `SELECT pk, hash, first_scan, last_scan FROM ${spec.table}
       WHERE ${spec.scopeColumn} = ? AND item_id = ? AND last_scan >= ?${shared.sql} ORDER BY last_scan DESC`,
    );
    return this.lookup.all(this.storedScopeId, id, this.previousOk ?? 0, ...shared.params) as Version[];
  }

  /** Writes a page of items in one transaction. */
  write(items: ReadonlyArray<unknown>): void {
    const spec = this.spec;
    if (!spec) throw new Error(`${this.partition} stores no items`);
    if (items.length === 0) return;
    const scanId = this.scan.ref;
    const extra = spec.endpointColumn ? [spec.endpointColumn] : [];
    const sample = spec.columns({});
    const columns = [...Object.keys(sample), ...extra];
    const insertSql = `INSERT INTO ${spec.table} (${spec.scopeColumn}, item_id, hash, first_scan, last_scan, ${columns.map((c) => `${c}, `).join('')}raw) VALUES (?, ?, ?, ?, ?, ${columns.map(() => '?, ').join('')}?)`;
    this.scan.db.transaction(() => {
      for (const value of items) {
        const item = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
        // Ids are stored redacted like every other field: a server may echo a credential in one.
        const id = this.scan.storedId(spec.itemId(item, this.partition));
        const versions = this.versions(spec, id);
        // An item served twice in one read (pages shift while listing) is stored once.
        if (versions[0]?.last_scan === scanId) continue;
        const raw = this.scan.redactRaw(JSON.stringify(spec.kept ? spec.kept(item) : value));
        const hash = sha1(raw);
        const same = versions.find((v) => v.hash === hash);
        if (same) {
          this.scan.run(`UPDATE ${spec.table} SET last_scan = ? WHERE pk = ?`, scanId, same.pk);
          // Written by a read stopped since the last complete one: new to whoever judged that read.
          if (same.first_scan > (this.previousOk ?? 0)) this.inserted++;
          else this.extended++;
          this.newestFirstScan = Math.max(this.newestFirstScan, same.first_scan);
        } else {
          this.inserted++;
          this.newestFirstScan = scanId;
          const cols = spec.columns(item);
          // The columns are copies of the item's fields: a secret the API served back is redacted there as in raw.
          const redacted = (v: string | number | null | undefined) => (typeof v === 'string' ? this.scan.redactRaw(v) : (v ?? null));
          const values = [...Object.keys(sample).map((c) => redacted(cols[c])), ...ofPartition(spec, this.partition).params];
          this.scan.run(insertSql, this.storedScopeId, id, hash, scanId, scanId, ...values, raw);
        }
      }
      // Immediate: the page's lookups and writes see one state of the file, whoever else writes to it.
    }).immediate();
    this.items += items.length;
    this.scan.count(spec.table, items.length);
  }

  /**
   * Whether this read found the items other than at the last complete read: one stored afresh, or
   * fewer extended than were current then (one vanished). An incomplete read changes its outcome instead.
   */
  private dataChanged(outcome: CoverageOutcome): boolean {
    const spec = this.spec;
    if (!spec || outcome.state !== 'ok') return false;
    if (this.previousOk === null || this.inserted > 0) return true;
    const shared = ofPartition(spec, this.partition);
    const sql = `SELECT count(*) AS n FROM ${spec.table} WHERE ${spec.scopeColumn} = ? AND first_scan <= ? AND last_scan >= ?${shared.sql}`;
    const before = this.scan.get<{ n: number }>(sql, this.storedScopeId, this.previousOk, this.previousOk, ...shared.params);
    return (before?.n ?? 0) !== this.extended;
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
      const current = this.lastAttemptCoverage();
      const sameOutcome = current !== undefined && current.hash === hash;
      if (this.kind === 'zone' && (!sameOutcome || this.dataChanged(outcome))) this.scan.zoneChanged(this.storedScopeId, this.partition);
      // A row carried forward points at older data: this read's row is a new one, even when the outcome is the same.
      if (current && sameOutcome && current.data_scan === null) {
        this.scan.run('UPDATE coverage SET last_scan = ? WHERE pk = ?', scanId, current.pk);
      } else {
        this.scan.run(
          `INSERT INTO coverage (kind, scope_id, endpoint, hash, first_scan, last_scan, state, http_status, api_code, error_code, message, pages, items, truncated)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          this.kind, this.storedScopeId, this.partition, hash, scanId, scanId,
          o.state, o.http_status, o.api_code, o.error_code, o.message === null ? null : this.scan.redactRaw(o.message),
          o.pages, o.items, o.truncated,
        );
      }
      this.scan.run(
        `INSERT INTO partitions (kind, scope_id, endpoint, last_attempt_scan, last_ok_scan) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (kind, scope_id, endpoint) DO UPDATE SET last_attempt_scan = excluded.last_attempt_scan,
           last_ok_scan = coalesce(excluded.last_ok_scan, partitions.last_ok_scan)`,
        this.kind, this.storedScopeId, this.partition, scanId, outcome.state === 'ok' && !outcome.truncated ? scanId : null,
      );
    }).immediate();
  }
}
