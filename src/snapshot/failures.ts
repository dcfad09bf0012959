import { userInfo } from 'node:os';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SnapshotError } from './snapshot-error.js';
import { diskIsFull } from './disk-reserve.js';

/**
 * SQLite's failures as an operator reads them: what happened to which file and what to do. Codes
 * are SQLite's extended result codes (better-sqlite3's `code`); node's ENOSPC is a full disk too.
 */

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`;
  }
}

/** The newest scans a damaged file still lists, for choosing a backup; empty when that cannot be read either. */
function scansStillListed(path: string): string {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const rows = db.prepare('SELECT id, status, started_at FROM scans ORDER BY id DESC LIMIT 3').all() as Array<{ id: number; status: string; started_at: string }>;
    return rows.length ? `; earlier scans: ${rows.map((r) => `${r.id} (${r.status}, ${r.started_at})`).join(', ')}` : '';
  } catch {
    return '';
  } finally {
    db?.close();
  }
}

/** The one-line error for a SQLite or disk failure on the database at `path`; null when `err` is neither. */
export function snapshotFailure(err: unknown, path: string): SnapshotError | null {
  if (err instanceof SnapshotError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  if (diskIsFull(err)) {
    return new SnapshotError('ZW_DISK_FULL', `the disk holding ${path} is full: free some space there and run again; earlier scans are intact`);
  }
  if (code === 'SQLITE_READONLY_DIRECTORY' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY_CANTINIT') {
    return new SnapshotError(
      'ZW_DB_NOT_WRITABLE',
      `${dirname(path)} (the directory of ${path}) is not writable by user ${currentUser()}: SQLite keeps its journal beside the database; run as the database's owner, or change the directory's permissions`,
    );
  }
  if (code.startsWith('SQLITE_READONLY') || code === 'EACCES' || code === 'EPERM') {
    return new SnapshotError('ZW_DB_NOT_WRITABLE', `${path} is not writable by user ${currentUser()}: run as the database's owner, or change its permissions`);
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new SnapshotError('ZW_DB_LOCKED', `another zonewarden process holds ${path}; try again when it ends`);
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return new SnapshotError('ZW_DB_CORRUPT', `${path} is damaged (${(err as Error).message}): restore it from a backup, or use another --db${scansStillListed(path)}`);
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return new SnapshotError('ZW_DB_IO', `reading or writing ${path} failed (${code}): check the disk and its file system, then run again`);
  }
  return null;
}
