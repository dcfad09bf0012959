import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { snapshotFailure } from './failures.js';
import { SnapshotError } from './snapshot-error.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { processAlive } from '../common/process-alive.js';

// better-sqlite3 reads this once, when it opens its first database: file: URIs let a reader
// open a database immutable (see openReadOnly). Paths given to it are absolute, never `file:`.
process.env['SQLITE_USE_URI'] ??= '1';

export type Db = Database.Database;

// Callers have always found the error here, beside the opening that throws most of them.
export { SnapshotError };

/** A running scan whose heartbeat is older than this is taken as dead (its process was killed). */
export const STALE_HEARTBEAT_MS = 120_000;

export interface OpenOptions {
  /** Open without changing anything: no migrations, no recovery. */
  readonly?: boolean;
}

/**
 * Opens the snapshot database: creates it or brings its schema up to date in one transaction,
 * refuses one written by a newer zonewarden or one that is not ours, and marks scans left
 * running by a killed process as aborted.
 */
export function openSnapshot(path: string, options: OpenOptions = {}): Db {
  if (options.readonly && !existsSync(path)) {
    throw new SnapshotError('ZW_DB_MISSING', `no database at ${path}: run zonewarden scan first, or point --db at one`);
  }
  let db: Db;
  try {
    db = options.readonly ? openReadOnly(path) : new Database(path);
  } catch (err) {
    throw snapshotFailure(err, path) ?? new SnapshotError('ZW_DB_OPEN', `cannot open database ${path}: ${(err as Error).message}`);
  }
  try {
    db.pragma('busy_timeout = 10000');
    const version = readVersion(db, path);
    if (version > SCHEMA_VERSION) {
      throw new SnapshotError(
        'ZW_DB_NEWER',
        `database ${path} was written by a newer zonewarden (schema ${version}; this one knows up to ${SCHEMA_VERSION}): upgrade zonewarden, or use another --db`,
      );
    }
    if (!options.readonly) {
      toWal(db);
      db.pragma('synchronous = NORMAL');
      migrate(db);
      recoverAbandonedScans(db);
    }
    db.pragma('foreign_keys = ON');
    db.function(UTF16_ORDER, { deterministic: true }, utf16Order);
    openedPath = path;
    return db;
  } catch (err) {
    db.close();
    throw snapshotFailure(err, path) ?? err;
  }
}

/**
 * An SQL function whose value sorts as JavaScript compares strings (by UTF-16 code units): SQLite
 * compares text by its UTF-8 bytes, which orders characters from U+E000 against those above U+FFFF
 * (an emoji in a rule's description) the other way. Text as UTF-16 big-endian bytes sorts as
 * JavaScript does; anything else is returned as it is.
 */
export const UTF16_ORDER = 'utf16_order';

function utf16Order(value: unknown): unknown {
  return typeof value === 'string' ? Buffer.from(value, 'utf16le').swap16() : value;
}

/** How long opening waits for another process to let the file switch to WAL: as long as for a lock (busy_timeout). */
const WAL_WAIT_MS = 10_000;

/**
 * Puts the file in WAL mode. Switching needs the file to itself, and while another process writes
 * it in the old mode SQLite answers SQLITE_BUSY at once: it does not call the busy handler when a
 * connection holding a shared lock would wait for one holding a reserved lock (sqlite3_busy_handler:
 * either could deadlock the other). Three processes opening one new database met it about once in
 * 60 opens, and a scan that lost said "another process holds" instead of "scan 1 is already
 * running". Waits as for a lock (busy_timeout), then gives up as a lock does.
 */
function toWal(db: Db): void {
  const deadline = Date.now() + WAL_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY') || Date.now() >= deadline) throw err;
      Atomics.wait(pause, 0, 0, 20);
    }
  }
}

/** The database this process opened last: to name it when a later statement fails (a full disk mid-scan). */
let openedPath: string | null = null;

export function databasePath(): string | null {
  return openedPath;
}

/**
 * An error's one line for a log: a SQLite failure on the database this process opened, named as
 * such. Here rather than in failures.ts because it asks which database this module opened.
 */
export function failureMessage(err: unknown): string {
  const path = databasePath();
  const failure = path === null ? null : snapshotFailure(err, path);
  if (failure) return failure.message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Opens for reading only. A reader that may not write the directory cannot create the shared-
 * memory file a WAL database needs (SQLite answers "attempt to write a readonly database"); when
 * no writer has the file open (no -wal beside it) it is read as immutable instead, which needs
 * no file of its own. A monitoring user can then read what the service account wrote.
 */
function openReadOnly(path: string): Db {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma('schema_version');
    return db;
  } catch (err) {
    db.close();
    const code = (err as { code?: string }).code ?? '';
    if (!code.startsWith('SQLITE_READONLY') && code !== 'SQLITE_CANTOPEN') throw err;
    if (existsSync(`${path}-wal`)) throw err;
    return new Database(`${pathToFileURL(path).href}?immutable=1`, { readonly: true, fileMustExist: true });
  }
}

function readVersion(db: Db, path: string): number {
  let version: number;
  let tables: number;
  try {
    version = db.pragma('user_version', { simple: true }) as number;
    tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_NOTADB') {
      throw new SnapshotError('ZW_DB_CORRUPT', `${path} is not a readable SQLite database (${code}): restore it from a backup, or use another --db`);
    }
    throw err;
  }
  if (version === 0 && tables > 0) {
    throw new SnapshotError('ZW_DB_FOREIGN', `${path} is a SQLite database of something else, not zonewarden's: use another --db`);
  }
  return version;
}

/**
 * Brings the schema up to date. The version is read again inside the write lock: two processes
 * creating the same new database both saw version 0, and the second must find the first's schema
 * instead of creating its tables again.
 */
function migrate(db: Db): void {
  if ((db.pragma('user_version', { simple: true }) as number) === SCHEMA_VERSION) return;
  // A migration that rebuilds a table (the 12 steps of SQLite's ALTER TABLE documentation) drops
  // the old one: with foreign keys on, that would delete the rows of every table referring to it.
  // The pragma cannot change inside a transaction, so it is off around it.
  db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      const from = db.pragma('user_version', { simple: true }) as number;
      for (let v = from; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }).immediate();
  } finally {
    db.pragma('foreign_keys = ON');
  }
}

/**
 * Scans this process wrote and has ended. One whose row still says `running` (it failed, and
 * marking it aborted failed too, e.g. on a full disk) is dead although its pid is alive: the
 * scheduler's next run must not wait for it.
 */
const endedInThisProcess = new Set<number>();

export function endScanInThisProcess(scanId: number): void {
  endedInThisProcess.add(scanId);
}

/** Whether a `running` scan row belongs to a live process (on this host, with a fresh heartbeat). */
export function scanIsAlive(row: { id: number; pid: number; host: string; heartbeat_at: string }, now = Date.now()): boolean {
  const fresh = now - Date.parse(row.heartbeat_at) < STALE_HEARTBEAT_MS;
  if (row.host !== hostname()) return fresh;
  if (row.pid === process.pid && endedInThisProcess.has(row.id)) return false;
  return fresh && processAlive(row.pid);
}

export interface RunningScan {
  id: number;
  pid: number;
  host: string;
  heartbeat_at: string;
}

export function runningScans(db: Db): RunningScan[] {
  return db.prepare("SELECT id, pid, host, heartbeat_at FROM scans WHERE status = 'running'").all() as RunningScan[];
}

/** Scans left `running` by a process that is gone (killed, crashed) become `aborted`. */
export function recoverAbandonedScans(db: Db): number[] {
  const dead = runningScans(db).filter((r) => !scanIsAlive(r));
  const mark = db.prepare("UPDATE scans SET status = 'aborted', finished_at = coalesce(finished_at, heartbeat_at) WHERE id = ? AND status = 'running'");
  for (const r of dead) mark.run(r.id);
  return dead.map((r) => r.id);
}

/**
 * Small page caches until the returned function puts back the ones before. An audit reads each
 * page about once and streams its findings through a temporary table and a sort: SQLite's default
 * caches (16 MB each for the file and the temporary tables, and the sorter's buffers, which follow
 * them) buy it nothing and cost 40 MB at the peak of a 10,000-zone audit.
 */
export function smallPageCache(db: Db): () => void {
  return pageCaches(db, { main: 2000, temp: 2000 });
}

/**
 * A 32 MB page cache for the main file until the returned function puts back the one before: for
 * storing an audit's findings, whose fingerprint index takes them in random order (200,000
 * findings: 2.1 s with a 2 MB cache, 1.0 s with this one).
 */
export function largerPageCache(db: Db): () => void {
  return pageCaches(db, { main: 32000 });
}

/** Sets the page caches of the schemas named (KiB); the returned function puts back the ones before. */
function pageCaches(db: Db, kib: { main?: number; temp?: number }): () => void {
  const schemas = Object.keys(kib) as Array<keyof typeof kib>;
  const before = schemas.map((schema) => [schema, Number(db.pragma(`${schema}.cache_size`, { simple: true }))] as const);
  for (const schema of schemas) db.pragma(`${schema}.cache_size = -${kib[schema]}`);
  return () => {
    for (const [schema, size] of before) db.pragma(`${schema}.cache_size = ${size}`);
  };
}
