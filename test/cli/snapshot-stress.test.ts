import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { SCHEMA_VERSION } from '../../src/snapshot/migrations.js';
import { SnapshotReader, type Readout } from '../../src/snapshot/reader.js';
import { scanRef } from '../../src/snapshot/scan-ref.js';
import { caseDataset } from '../support/case-dataset.js';
import { CLI, exited, runCliProcess } from '../support/cli.js';
import { cliProcessesKilledAfterEach, peek, statusOf, waitFor } from '../support/cli-processes.js';
import { echoingDataset } from '../support/canary-dataset.js';
import { reportText } from '../support/files.js';
import { emulatorsClosedAfterEach, TOKEN } from '../support/http.js';

/**
 * The snapshot as an operator running zonewarden as a service meets it: a prune while a scan
 * runs, a scan interrupted and run again, credentials echoed in ids, a full disk, a user who may
 * only read, a damaged or locked file, two processes creating one database. Each command is the
 * built CLI in its own process, as the service runs it (npm run test:full).
 */

const emulator = emulatorsClosedAfterEach();
const ENV = { ZONEWARDEN_API_TOKEN: TOKEN };
const spawnCli = cliProcessesKilledAfterEach(ENV);

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'zw-stress-'));
  chmodSync(dir, 0o755);
  return dir;
}

function dbFile(): string {
  return join(tempDir(), 'zonewarden.db');
}

function scanArgs(emu: RunningEmulator, path: string, ...extra: string[]): string[] {
  return ['scan', '--base-url', emu.url, '--db', path, '--budget', '1000000', '--quiet', ...extra];
}

function withDb<T>(path: string, fn: (db: Db) => T): T {
  const db = openSnapshot(path, { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

function count(path: string, table: string): number {
  return peek(path, (db) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
}

function items<T>(r: Readout<T>): T[] {
  if (!r.known) throw new Error(r.reason);
  return r.items;
}

/** The scan holds every DNS record, rule and filter the emulator serves. */
function expectMatchesServed(emu: RunningEmulator, path: string, scanId: number): void {
  withDb(path, (db) => {
    const reader = new SnapshotReader(db, scanId);
    const served = emu.org.visibleZones();
    expect(reader.zones().map((z) => z.id).sort()).toEqual(served.map((z) => z.id).sort());
    for (const z of served) {
      expect(items(reader.dnsRecords(z.id)), z.name).toHaveLength(z.dns.size);
      expect(items(reader.firewallRules(z.id)), z.name).toHaveLength(z.firewallRules.size);
      expect(items(reader.filters(z.id)), z.name).toHaveLength(z.filters.size);
    }
  });
}

function fingerprint(path: string): { bytes: string; mtimeMs: number } {
  return { bytes: readFileSync(path).toString('base64'), mtimeMs: statSync(path).mtimeMs };
}

/** Zones of 2,500 records: two pages of DNS records each (5,000 per page, as the crawler asks), so a scan can be cut inside one. */
const PAGED = { seed: 21, accounts: 1, zones: 6, records: 15_000 };

describe('prune while a scan runs', () => {
  it('refuses with one line and deletes nothing; the scan completes with every record', async () => {
    const fast = await emulator({ dataset: 'generated', generated: PAGED });
    const slow = await emulator({ dataset: 'generated', generated: PAGED, latencyMs: 150 });
    const path = dbFile();
    for (let i = 0; i < 2; i++) expect((await runCliProcess(scanArgs(fast, path), ENV)).code).toBe(0);
    const { child, output } = spawnCli(scanArgs(slow, path, '--concurrency', '2'));
    await waitFor('the scan to be part-way', () => statusOf(path, 3) === 'running' && count(path, 'partitions') > 0);

    const prune = await runCliProcess(['prune', '--keep', '1', '--db', path], ENV);
    expect(prune.code).toBe(2);
    expect(prune.stderr.trim().split('\n')).toHaveLength(1);
    expect(prune.stderr).toMatch(/^zonewarden prune: scan 3 is running on this database \(pid \d+ on .+\); prune when it ends, nothing was deleted$/m);
    expect(peek(path, (db) => db.prepare('SELECT id FROM scans ORDER BY id').all())).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);

    expect(await exited(child), output().stderr).toBe(0);
    expect(statusOf(path, 3)).toBe('complete');
    expectMatchesServed(slow, path, 3);
    // Once the scan has ended, prune goes ahead and the kept scan still reads whole.
    expect((await runCliProcess(['prune', '--keep', '1', '--db', path, '--quiet'], ENV)).code).toBe(0);
    expectMatchesServed(slow, path, 3);
  });
});

describe('an interrupted scan', () => {
  it('leaves no duplicate rows behind: interrupt + rescan stores what an undisturbed rescan stores', async () => {
    const fast = await emulator({ dataset: 'generated', generated: PAGED });
    const slow = await emulator({ dataset: 'generated', generated: PAGED, latencyMs: 400 });
    const control = dbFile();
    for (let i = 0; i < 2; i++) expect((await runCliProcess(scanArgs(fast, control), ENV)).code).toBe(0);

    const path = dbFile();
    expect((await runCliProcess(scanArgs(fast, path), ENV)).code).toBe(0);
    const { child } = spawnCli(scanArgs(slow, path, '--concurrency', '3'));
    // Cut it when some zone has stored its first page of DNS records and not yet finished the list.
    const midList = () =>
      statusOf(path, 2) === 'running' &&
      peek(path, (db) => {
        const extended = db.prepare('SELECT DISTINCT zone_id FROM dns_records WHERE last_scan = ?').all(scanRef(2)) as Array<{ zone_id: string }>;
        const done = db.prepare("SELECT scope_id FROM partitions WHERE endpoint = 'dns_records' AND last_ok_scan = ?").all(scanRef(2)) as Array<{ scope_id: string }>;
        return extended.some((z) => !done.some((d) => d.scope_id === z.zone_id));
      });
    await waitFor('a zone part-way through its DNS records', midList);
    child.kill('SIGINT');
    expect(await exited(child)).toBe(2);
    expect(statusOf(path, 2)).toBe('aborted');

    expect((await runCliProcess(scanArgs(fast, path), ENV)).code).toBe(0);
    for (const table of ['dns_records', 'firewall_rules', 'filters', 'zones', 'certificate_packs']) {
      expect(count(path, table), table).toBe(count(control, table));
    }
    expectMatchesServed(fast, path, 3);
  });
});

describe('credentials echoed in ids', () => {
  const secrets = { token: 'zw-canary-token-5e1f0c7a93', email: 'canary-7d2b@example.net', key: 'zw-canary-key-0b94e6d1c8' };

  it.each([
    ['a token', { ZONEWARDEN_API_TOKEN: secrets.token }, [secrets.token]],
    ['a key pair', { ZONEWARDEN_API_EMAIL: secrets.email, ZONEWARDEN_API_KEY: secrets.key }, [secrets.key, secrets.email]],
  ])('never stores or reports %s, in ids as elsewhere', async (_kind, env, canaries) => {
    const emu = await emulator({ dataset: echoingDataset(canaries[0]!), token: secrets.token, email: secrets.email, key: secrets.key });
    const dir = tempDir();
    const path = join(dir, 'zonewarden.db');
    const out = join(dir, 'reports');
    const r = await runCliProcess(['run', '--base-url', emu.url, '--db', path, '--budget', '1000000', '--out', out, '--format', 'html,md,json,csv', '--fail-on', 'none'], env);
    expect(r.code, r.stderr).toBe(0);
    const stored = peek(path, (db) => db.prepare('SELECT item_id, zone_id FROM dns_records').all());
    expect(stored).toEqual([{ item_id: 'rec-[redacted]', zone_id: 'zone-[redacted]' }]);
    const text = reportText(out);
    // The findings are there, on the redacted ids: a private address in public DNS, a pending zone.
    expect(text).toContain('rec-[redacted]');
    expect(text).toContain('zone-[redacted]');
    for (const canary of canaries) {
      expect(r.stdout + r.stderr).not.toContain(canary);
      for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) expect(readFileSync(file).includes(canary), file).toBe(false);
      expect(text).not.toContain(canary);
    }
  });
});

/**
 * Lets other users traverse (not list) every directory above the CLI for the duration of a test,
 * so that nobody can load it from a checkout in a private directory (a clone under mktemp -d);
 * the modes are restored after the test.
 */
function traversableByOthers(): () => void {
  const changed: Array<[string, number]> = [];
  for (let dir = dirname(CLI); ; dir = dirname(dir)) {
    const mode = statSync(dir).mode & 0o7777;
    if ((mode & 0o001) === 0) {
      chmodSync(dir, mode | 0o001);
      changed.push([dir, mode]);
    }
    if (dirname(dir) === dir) break;
  }
  return () => {
    for (const [dir, mode] of changed) chmodSync(dir, mode);
  };
}

describe('status and the other read commands for a user who may only read', () => {
  const NOBODY = 65534;
  let restoreModes: () => void = () => {};
  beforeAll(() => {
    restoreModes = traversableByOthers();
  });
  afterAll(() => restoreModes());

  it('read the database without writing to it, and the writing commands say who may not write what', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const dir = tempDir();
    const path = join(dir, 'zonewarden.db');
    // Two audited scans, for diff to compare.
    for (let i = 0; i < 2; i++) expect((await runCliProcess(['run', '--base-url', emu.url, '--db', path, '--budget', '1000000', '--out', join(dir, 'reports'), '--quiet', '--fail-on', 'none'], ENV)).code).toBe(0);
    chmodSync(path, 0o644);
    const before = fingerprint(path);
    const asReader = (args: string[]) =>
      spawnSync(process.execPath, [CLI, ...args, '--db', path], { uid: NOBODY, gid: NOBODY, cwd: tmpdir(), env: { PATH: process.env['PATH'], ...ENV }, encoding: 'utf8' });
    for (const args of [['status'], ['log'], ['baseline', 'list'], ['diff', '--quiet']]) {
      const r = asReader(args);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr).toBe('');
    }
    const reports = join(tempDir(), 'theirs');
    chmodSync(join(reports, '..'), 0o777);
    const report = asReader(['report', '--out', reports, '--quiet']);
    expect(report.status, report.stderr).toBe(0);
    expect(existsSync(join(reports, 'index.html'))).toBe(true);

    const audit = asReader(['audit', '--quiet']);
    expect(audit.status).toBe(2);
    expect(audit.stderr.trim()).toBe(`zonewarden audit: ${dir} (the directory of ${path}) is not writable by user nobody: SQLite keeps its journal beside the database; run as the database's owner, or change the directory's permissions`);
    expect(fingerprint(path)).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(['reports', 'zonewarden.db']);

    // A directory anyone may write, a file only its owner may: the file is named.
    const shared = tempDir();
    chmodSync(shared, 0o777);
    const copy = join(shared, 'zonewarden.db');
    writeFileSync(copy, readFileSync(path));
    chmodSync(copy, 0o444);
    const onCopy = spawnSync(process.execPath, [CLI, 'audit', '--quiet', '--db', copy], { uid: NOBODY, gid: NOBODY, cwd: tmpdir(), env: { PATH: process.env['PATH'] }, encoding: 'utf8' });
    expect(onCopy.status).toBe(2);
    expect(onCopy.stderr.trim()).toBe(`zonewarden audit: ${copy} is not writable by user nobody: run as the database's owner, or change its permissions`);
  });

  it('of an earlier schema: status reads it as it is, and a read command that must bring it up to date says so', () => {
    const dir = tempDir();
    const path = join(dir, 'zonewarden.db');
    // A database written before the last migration (13 empties the CAA content earlier versions invented).
    openSnapshot(path).close();
    const older = new Database(path);
    older.pragma(`user_version = ${SCHEMA_VERSION - 1}`);
    older.close();
    chmodSync(path, 0o644);
    const before = fingerprint(path);
    const asReader = (args: string[]) => spawnSync(process.execPath, [CLI, ...args, '--db', path], { uid: NOBODY, gid: NOBODY, cwd: tmpdir(), env: { PATH: process.env['PATH'] }, encoding: 'utf8' });
    const status = asReader(['status']);
    expect(status.stderr).toBe('');
    const out = tempDir();
    chmodSync(out, 0o777);
    const report = asReader(['report', '--out', join(out, 'r'), '--quiet']);
    expect(report.status).toBe(2);
    expect(report.stderr.trim()).toBe(
      `zonewarden report: ${path} was written by an earlier zonewarden (schema ${SCHEMA_VERSION - 1}; this one reads ${SCHEMA_VERSION}) and must be brought up to date first, which writes to it: ${dir} (the directory of ${path}) is not writable by user nobody; run any command that writes (zonewarden audit) once as the database's owner, then read it as any user`,
    );
    expect(fingerprint(path)).toEqual(before);
  });
});

describe('SQLite failures as messages', () => {
  it('a damaged database: restore from a backup, naming the scans it still lists; a read command leaves it as it is', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const path = dbFile();
    for (let i = 0; i < 2; i++) expect((await runCliProcess(['run', '--base-url', emu.url, '--db', path, '--budget', '1000000', '--quiet', '--fail-on', 'none', '--out', join(tempDir(), 'r')], ENV)).code).toBe(0);
    // Garble the first page of the findings table, leaving the file's header and the scans table readable.
    const root = peek(path, (db) => (db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'findings'").get() as { rootpage: number }).rootpage);
    const bytes = readFileSync(path);
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0x5a, (root - 1) * pageSize, root * pageSize);
    writeFileSync(path, bytes);
    const before = fingerprint(path);

    const report = await runCliProcess(['report', '--db', path, '--out', join(tempDir(), 'r'), '--quiet'], ENV);
    expect(report.code).toBe(2);
    expect(report.stderr.trim().split('\n')).toHaveLength(1);
    expect(report.stderr).toMatch(/^zonewarden report: .*zonewarden\.db is damaged \(.*malformed.*\): restore it from a backup, or use another --db; earlier scans: 2 \(complete, .+\), 1 \(complete, .+\)$/m);
    expect(fingerprint(path)).toEqual(before);
  });

  it('a database another process holds: try again when it ends', async () => {
    const path = dbFile();
    // Created, then held by a write transaction of another connection.
    openSnapshot(path).close();
    const holder = new Database(path);
    try {
      holder.exec('BEGIN EXCLUSIVE');
      const r = await runCliProcess(['prune', '--keep', '1', '--db', path], ENV);
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(`zonewarden prune: another zonewarden process holds ${path}; try again when it ends`);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('two scans creating one new database: one runs, the other is told it is already running', async () => {
    const slow = await emulator({ dataset: caseDataset(), latencyMs: 100 });
    for (let attempt = 0; attempt < 3; attempt++) {
      const path = dbFile();
      const [a, b] = await Promise.all([runCliProcess(scanArgs(slow, path), ENV), runCliProcess(scanArgs(slow, path), ENV)]);
      const codes = [a.code, b.code].sort();
      expect(codes, a.stderr + b.stderr).toEqual([0, 2]);
      const refused = a.code === 2 ? a : b;
      expect(refused.stderr.trim()).toMatch(/^zonewarden scan: scan 1 is already running on this database \(pid \d+ on .+\); wait for it to finish, or use another --db$/);
      expect(refused.stderr).not.toContain('already exists');
    }
  });
});

describe('a full disk', () => {
  // A small tmpfs: SQLite meets ENOSPC as it would on a real disk (this needs the right to mount).
  // Room for a new database (its schema) and the start of a run, not for a scan of 8,000 records.
  // Schema 12's indexes left 2 MB too little room for the scan to record that it aborted.
  const disk = join(tmpdir(), `zw-full-${process.pid}`);
  beforeAll(() => {
    mkdirSync(disk, { recursive: true });
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', disk], { encoding: 'utf8' });
    if (mounted.status !== 0) throw new Error(`these tests mount a 3 MB tmpfs at ${disk} and could not: ${mounted.stderr.trim()}`);
  });
  afterAll(() => {
    spawnSync('umount', [disk]);
    rmSync(disk, { recursive: true, force: true });
  });
  afterEach(() => {
    for (const name of readdirSync(disk)) rmSync(join(disk, name), { recursive: true, force: true });
  });

  it('ends scan and run with exit 2 and one line, the scan aborted', async () => {
    const emu = await emulator({ dataset: 'generated', generated: { seed: 3, accounts: 2, zones: 20, records: 8000 } });
    const path = join(disk, 'zonewarden.db');
    const scan = await runCliProcess(scanArgs(emu, path), ENV);
    expect(scan.code).toBe(2);
    expect(scan.stderr.trim()).toBe(`zonewarden scan: scan 1 aborted: the disk holding ${path} is full: free some space there and run again; earlier scans are intact`);
    expect(statusOf(path, 1)).toBe('aborted');

    const run = await runCliProcess(['run', '--base-url', emu.url, '--db', path, '--budget', '1000000', '--quiet', '--out', join(disk, 'reports')], ENV);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`the disk holding ${path} is full`);
    expect(run.stderr).not.toContain('unexpected');
  });

  it('the scheduler logs each failed run and keeps running', async () => {
    const emu = await emulator({ dataset: 'generated', generated: { seed: 3, accounts: 2, zones: 20, records: 8000 } });
    const path = join(disk, 'zonewarden.db');
    const { child, output } = spawnCli(['schedule', '--cron', '*/2 * * * * *', '--run-now', '--base-url', emu.url, '--db', path, '--budget', '1000000', '--quiet', '--out', join(tempDir(), 'reports')]);
    const events = () => output().stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const failures = () => events().filter((e) => e['event'] === 'run' || e['event'] === 'error');
    await waitFor('a failed run and two more failed ticks', () => failures().length >= 3 && failures().some((e) => e['event'] === 'run'));
    expect(child.exitCode).toBeNull();
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    // The first run got as far as its scan and is logged whole; later ones cannot even record that
    // they began, and a tick during the first run may fail to record the next one before it ends.
    expect(failures().find((e) => e['event'] === 'run')).toMatchObject({ event: 'run', outcome: 'failed', exitCode: 2, scan: { id: 1, status: 'aborted' }, error: expect.stringContaining(`the disk holding ${path} is full`) });
    for (const e of failures()) expect(String(e['error'] ?? e['message'])).toContain(`the disk holding ${path} is full`);
    expect(events().at(-1)).toMatchObject({ event: 'stopped' });
    expect(output().stderr).not.toMatch(/not open|unexpected|Uncaught/);
  });

  it('a report that cannot be written says so and leaves no .partial file', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const path = dbFile();
    expect((await runCliProcess(['run', '--base-url', emu.url, '--db', path, '--budget', '1000000', '--quiet', '--fail-on', 'none', '--out', join(tempDir(), 'r')], ENV)).code).toBe(0);
    // The disk filled but for 64 KB: less than the reports need.
    const { bavail, bsize } = statfsSync(disk);
    writeFileSync(join(disk, 'filler'), Buffer.alloc(bavail * bsize - 64 * 1024));
    const out = join(disk, 'reports');
    const r = await runCliProcess(['report', '--db', path, '--out', out], ENV);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(new RegExp(`^zonewarden report: the disk holding ${out}/.+ is full: free some space there, or write the reports elsewhere with --out$`));
    const left = readdirSync(out, { recursive: true }).map(String);
    expect(left.filter((f) => f.endsWith('.partial'))).toEqual([]);
  });
});
