import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import Database from 'better-sqlite3';
import { ZonewardenError } from '../shared/errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { processAlive } from '../shared/process-alive.js';

export type Db = Database.Database;

/** The database cannot be used: missing, not ours, corrupt, newer, or busy. */
export class SnapshotError extends ZonewardenError {
  constructor(code: string, message: string) {
    super(code, message);
  }
}

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
    db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  } catch (err) {
    throw new SnapshotError('ZW_DB_OPEN', `cannot open database ${path}: ${(err as Error).message}`);
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
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      migrate(db, version);
      recoverAbandonedScans(db);
    }
    db.pragma('foreign_keys = ON');
    return db;
  } catch (err) {
    db.close();
    throw err;
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
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new SnapshotError('ZW_DB_CORRUPT', `${path} is not a readable SQLite database (${code}): restore it from a backup, or use another --db`);
    }
    throw err;
  }
  if (version === 0 && tables > 0) {
    throw new SnapshotError('ZW_DB_FOREIGN', `${path} is a SQLite database of something else, not zonewarden's: use another --db`);
  }
  return version;
}

function migrate(db: Db, from: number): void {
  if (from === SCHEMA_VERSION) return;
  db.transaction(() => {
    for (let v = from; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/** Whether a `running` scan row belongs to a live process (on this host, with a fresh heartbeat). */
export function scanIsAlive(row: { pid: number; host: string; heartbeat_at: string }, now = Date.now()): boolean {
  const fresh = now - Date.parse(row.heartbeat_at) < STALE_HEARTBEAT_MS;
  if (row.host !== hostname()) return fresh;
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
