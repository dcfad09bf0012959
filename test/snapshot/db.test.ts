import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/common/redact.js';
import { openSnapshot, recoverAbandonedScans, scanIsAlive, SnapshotError, STALE_HEARTBEAT_MS } from '../../src/snapshot/db.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/snapshot/migrations.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { ScanWriter } from '../../src/snapshot/writer.js';
import { thrownBy } from '../support/errors.js';

function dbFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'zw-db-')), 'zonewarden.db');
}

/** What must not change when a database is refused: the bytes and the modification time. */
function fingerprint(path: string): { bytes: string; mtimeMs: number; size: number } {
  const s = statSync(path);
  return { bytes: readFileSync(path).toString('base64'), mtimeMs: s.mtimeMs, size: s.size };
}

/** The pid of a process that has exited: a scan row naming it belongs to no one. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  return r.pid!;
}

function insertRunning(path: string, row: { pid: number; host?: string; heartbeatAt?: string }): number {
  const db = openSnapshot(path);
  try {
    const now = new Date().toISOString();
    const info = db
      .prepare("INSERT INTO scans (started_at, status, base_url, scope, tool_version, pid, host, heartbeat_at) VALUES (?, 'running', 'http://127.0.0.1:1/client/v4', '{\"accounts\":[],\"zones\":[]}', '0.0.0', ?, ?, ?)")
      .run(now, row.pid, row.host ?? hostname(), row.heartbeatAt ?? now);
    return Number(info.lastInsertRowid);
  } finally {
    db.close();
  }
}

const statusOf = (path: string, id: number): string => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT status FROM scans WHERE id = ?').get(id) as { status: string }).status;
  } finally {
    db.close();
  }
};

describe('openSnapshot', () => {
  it('creates the schema in a new file and records its version', () => {
    const path = dbFile();
    const db = openSnapshot(path);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
      for (const t of ['scans', 'partitions', 'coverage', 'zones', 'dns_records', 'certificate_packs', 'firewall_rules', 'filters', 'waf_rules', 'invites', 'baselines']) {
        expect(tables).toContain(t);
      }
    } finally {
      db.close();
    }
    // Opening again migrates nothing and keeps the data.
    const again = openSnapshot(path);
    try {
      expect(again.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    } finally {
      again.close();
    }
  });

  it('migration 6 keeps every coverage row of an older database and admits the state retired', () => {
    const path = dbFile();
    const old = new Database(path);
    for (const m of MIGRATIONS.slice(0, 5)) old.exec(m);
    old.pragma('user_version = 5');
    old.exec(`INSERT INTO coverage (kind, scope_id, endpoint, hash, first_scan, last_scan, state, pages, items, truncated)
              VALUES ('zone', 'z1', 'dns_records', 'h', 1, 3, 'denied', 0, 0, 0)`);
    expect(() => old.exec(`INSERT INTO coverage (kind, scope_id, endpoint, hash, first_scan, last_scan, state, pages, items, truncated)
              VALUES ('zone', 'z1', 'waf_overrides', 'h', 1, 1, 'retired', 0, 0, 0)`)).toThrow(/CHECK/);
    old.close();
    const db = openSnapshot(path);
    try {
      expect(db.prepare('SELECT kind, scope_id, endpoint, state, last_scan FROM coverage').all()).toEqual([
        { kind: 'zone', scope_id: 'z1', endpoint: 'dns_records', state: 'denied', last_scan: 3 },
      ]);
      db.exec(`INSERT INTO coverage (kind, scope_id, endpoint, hash, first_scan, last_scan, state, pages, items, truncated)
               VALUES ('zone', 'z1', 'waf_overrides', 'h', 4, 4, 'retired', 0, 0, 0)`);
      const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'coverage'").all() as Array<{ name: string }>).map((r) => r.name);
      // Migration 6's two, migration 11's index of the parts not read, and migration 12's of the zones read.
      expect(indexes.sort()).toEqual(['coverage_first', 'coverage_partition', 'coverage_unread', 'coverage_zone_rows']);
    } finally {
      db.close();
    }
  });

  it('applies the migrations in one transaction: a failure leaves the file as it was', () => {
    const path = dbFile();
    const raw = new Database(path);
    // A view is not a table, so the file does not look foreign, but its name blocks the last CREATE TABLE.
    raw.exec('CREATE VIEW baselines AS SELECT 1 AS x');
    raw.close();
    expect(() => openSnapshot(path)).toThrow(/baselines/);
    const after = new Database(path, { readonly: true });
    try {
      expect(after.pragma('user_version', { simple: true })).toBe(0);
      expect(after.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get()).toEqual({ n: 0 });
    } finally {
      after.close();
    }
  });

  it('refuses a database written by a newer zonewarden and leaves it untouched', () => {
    const path = dbFile();
    openSnapshot(path).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const before = fingerprint(path);
    const err = thrownBy(() => openSnapshot(path), SnapshotError);
    expect(err.code).toBe('ZW_DB_NEWER');
    expect(err.message).toMatch(/newer zonewarden/);
    expect(err.message).toMatch(/upgrade/);
    expect(thrownBy(() => openSnapshot(path, { readonly: true }), SnapshotError).code).toBe('ZW_DB_NEWER');
    expect(fingerprint(path)).toEqual(before);
  });

  it('refuses a file that is not SQLite and leaves it untouched', () => {
    const path = dbFile();
    writeFileSync(path, randomBytes(8192));
    const before = fingerprint(path);
    const err = thrownBy(() => openSnapshot(path), SnapshotError);
    expect(err.code).toBe('ZW_DB_CORRUPT');
    expect(err.message).toContain(path);
    expect(fingerprint(path)).toEqual(before);
  });

  it("refuses another application's SQLite database and leaves it untouched", () => {
    const path = dbFile();
    const raw = new Database(path);
    raw.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('mine')");
    raw.close();
    const before = fingerprint(path);
    const err = thrownBy(() => openSnapshot(path), SnapshotError);
    expect(err.code).toBe('ZW_DB_FOREIGN');
    expect(fingerprint(path)).toEqual(before);
  });

  it('refuses to open a missing file read-only, without creating it', () => {
    const path = dbFile();
    expect(thrownBy(() => openSnapshot(path, { readonly: true }), SnapshotError).code).toBe('ZW_DB_MISSING');
    expect(() => statSync(path)).toThrow();
  });
});

describe('scans left running', () => {
  it('marks a scan of a dead process aborted on open, and leaves a live one running', () => {
    const path = dbFile();
    const dead = insertRunning(path, { pid: deadPid() });
    const live = insertRunning(path, { pid: process.pid });
    openSnapshot(path).close();
    expect(statusOf(path, dead)).toBe('aborted');
    expect(statusOf(path, live)).toBe('running');
  });

  it('takes a live process with a stale heartbeat for dead (a hung scan)', () => {
    const path = dbFile();
    const stale = insertRunning(path, { pid: process.pid, heartbeatAt: new Date(Date.now() - STALE_HEARTBEAT_MS - 1000).toISOString() });
    const db = openSnapshot(path);
    try {
      expect(statusOf(path, stale)).toBe('aborted');
      expect(recoverAbandonedScans(db)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('trusts only the heartbeat for a scan on another host', () => {
    const now = Date.now();
    const row = { id: 1, pid: deadPid(), host: `${hostname()}-elsewhere` };
    expect(scanIsAlive({ ...row, heartbeat_at: new Date(now - 1000).toISOString() }, now)).toBe(true);
    expect(scanIsAlive({ ...row, heartbeat_at: new Date(now - STALE_HEARTBEAT_MS - 1).toISOString() }, now)).toBe(false);
    expect(scanIsAlive({ id: 1, pid: row.pid, host: hostname(), heartbeat_at: new Date(now).toISOString() }, now)).toBe(false);
  });

  it('refuses a second scan while one is running (ZW_DB_BUSY), and starts once it is gone', () => {
    const path = dbFile();
    const live = insertRunning(path, { pid: process.pid });
    const db = openSnapshot(path);
    try {
      const err = thrownBy(() => ScanWriter.start(db, 'http://127.0.0.1:1/client/v4', { accounts: [], zones: [] }, createRedactor([])), SnapshotError);
      expect(err.code).toBe('ZW_DB_BUSY');
      expect(err.message).toContain(`scan ${live} is already running`);
      expect(db.prepare('SELECT count(*) AS n FROM scans').get()).toEqual({ n: 1 });
      db.prepare('UPDATE scans SET pid = ? WHERE id = ?').run(deadPid(), live);
      // The dead row no longer blocks; starting marks it aborted.
      const writer = ScanWriter.start(db, 'http://127.0.0.1:1/client/v4', { accounts: [], zones: [] }, createRedactor([]));
      expect(writer.scanId).toBe(live + 1);
      expect(statusOf(path, live)).toBe('aborted');
      writer.finish('complete', {});
      expect(new SnapshotReader(db, writer.scanId).scan.status).toBe('complete');
    } finally {
      db.close();
    }
  });

  it('refuses to read a running or aborted scan', () => {
    const path = dbFile();
    const dead = insertRunning(path, { pid: deadPid() });
    const db = openSnapshot(path);
    try {
      expect(thrownBy(() => new SnapshotReader(db, dead), SnapshotError).code).toBe('ZW_SCAN_UNUSABLE');
      expect(thrownBy(() => new SnapshotReader(db, dead + 1), SnapshotError).code).toBe('ZW_SCAN_MISSING');
    } finally {
      db.close();
    }
  });
});

describe('opening a database another process has open in the old journal mode', () => {
  // SQLite docs (sqlite3_busy_handler): the busy handler is not called when a connection holding a
  // shared lock would wait for one holding a reserved lock (either could deadlock the other). The
  // switch to WAL mode is such a wait while another process writes the file in the old mode, as two
  // scans creating one new database do: it answered SQLITE_BUSY at once; opening now waits.
  it('waits for the other to let go, and opens in WAL mode', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'zw-wal-')), 'zonewarden.db');
    // A new, empty database in the default (rollback) journal mode: a table made and dropped.
    new Database(path).exec('CREATE TABLE t (x); DROP TABLE t');
    const { spawn } = await import('node:child_process');
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    // A writer in rollback mode that holds its reserved lock for half a second once it says so.
    const script = `const D=require(${JSON.stringify(require.resolve('better-sqlite3'))});const d=new D(${JSON.stringify(path)});d.exec('BEGIN IMMEDIATE');console.log('held');setTimeout(()=>{d.exec('COMMIT');d.close()},500);`;
    const holder = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout.on('data', (d: Buffer) => d.toString().includes('held') && resolve()));
    const db = openSnapshot(path);
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
      await new Promise((resolve) => holder.on('exit', resolve));
    }
  });
});
