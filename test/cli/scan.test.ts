import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { SCHEMA_VERSION } from '../../src/snapshot/migrations.js';
import { SnapshotReader, type Readout } from '../../src/snapshot/reader.js';
import { scanRef } from '../../src/snapshot/scan-ref.js';
import { caseDataset } from '../support/case-dataset.js';
import { exited, runCli } from '../support/cli.js';
import { cliProcessesKilledAfterEach, peek, statusOf, waitFor } from '../support/cli-processes.js';
import { emulatorsClosedAfterEach, TOKEN, zoneId } from '../support/http.js';

const emulator = emulatorsClosedAfterEach();

function dbFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'zw-cli-scan-')), 'zonewarden.db');
}

const ENV = { ZONEWARDEN_API_TOKEN: TOKEN };
const spawnCli = cliProcessesKilledAfterEach(ENV);

/** The default budget paces a request every 300 ms, as a shared production quota needs; the emulator needs none. */
function scanArgs(emu: RunningEmulator, path: string, ...extra: string[]): string[] {
  return ['scan', '--base-url', emu.url, '--db', path, '--budget', '1000000', ...extra];
}

function withDb<T>(path: string, fn: (db: Db) => T, readonly = false): T {
  const db = openSnapshot(path, { readonly });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

function items<T>(r: Readout<T>): T[] {
  if (!r.known) throw new Error(r.reason);
  return r.items;
}

/** What a reader gives for every zone, in a comparable form. */
function dump(db: Db, scanId: number): Record<string, unknown> {
  const reader = new SnapshotReader(db, scanId);
  const ids = <T extends { id: string; raw: string }>(r: Readout<T>) => (r.known ? r.items.map((i) => `${i.id}:${i.raw.length}`).sort() : r.state);
  return Object.fromEntries(
    reader.zones().map((z) => [
      z.name,
      [ids(reader.dnsRecords(z.id)), ids(reader.certificatePacks(z.id)), ids(reader.firewallRules(z.id)), ids(reader.filters(z.id)), ids(reader.wafRules(z.id))],
    ]),
  );
}

function expectMatchesServed(emu: RunningEmulator, db: Db, scanId: number): void {
  const reader = new SnapshotReader(db, scanId);
  const served = emu.org.visibleZones();
  expect(reader.zones().map((z) => z.id).sort()).toEqual(served.map((z) => z.id).sort());
  for (const z of served) {
    expect(items(reader.dnsRecords(z.id)), z.name).toHaveLength(z.dns.size);
    expect(items(reader.certificatePacks(z.id)), z.name).toHaveLength(z.certificatePacks.length);
    expect(items(reader.firewallRules(z.id)), z.name).toHaveLength(z.firewallRules.size);
    expect(items(reader.filters(z.id)), z.name).toHaveLength(z.filters.size);
  }
}

function fingerprint(path: string): { bytes: string; mtimeMs: number } {
  return { bytes: readFileSync(path).toString('base64'), mtimeMs: statSync(path).mtimeMs };
}

const GENERATED = { seed: 11, accounts: 2, zones: 24, records: 2400 };

/**
 * What a scan printed once it ended: its stderr without the progress lines a scan writes every
 * 10 s off a terminal (`scan: 3/22 zones · ...`), which a busy machine makes appear before the summary.
 */
const afterProgress = (stderr: string) => stderr.replace(/^scan: .*\n/gm, '');

describe('zonewarden scan', () => {
  it('prints the scan id and a summary, or the summary as JSON with --format json', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const path = dbFile();
    const text = await runCli(scanArgs(emu, path), ENV);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe('1\n');
    // The tests' organisation's 22 visible zones.
    expect(afterProgress(text.stderr)).toMatch(/^scan 1 complete in (\d+m)?\d+s: \d+ accounts, 22 zones, \d+ DNS records/);
    expect(text.stderr).not.toContain('missing');

    emu.resetStats();
    const json = await runCli(scanArgs(emu, path, '--format', 'json', '--quiet'), ENV);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe('');
    const summary = JSON.parse(json.stdout);
    const zones = emu.org.visibleZones();
    expect(summary).toMatchObject({ scanId: 2, status: 'complete', zones: 22, missing: [], notPermitted: [] });
    expect(summary.counts.dns_records).toBe(zones.reduce((n: number, z) => n + z.dns.size, 0));
    expect(summary.counts.firewall_rules).toBe(zones.reduce((n: number, z) => n + z.firewallRules.size, 0));
    expect(summary.requests).toMatchObject({ total: emu.stats().requests.total, retries: 0, rateLimited: 0 });
    expect(summary.requests.bytes).toBeGreaterThan(0);
    withDb(path, (db) => expect(new SnapshotReader(db, 2).scan.summary).toEqual(summary), true);
  });

  it('exits 3 when an endpoint always fails, naming what is missing and keeping the rest', async () => {
    const emu = await emulator({ dataset: caseDataset(), failRoutes: ['GET /zones/{zone_id}/filters'] });
    const path = dbFile();
    const r = await runCli(scanArgs(emu, path, '--retries', '0'), ENV);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toBe('1\n');
    const zones = emu.org.visibleZones();
    expect(afterProgress(r.stderr)).toMatch(/^scan 1 incomplete/);
    expect(r.stderr).toContain(`missing (${zones.length}); checks that need these parts will say "unknown":`);
    // The tests' organisation's 22 visible zones: more than the 20 parts the
    // text lists, so it names 20 distinct zones and counts the rest; the coverage rows below hold all.
    expect(zones).toHaveLength(22);
    const listed = r.stderr.split('\n').filter((l) => l.startsWith('  - '));
    expect(listed).toHaveLength(20);
    const names = zones.map((z) => z.name);
    const named = listed.map((l) => /^ {2}- zone (\S+): filters \(failed\): /.exec(l)?.[1]);
    for (const name of named) expect(names).toContain(name);
    expect(new Set(named).size).toBe(20);
    expect(r.stderr).toContain(`  ... and ${zones.length - 20} more (--format json lists all)\n`);
    withDb(path, (db) => {
      const rows = db.prepare("SELECT state, http_status FROM coverage WHERE endpoint = 'filters'").all();
      expect(rows).toHaveLength(zones.length);
      expect(rows.every((row) => (row as { state: string; http_status: number }).state === 'failed' && (row as { http_status: number }).http_status === 500)).toBe(true);
      const reader = new SnapshotReader(db, 1);
      expect(reader.scan.status).toBe('incomplete');
      for (const z of zones) {
        expect(reader.filters(z.id)).toMatchObject({ known: false, state: 'failed' });
        expect(reader.dnsRecords(z.id).known).toBe(true);
        expect(reader.firewallRules(z.id).known).toBe(true);
        expect(reader.certificatePacks(z.id).known).toBe(true);
        expect(reader.zoneObject(z.id, 'migration_status').known).toBe(true);
      }
    });
  });

  it('survives kill -9 mid-scan: the earlier scan stays intact, the killed one becomes aborted, the next one completes', async () => {
    const fast = await emulator({ dataset: 'generated', generated: GENERATED });
    const slow = await emulator({ dataset: 'generated', generated: GENERATED, latencyMs: 50 });
    const path = dbFile();
    const first = await runCli(scanArgs(fast, path), ENV);
    expect(first.code, first.stderr).toBe(0);
    const before = withDb(path, (db) => dump(db, 1), true);
    const partitions = peek(path, (db) => (db.prepare('SELECT count(*) AS n FROM partitions').get() as { n: number }).n);

    const { child } = spawnCli(scanArgs(slow, path, '--concurrency', '2'));
    const touched = () => peek(path, (db) => (db.prepare('SELECT count(*) AS n FROM partitions WHERE last_attempt_scan = ?').get(scanRef(2)) as { n: number }).n);
    await waitFor('the second scan to be part-way', () => touched() >= 20);
    child.kill('SIGKILL');
    await exited(child);
    expect(touched()).toBeLessThan(partitions);

    expect(statusOf(path, 2)).toBe('running');
    // `status` only reads, and tells the killed scan from a running one: interrupted, last heard from at its heartbeat.
    const heard = peek(path, (db) => (db.prepare('SELECT heartbeat_at FROM scans WHERE id = 2').get() as { heartbeat_at: string }).heartbeat_at);
    const json = await runCli(['status', '--db', path, '--format', 'json'], ENV);
    expect(json.code, json.stderr).toBe(1);
    const view = JSON.parse(json.stdout) as { lastScan: unknown; problems: string[] };
    expect(view.lastScan).toMatchObject({ id: 2, status: 'interrupted', finishedAt: null, lastHeardAt: heard });
    expect(view.problems).toEqual([`the last scan (2) was interrupted: its process is gone, last heard from at ${heard}; the next scan or run records it as aborted`]);
    const text = await runCli(['status', '--db', path], ENV);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`last scan 2 was interrupted (its process is gone, last heard from at ${heard};`);
    expect(text.stdout).not.toContain('is running');
    expect(statusOf(path, 2)).toBe('running');
    withDb(path, (db) => expect(dump(db, 1)).toEqual(before), true);
    // The next open finds the scan's process gone.
    withDb(path, () => undefined);
    expect(statusOf(path, 2)).toBe('aborted');

    const next = await runCli(scanArgs(fast, path), ENV);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toBe('3\n');
    withDb(path, (db) => {
      expect(dump(db, 1)).toEqual(before);
      expectMatchesServed(fast, db, 3);
      expect(dump(db, 3)).toEqual(before);
    });
  });

  it('refuses a second scan of the same database while one runs, and stops cleanly on SIGTERM', async () => {
    const slow = await emulator({ dataset: 'generated', generated: GENERATED, latencyMs: 50 });
    const path = dbFile();
    const { child, output } = spawnCli(scanArgs(slow, path, '--concurrency', '2'));
    await waitFor('the first scan to start', () => statusOf(path, 1) === 'running');

    const second = await runCli(scanArgs(slow, path), ENV);
    expect(second.code).toBe(2);
    expect(second.stdout).toBe('');
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.stderr).toMatch(/^zonewarden scan: scan 1 is already running on this database \(pid \d+ on .+\); wait for it to finish, or use another --db$/m);
    expect(peek(path, (db) => db.prepare('SELECT id, status FROM scans').all())).toEqual([{ id: 1, status: 'running' }]);

    child.kill('SIGTERM');
    expect(await exited(child)).toBe(2);
    expect(output().stderr).toContain('scan 1 aborted by SIGTERM; earlier scans are intact');
    expect(statusOf(path, 1)).toBe('aborted');
  });

  it('starts over a scan row left running by a process that is gone', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const path = dbFile();
    withDb(path, (db) => {
      db.prepare(
        "INSERT INTO scans (started_at, status, base_url, scope, tool_version, pid, host, heartbeat_at) VALUES (?, 'running', ?, '{\"accounts\":[],\"zones\":[]}', '0.0.0', ?, ?, ?)",
      ).run(new Date().toISOString(), emu.url, spawnSync(process.execPath, ['-e', '']).pid, hostname(), new Date().toISOString());
    });
    const r = await runCli(scanArgs(emu, path), ENV);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('2\n');
    expect(statusOf(path, 1)).toBe('aborted');
  });

  it.each([
    ['newer', 'ZW_DB_NEWER', /^zonewarden scan: database .* was written by a newer zonewarden .*upgrade zonewarden/],
    ['garbage', 'ZW_DB_CORRUPT', /^zonewarden scan: .* is not a readable SQLite database/],
    ['foreign', 'ZW_DB_FOREIGN', /^zonewarden scan: .* is a SQLite database of something else/],
  ])('refuses a %s database with exit 2 and one line, leaving the file untouched', async (kind, _code, message) => {
    const path = dbFile();
    if (kind === 'newer') {
      withDb(path, () => undefined);
      const raw = new Database(path);
      raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
      raw.close();
    } else if (kind === 'garbage') {
      writeFileSync(path, Buffer.alloc(4096, 0x5a));
    } else {
      const raw = new Database(path);
      raw.exec('CREATE TABLE photos (id INTEGER PRIMARY KEY)');
      raw.close();
    }
    const before = fingerprint(path);
    const r = await runCli(['scan', '--base-url', 'http://127.0.0.1:9/client/v4', '--db', path], ENV);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(message);
    expect(fingerprint(path)).toEqual(before);
  });

  it('reads only the zones named by --zone, or of the account named by --account', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const path = dbFile();
    const names = ['acme-bank.example', 'northwind.example'];
    const byZone = await runCli(scanArgs(emu, path, '--zone', names[0]!, '--zone', names[1]!), ENV);
    expect(byZone.code, byZone.stderr).toBe(0);
    const dnsCalls = () => emu.stats().requests.byRoute['GET /zones/{zone_id}/dns_records'];
    expect(dnsCalls()).toBe(2);
    withDb(path, (db) => {
      const reader = new SnapshotReader(db, 1);
      expect(reader.zones().map((z) => z.name)).toEqual(names);
      expect(reader.scan.scope).toEqual({ accounts: [], zones: names });
      expect(items(reader.dnsRecords(zoneId(emu, names[0]!)))).toHaveLength(emu.org.zonesById.get(zoneId(emu, names[0]!))!.dns.size);
    });

    const account = emu.org.zonesById.get(zoneId(emu, 'northwind.example'))!.accountId;
    const mine = emu.org.visibleZones().filter((z) => z.accountId === account);
    expect(mine.length).toBeGreaterThan(1);
    expect(mine.length).toBeLessThan(13);
    emu.resetStats();
    const byAccount = await runCli(scanArgs(emu, path, '--account', account), ENV);
    expect(byAccount.code, byAccount.stderr).toBe(0);
    expect(dnsCalls()).toBe(mine.length);
    withDb(path, (db) => {
      const zones = new SnapshotReader(db, 2).zones();
      expect(zones.map((z) => z.name).sort()).toEqual(mine.map((z) => z.name).sort());
      expect(new SnapshotReader(db, 2).scan.scope).toEqual({ accounts: [account], zones: [] });
    });
  });

  it('never writes the token to the database or the output, even when the API serves it back', async () => {
    const token = 'zw-cli-token-93c1e0d7aa52';
    const emu = await emulator({ dataset: caseDataset(), token });
    const zone = emu.org.zonesById.get(zoneId(emu, 'acme-bank.example'))!;
    emu.org.addDnsRecord(zone, { ...zone.dns.at(0), id: 'leak0000000000000000000000000002', type: 'TXT', name: `leak.${zone.name}`, content: `token ${token}` });
    const path = dbFile();
    const r = await runCli(scanArgs(emu, path, '--verbose'), { ZONEWARDEN_API_TOKEN: token });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(token);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) {
      if (existsSync(file)) expect(readFileSync(file).includes(token), file).toBe(false);
    }
    const baseUrl = peek(path, (db) => (db.prepare('SELECT base_url FROM scans').get() as { base_url: string }).base_url);
    expect(baseUrl).toBe(emu.url);
    expect(baseUrl).not.toContain('@');
    withDb(path, (db) => {
      const leak = items(new SnapshotReader(db, 1).dnsRecords(zone.id)).find((d) => d.id === 'leak0000000000000000000000000002');
      expect(leak?.content).toBe('token [redacted]');
    });
  });
});

describe('zonewarden prune', () => {
  it('needs --keep, then deletes the older scans and keeps the newest readable', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const path = dbFile();
    for (let i = 0; i < 3; i++) expect((await runCli(scanArgs(emu, path, '--quiet'), ENV)).code).toBe(0);
    const before = withDb(path, (db) => dump(db, 3), true);

    const missing = await runCli(['prune', '--db', path]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe("zonewarden prune: --keep N is required, e.g. --keep 30; see 'zonewarden prune --help'");
    expect(peek(path, (db) => db.prepare('SELECT count(*) AS n FROM scans').get())).toEqual({ n: 3 });

    const r = await runCli(['prune', '--keep', '1', '--db', path]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^deleted scans 1, 2 \(\d+ stored versions\); kept 1 scans; database /);
    withDb(path, (db) => {
      expect(db.prepare('SELECT id FROM scans').all()).toEqual([{ id: 3 }]);
      expect(dump(db, 3)).toEqual(before);
      expectMatchesServed(emu, db, 3);
    });
  });
});
