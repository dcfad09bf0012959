import { describe, expect, it } from 'vitest';
import { fileFailure } from '../../src/common/file-failure.js';

/** Node's system errors carry `code`, `syscall` and `path` (Node docs: errors, SystemError). */
const systemError = (code: string, syscall: string, path: string) => Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path, errno: -1 });

describe('fileFailure', () => {
  it.each([
    ['EACCES', 'mkdir', '/srv/reports/x', 'cannot create the directory /srv/reports/x: permission denied: run as a user who may write there, or choose another path'],
    ['EPERM', 'mkdir', '/sys/x', 'cannot create the directory /sys/x: not permitted here: choose another path'],
    ['ENOTDIR', 'open', '/tmp/file/report.html', 'cannot open /tmp/file/report.html: a part of the path is a file, not a directory: choose another path'],
    ['EROFS', 'open', '/mnt/ro/findings.json', 'cannot open /mnt/ro/findings.json: the file system is read-only: choose another path'],
    ['ENOENT', 'open', '/etc/zw/waivers.yaml', 'cannot open /etc/zw/waivers.yaml: no such file or directory'],
  ])('names the path and what to do for %s', (code, syscall, path, message) => {
    expect(fileFailure(systemError(code, syscall, path), '/var/lib/zw/zonewarden.db')?.message).toBe(message);
  });

  it("leaves the database's own files to the database's errors", () => {
    for (const path of ['/var/lib/zw/zonewarden.db', '/var/lib/zw/zonewarden.db-wal', '/var/lib/zw/zonewarden.db-shm', '/var/lib/zw/zonewarden.db-journal']) {
      expect(fileFailure(systemError('EACCES', 'open', path), '/var/lib/zw/zonewarden.db')).toBeNull();
    }
  });

  it('is no answer for an error that is not a file system error on a path', () => {
    expect(fileFailure(new Error('boom'), null)).toBeNull();
    expect(fileFailure(Object.assign(new Error('SQLITE_READONLY'), { code: 'SQLITE_READONLY' }), '/db')).toBeNull();
    expect(fileFailure(systemError('ECONNRESET', 'read', '/x'), null)).toBeNull();
  });
});
