import { ZonewardenError } from './errors.js';

/**
 * The one-line error for a file system failure on a path other than the database (a report
 * directory, a waivers file, a templates directory): it names that path and what to do, so that a
 * report directory that cannot be made is never taken for a database that cannot be written.
 */
export class FileFailure extends ZonewardenError {
  constructor(message: string, cause: unknown) {
    super('ZW_FILE', message, { cause });
  }
}

const WHAT: Record<string, string> = {
  EACCES: 'permission denied: run as a user who may write there, or choose another path',
  EPERM: 'not permitted here: choose another path',
  EROFS: 'the file system is read-only: choose another path',
  ENOTDIR: 'a part of the path is a file, not a directory: choose another path',
  EISDIR: 'it is a directory, where a file was expected',
  ENOENT: 'no such file or directory',
  EEXIST: 'a file of that name is in the way: choose another path',
  ENAMETOOLONG: 'the path is too long',
  ENOSPC: 'the disk holding it is full: free some space there and run again',
};

/** Null when `err` is not a file system error, or is one on the database (`dbPath` and its -wal, -shm and -journal files). */
export function fileFailure(err: unknown, dbPath: string | null): FileFailure | null {
  const e = err as { code?: unknown; path?: unknown; syscall?: unknown } | null;
  if (!e || typeof e.code !== 'string' || typeof e.path !== 'string' || typeof e.syscall !== 'string') return null;
  const what = WHAT[e.code];
  if (what === undefined) return null;
  if (dbPath !== null && [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, `${dbPath}-journal`].includes(e.path)) return null;
  return new FileFailure(`cannot ${VERBS.get(e.syscall) ?? `${e.syscall} on`} ${e.path}: ${what}`, err);
}

// An open may be for reading (a template, a waivers file) or writing (a report): the error does not say which.
const VERBS = new Map<string, string>([
  ['mkdir', 'create the directory'], ['open', 'open'], ['write', 'write'], ['rename', 'write'], ['copyfile', 'write'],
  ['scandir', 'read'], ['read', 'read'], ['stat', 'read'], ['lstat', 'read'],
]);
