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

/**
 * Opens the snapshot database: creates or migrates it, refuses a newer or foreign one, and marks scans
 * of killed processes aborted. `readonly`: opens without changing anything (no migrations, no recovery).
 */
export function openSnapshot(path: string, options: { readonly?: boolean } = {}): Db {
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
 * An SQL function that sorts as JavaScript compares strings (UTF-16 units): SQLite compares UTF-8
 * bytes, which orders U+E000.. against characters above U+FFFF (an emoji) the other way. UTF-16
 * big-endian bytes sort as JavaScript does; other values are returned as they are.
 */
export const UTF16_ORDER = 'utf16_order';

function utf16Order(value: unknown): unknown {
  return typeof value === 'string' ? Buffer.from(value, 'utf16le').swap16() : value;
}

/** How long opening waits for another process to let the file switch to WAL: as long as for a lock (busy_timeout). */
const WAL_WAIT_MS = 10_000;

/**
 * Puts the file in WAL mode, waiting as for a lock. Switching needs the file to itself, and SQLite
 * answers SQLITE_BUSY at once, without the busy handler, when a shared lock would wait for a reserved
 * one (sqlite3_busy_handler: a deadlock risk). Three processes opening one new database met it once
 * in 60 opens, and the scan that lost said "another process holds" instead of "scan 1 is already running".
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

/** An error's one line for a log, a SQLite failure named as one on the database this process opened. */
export function failureMessage(err: unknown): string {
  const failure = openedPath === null ? null : snapshotFailure(err, openedPath);
  return failure?.message ?? (err instanceof Error ? err.message : String(err));
}

/**
 * Opens for reading only. A reader that may not write the directory cannot create a WAL database's
 * shared-memory file; with no writer (no -wal beside it) the file is read as immutable instead, so a
 * monitoring user can read what the service account wrote.
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
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    const tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
    if (version === 0 && tables > 0) {
      throw new SnapshotError('ZW_DB_FOREIGN', `${path} is a SQLite database of something else, not zonewarden's: use another --db`);
    }
    return version;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_NOTADB') {
      throw new SnapshotError('ZW_DB_CORRUPT', `${path} is not a readable SQLite database (${code}): restore it from a backup, or use another --db`);
    }
    throw err;
  }
}

/** Brings the schema up to date. The version is read again inside the write lock: a second process creating it finds the first's schema. */
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

/** Scans this process ended: one whose row still says `running` (marking it aborted failed too) is dead although its pid lives. */
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
 * Small page caches until the returned function puts back the ones before. An audit reads each page
 * about once: SQLite's default caches (16 MB for the file, 16 for temporary tables, and the sorter's
 * buffers, which follow them) buy it nothing and cost 40 MB at the peak of a 10,000-zone audit.
 */
export function smallPageCache(db: Db): () => void {
  return pageCaches(db, { main: 2000, temp: 2000 });
}

/** A 32 MB page cache to store an audit's findings, taken by their index in random order (200,000: 2.1 s with 2 MB, 1.0 s). */
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
