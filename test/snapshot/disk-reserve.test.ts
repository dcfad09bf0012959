import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/common/redact.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { DiskReserve, diskIsFull } from '../../src/snapshot/disk-reserve.js';
import { ScanWriter } from '../../src/snapshot/writer.js';

/**
 * The room a scan holds beside the database so that it can still record its abort on a full disk
 * (the full-disk tests in test/cli/snapshot-stress.test.ts meet the disk itself).
 */

function dir(): string {
  return mkdtempSync(join(tmpdir(), 'zw-reserve-'));
}

describe('DiskReserve', () => {
  it('holds a file beside the database until released, and releases it once', () => {
    const path = join(dir(), 'zonewarden.db');
    const reserve = DiskReserve.beside(path);
    expect(statSync(`${path}-reserve`).size).toBe(256 * 1024);
    expect(reserve.release()).toBe(true);
    expect(existsSync(`${path}-reserve`)).toBe(false);
    expect(reserve.release()).toBe(false);
  });

  it('holds nothing for a database in memory or where it cannot write', () => {
    expect(DiskReserve.beside(':memory:').release()).toBe(false);
    expect(DiskReserve.beside('').release()).toBe(false);
    const nowhere = join(dir(), 'missing', 'zonewarden.db');
    expect(DiskReserve.beside(nowhere).release()).toBe(false);
    expect(existsSync(`${nowhere}-reserve`)).toBe(false);
  });

  it('knows a full disk by SQLite’s code and by node’s', () => {
    expect(diskIsFull(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe(true);
    expect(diskIsFull(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }))).toBe(true);
    expect(diskIsFull(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).toBe(false);
    expect(diskIsFull(null)).toBe(false);
  });
});

describe('a scan and its reserve', () => {
  for (const status of ['complete', 'incomplete', 'aborted'] as const) {
    it(`holds the reserve while it writes and leaves nothing beside the database once ${status}`, () => {
      const path = join(dir(), 'zonewarden.db');
      const db = openSnapshot(path);
      try {
        const writer = ScanWriter.start(db, 'http://127.0.0.1:1/client/v4', { accounts: [], zones: [] }, createRedactor([]));
        expect(existsSync(`${path}-reserve`)).toBe(true);
        writer.finish(status, {});
        expect(existsSync(`${path}-reserve`)).toBe(false);
        expect(db.prepare('SELECT status FROM scans WHERE id = ?').get(writer.scanId)).toEqual({ status });
      } finally {
        db.close();
      }
    });
  }
});
