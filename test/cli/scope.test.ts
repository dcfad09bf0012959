import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { caseDataset } from '../support/case-dataset.js';
import { runCli } from '../support/cli.js';
import { emulatorsClosedAfterEach, TOKEN, zoneId } from '../support/http.js';

/**
 * Scope you can trust: a --zone or --account that matches nothing is an error, not a green scan
 * of nothing; a partial match is incomplete; and a scoped scan is never taken for the whole
 * organisation by audit, report, diff or status.
 */

const emulator = emulatorsClosedAfterEach();
const ENV = { ZONEWARDEN_API_TOKEN: TOKEN };

function workDir(): string {
  return mkdtempSync(join(tmpdir(), 'zw-cli-scope-'));
}

function common(emu: RunningEmulator, dir: string): string[] {
  return ['--base-url', emu.url, '--db', join(dir, 'zonewarden.db'), '--budget', '1000000'];
}

function scans(dir: string): Array<{ id: number; status: string; scope: string }> {
  const db = openSnapshot(join(dir, 'zonewarden.db'), { readonly: true });
  try {
    return db.prepare('SELECT id, status, scope FROM scans ORDER BY id').all() as Array<{ id: number; status: string; scope: string }>;
  } finally {
    db.close();
  }
}

function zonesOf(dir: string, scanId: number): string[] {
  const db = openSnapshot(join(dir, 'zonewarden.db'), { readonly: true });
  try {
    return new SnapshotReader(db, scanId).zones().map((z) => z.name);
  } finally {
    db.close();
  }
}

const accountOf = (emu: RunningEmulator, zone: string) => emu.org.zonesById.get(zoneId(emu, zone))!.accountId;

describe('a scope that matches nothing', () => {
  it('a misspelt --zone is exit 2 with one line naming the closest zones; the scan is recorded aborted, never complete', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const dir = workDir();
    const r = await runCli(['scan', ...common(emu, dir), '--zone', 'acme-bnak.example'], ENV);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/--zone acme-bnak\.example: no zone of this name is visible to these credentials \(closest: acme-bank\.example[,)]/);
    expect(scans(dir).map((s) => s.status)).toEqual(['aborted']);
  });

  it('run with a misspelt --zone writes no report and records no complete scan', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const dir = workDir();
    const out = join(dir, 'reports');
    const r = await runCli(['run', ...common(emu, dir), '--out', out, '--zone', 'nosuch.example'], ENV);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--zone nosuch.example: no zone of this name is visible');
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
    expect(scans(dir).every((s) => s.status !== 'complete')).toBe(true);
  });

  it('an --account the credentials do not see is exit 2, naming the closest account ids', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const dir = workDir();
    const real = accountOf(emu, 'acme-bank.example');
    const typo = `${real.slice(0, -1)}${real.endsWith('0') ? '1' : '0'}`;
    const r = await runCli(['scan', ...common(emu, dir), '--account', typo], ENV);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`--account ${typo}: no account with this id is visible to these credentials (closest: ${real}`);
    expect(scans(dir).map((s) => s.status)).toEqual(['aborted']);
  });

  it('a zone outside the given --account is not silently dropped', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const dir = workDir();
    const other = accountOf(emu, 'northwind.example');
    expect(other).not.toBe(accountOf(emu, 'acme-bank.example'));
    const r = await runCli(['scan', ...common(emu, dir), '--account', other, '--zone', 'acme-bank.example'], ENV);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--zone acme-bank.example: the zone is not in account ${other}`);
  });
});

describe('a scope that partly matches', () => {
  it('scans what matched and is incomplete (exit 3), naming the names that matched nothing', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const dir = workDir();
    const r = await runCli(['scan', ...common(emu, dir), '--zone', 'acme-bank.example,nosuch.example'], ENV);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/scan 1 incomplete/);
    expect(r.stderr).toContain('--zone nosuch.example: no zone of this name is visible to these credentials');
    expect(scans(dir)).toEqual([{ id: 1, status: 'incomplete', scope: JSON.stringify({ accounts: [], zones: ['acme-bank.example', 'nosuch.example'] }) }]);
    expect(zonesOf(dir, 1)).toEqual(['acme-bank.example']);

    const report = await runCli(['run', ...common(emu, dir), '--out', join(dir, 'reports'), '--format', 'json', '--zone', 'acme-bank.example,nosuch.example'], ENV);
    expect(report.code, report.stderr).toBe(3);
  });
});

describe('lists on the command line', () => {
  it('--zone a,b is two zones, as a repeated --zone is, and names compare as DNS does (case, final dot)', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const dir = workDir();
    const r = await runCli(['scan', ...common(emu, dir), '--zone', 'Northwind.Example.,acme-bank.example'], ENV);
    expect(r.code, r.stderr).toBe(0);
    expect(zonesOf(dir, 1)).toEqual(['acme-bank.example', 'northwind.example']);
    const again = await runCli(['scan', ...common(emu, dir), '--zone', 'northwind.example', '--zone', 'acme-bank.example'], ENV);
    expect(again.code, again.stderr).toBe(0);
    const [first, second] = scans(dir);
    expect(second!.scope).toBe(first!.scope);
  });

  it('--account A,B is audited as the zones of both accounts', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const dir = workDir();
    const accounts = [accountOf(emu, 'acme-bank.example'), accountOf(emu, 'northwind.example')];
    const expected = emu.org
      .visibleZones()
      .filter((z) => accounts.includes(z.accountId))
      .map((z) => z.name)
      .sort();
    const r = await runCli(['scan', ...common(emu, dir), '--account', accounts.join(',')], ENV);
    expect(r.code, r.stderr).toBe(0);
    expect(zonesOf(dir, 1).sort()).toEqual(expected);
    const audit = await runCli(['audit', '--db', join(dir, 'zonewarden.db'), '--account', accounts.join(','), '--format', 'json', '--passes'], ENV);
    expect([0, 3], audit.stderr).toContain(audit.code);
    const zones = new Set((JSON.parse(audit.stdout) as { findings: Array<{ zone: { name: string } | null }> }).findings.map((f) => f.zone?.name).filter(Boolean));
    expect([...zones].sort()).toEqual(expected);
  });
});

describe('full and scoped scans are different things', () => {
  it('audit, report, diff and status default to the latest complete scan of the default scope; a scoped one only when asked for', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const dir = workDir();
    const db = ['--db', join(dir, 'zonewarden.db')];
    expect((await runCli(['scan', ...common(emu, dir), '--quiet'], ENV)).code).toBe(0);
    expect((await runCli(['scan', ...common(emu, dir), '--quiet', '--zone', 'acme-bank.example'], ENV)).code).toBe(0);

    const full = await runCli(['audit', ...db, '--format', 'json'], ENV);
    expect(JSON.parse(full.stdout).scan).toMatchObject({ id: 1 });
    const scoped = await runCli(['audit', ...db, '--format', 'json', '--zone', 'acme-bank.example'], ENV);
    expect(JSON.parse(scoped.stdout).scan).toMatchObject({ id: 2 });
    const byId = await runCli(['audit', ...db, '--format', 'json', '--scan', '2'], ENV);
    expect(JSON.parse(byId.stdout).scan).toMatchObject({ id: 2 });

    // A third, full scan: diff compares it with the first, not with the one-zone scan between.
    expect((await runCli(['scan', ...common(emu, dir), '--quiet'], ENV)).code).toBe(0);
    const diff = await runCli(['diff', ...db, '--format', 'json'], ENV);
    expect(diff.code, diff.stderr).toBe(0);
    expect(JSON.parse(diff.stdout)).toMatchObject({ from: { id: 1 }, to: { id: 3 } });
    const mixed = await runCli(['diff', ...db, '--from', '1', '--to', '2'], ENV);
    expect(mixed.stdout).toContain('The two scans cover different scopes: only what both covered is compared.');
    const mixedMd = await runCli(['diff', ...db, '--from', '1', '--to', '2', '--format', 'md'], ENV);
    expect(mixedMd.stdout).toContain('\n- The two scans cover different scopes: only what both covered is compared.\n');
    const same = await runCli(['diff', ...db, '--from', '1', '--to', '3'], ENV);
    expect(same.stdout).not.toContain('different scopes');

    const status = await runCli(['status', ...db, '--format', 'json'], ENV);
    expect(JSON.parse(status.stdout)).toMatchObject({ lastCompleteScan: { id: 3 } });
  });

  it('a database with only a scoped scan has no scan of the whole organisation to audit, and says which scans exist', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const dir = workDir();
    expect((await runCli(['scan', ...common(emu, dir), '--quiet', '--zone', 'acme-bank.example'], ENV)).code).toBe(0);
    const r = await runCli(['audit', '--db', join(dir, 'zonewarden.db')], ENV);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^zonewarden audit: no scan of the whole organisation in .*: run zonewarden scan, or name a scan with --scan \(zonewarden scans lists them; the latest is scan 1\)$/);
  });
});

describe('status after a failed or incomplete scan', () => {
  it('exits 1 naming the incomplete scan though the last complete one is fresh; a scan of another scope changes nothing', async () => {
    const good = await emulator({ dataset: caseDataset() });
    const dir = workDir();
    const db = ['--db', join(dir, 'zonewarden.db')];
    expect((await runCli(['scan', ...common(good, dir), '--quiet'], ENV)).code).toBe(0);
    const fresh = await runCli(['status', ...db], ENV);
    expect(fresh.code, fresh.stdout).toBe(0);
    expect(fresh.stdout).toMatch(/^fresh: last complete scan 1 /);
    expect(fresh.stdout).toContain('\nscope: the whole organisation\n');

    const faulty = await emulator({ dataset: caseDataset(), failRoutes: ['GET /zones/{zone_id}/firewall/rules'] });
    expect((await runCli(['scan', ...common(faulty, dir), '--quiet', '--retries', '0'], ENV)).code).toBe(3);
    const incomplete = await runCli(['status', ...db], ENV);
    expect(incomplete.code).toBe(1);
    expect(incomplete.stdout).toMatch(/^PROBLEM: last complete scan 1 /);
    expect(incomplete.stdout).toContain('problem: the last scan (2) is incomplete');
    const json = JSON.parse((await runCli(['status', ...db, '--format', 'json'], ENV)).stdout);
    expect(json).toMatchObject({ stale: false, exitCode: 1, lastScan: { id: 2, status: 'incomplete' }, problems: ['the last scan (2) is incomplete'] });

    // A complete one-zone scan is not a complete scan of the organisation.
    expect((await runCli(['scan', ...common(good, dir), '--quiet', '--zone', 'acme-bank.example'], ENV)).code).toBe(0);
    expect((await runCli(['status', ...db], ENV)).code).toBe(1);
    const scoped = await runCli(['status', ...db, '--zone', 'acme-bank.example'], ENV);
    expect(scoped.code, scoped.stdout).toBe(0);
    expect(scoped.stdout).toMatch(/^fresh: last complete scan 3 /);

    expect((await runCli(['scan', ...common(good, dir), '--quiet'], ENV)).code).toBe(0);
    expect((await runCli(['status', ...db], ENV)).code).toBe(0);
  });
});

describe('zonewarden scans', () => {
  it('lists every scan with its time, scope, status and counts, marking the one commands use by default', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const dir = workDir();
    expect((await runCli(['scan', ...common(emu, dir), '--quiet'], ENV)).code).toBe(0);
    expect((await runCli(['scan', ...common(emu, dir), '--quiet', '--zone', 'acme-bank.example'], ENV)).code).toBe(0);
    expect((await runCli(['scan', ...common(emu, dir), '--quiet', '--zone', 'nosuch.example'], ENV)).code).toBe(2);
    expect((await runCli(['audit', '--db', join(dir, 'zonewarden.db'), '--quiet'], ENV)).code).toBe(0);
    const zones = emu.org.visibleZones().length;
    const accounts = emu.org.visibleAccounts().length;

    const text = await runCli(['scans', '--db', join(dir, 'zonewarden.db')], ENV);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^scan 3 {2}\S+ {2}aborted {2}zone nosuch\.example {2}error: --zone nosuch\.example: no zone of this name is visible/);
    expect(lines[1]).toMatch(/^scan 2 {2}\S+ {2}complete {2}zone acme-bank\.example {2}\d+ accounts, 1 zones {2}not audited$/);
    expect(lines[2]).toMatch(new RegExp(`^scan 1  \\S+  complete  the whole organisation  ${accounts} accounts, ${zones} zones  audit 1: \\d+ failing, 0 waived, \\d+ unknown, \\d+ passing  \\[default\\]$`));

    const json = await runCli(['scans', '--db', join(dir, 'zonewarden.db'), '--format', 'json', '--zone', 'acme-bank.example'], ENV);
    const rows = JSON.parse(json.stdout) as Array<{ id: number; default: boolean; scope: unknown; status: string; audit: unknown }>;
    expect(rows.map((r) => [r.id, r.status, r.default])).toEqual([
      [3, 'aborted', false],
      [2, 'complete', true],
      [1, 'complete', false],
    ]);
    expect(rows[1]).toMatchObject({ scope: { accounts: [], zones: ['acme-bank.example'] }, audit: null });
  });
});

describe('messages that point somewhere', () => {
  it('a negative number is out of range, not an option without a value', async () => {
    const keep = await runCli(['prune', '--keep', '-3', '--db', join(workDir(), 'x.db')]);
    expect(keep.code).toBe(2);
    expect(keep.stderr).toBe("zonewarden prune: --keep must be a whole number of at least 1, got -3\n");
    const concurrency = await runCli(['scan', '--concurrency', '-1']);
    expect(concurrency.stderr).toBe('zonewarden scan: --concurrency must be a whole number from 1 to 64, got -1\n');
  });

  it('status --verbose prints no stack, and an unknown option on any command is one line', async () => {
    const dir = workDir();
    const r = await runCli(['status', '--verbose', '--db', join(dir, 'missing.db')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`zonewarden status: no database at ${join(dir, 'missing.db')}: run zonewarden scan first, or point --db at one\n`);
    const unknown = await runCli(['rules', '--verbose']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("zonewarden rules: unknown option --verbose; see 'zonewarden rules --help'\n");
  });

  it('prune on a missing database is an error and creates none', async () => {
    const path = join(workDir(), 'typo.db');
    const r = await runCli(['prune', '--keep', '3', '--db', path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`zonewarden prune: no database at ${path}: run zonewarden scan first, or point --db at one\n`);
    expect(existsSync(path)).toBe(false);
  });

  it('a scan id that does not exist points at zonewarden scans', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const dir = workDir();
    expect((await runCli(['scan', ...common(emu, dir), '--quiet'], ENV)).code).toBe(0);
    const r = await runCli(['audit', '--db', join(dir, 'zonewarden.db'), '--scan', '9']);
    expect(r.stderr).toBe('zonewarden audit: there is no scan 9 in this database; zonewarden scans lists them\n');
  });
});
