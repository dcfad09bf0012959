import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { TOKEN } from './http.js';
import { runInProcess } from './in-process.js';

/**
 * A working directory with a database, the CLI run in process against an
 * emulator, and a comparison of `audit` (reuse) with `audit --no-reuse` on two copies of the
 * same database.
 */
export interface Workspace {
  dir: string;
  db: string;
  emu: RunningEmulator;
  cli(args: string[], dbPath?: string): Promise<{ code: number; stdout: string; stderr: string }>;
  scan(extra?: string[]): Promise<number>;
  sql<T = unknown>(fn: (db: Db) => T, dbPath?: string): T;
  writeConfig(config: unknown): void;
  writeWaivers(yaml: string): void;
  copy(name: string): string;
}

export function workspace(emu: RunningEmulator): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'zw-reuse-both-ways-'));
  const db = join(dir, 'zonewarden.db');
  const cli = (args: string[], dbPath = db) => runInProcess([...args, '--db', dbPath], { ZONEWARDEN_API_TOKEN: TOKEN }, dir);
  const sql = <T>(fn: (db: Db) => T, dbPath = db): T => {
    const h = openSnapshot(dbPath);
    try {
      return fn(h);
    } finally {
      h.close();
    }
  };
  return {
    dir,
    db,
    emu,
    cli,
    sql,
    async scan(extra = []) {
      const r = await cli(['scan', '--base-url', emu.url, '--budget', '1000000', '--quiet', ...extra]);
      expect(r.code, r.stderr).toBeLessThanOrEqual(3);
      return sql((h) => h.prepare('SELECT max(id) FROM scans').pluck().get() as number);
    },
    writeConfig(config) {
      writeFileSync(join(dir, 'zonewarden.config.json'), JSON.stringify(config));
    },
    writeWaivers(yaml) {
      writeFileSync(join(dir, 'waivers.yaml'), yaml);
    },
    copy(name) {
      const to = join(dir, name);
      for (const suffix of ['', '-wal', '-shm']) if (existsSync(db + suffix)) copyFileSync(db + suffix, to + suffix);
      return to;
    },
  };
}


/** Report files (md, json, csv) of a report run, by name. */
export function reportFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name), `${prefix}${e.name.replace(/^\d{4}-.*-scan-/, 'scan-')}/`);
      else if (/\.(md|json|csv)$/.test(e.name)) out[prefix + e.name] = readFileSync(join(d, e.name), 'utf8').replace(/"generatedAt": *"[^"]*"|Generated [^\n]*|generated [^\n]*/g, '');
    }
  };
  walk(dir, '');
  return out;
}

/**
 * `audit ARGS --format json` with reuse and with --no-reuse, each on its own copy of the database
 * as it is now: returns both documents (the reuse run's first) and the stderr of both. The working
 * database is left as it was (the audit is then stored in it by `commit`, with reuse, as a night would).
 */
export async function auditBothWays(ws: Workspace, args: string[], tag: string, commit = true, reports = true): Promise<{ reuse: unknown; fresh: unknown; stderr: string[]; reuseDb: string; freshDb: string }> {
  const a = ws.copy(`${tag}-reuse.db`);
  const b = ws.copy(`${tag}-fresh.db`);
  const ra = await ws.cli(['audit', ...args, '--format', 'json', '--verbose'], a);
  const rb = await ws.cli(['audit', ...args, '--format', 'json', '--no-reuse'], b);
  expect(ra.code, ra.stderr).not.toBe(2);
  expect(rb.code, rb.stderr).not.toBe(2);
  if (commit) {
    const rc = await ws.cli(['audit', ...args, '--format', 'json', '--quiet']);
    expect(rc.code, rc.stderr).not.toBe(2);
  }
  const reuse = JSON.parse(ra.stdout) as Record<string, any>;
  const fresh = JSON.parse(rb.stdout) as Record<string, any>;
  // What the JSON leaves out: the stored counts (byZone: the reports' pass rate per zone) and the waiver report.
  const stored = (path: string, id: number) =>
    ws.sql((h) => Object.fromEntries(Object.entries(h.prepare('SELECT counts, waivers, errors FROM audits WHERE id = ?').get(id) as Record<string, string>).map(([k, v]) => [k, JSON.parse(v)])), path);
  reuse['storedAudit'] = stored(a, reuse['audit'].id);
  fresh['storedAudit'] = stored(b, fresh['audit'].id);
  if (reports) {
    const ra2 = await ws.cli(['report', '--audit', String(reuse['audit'].id), '--format', 'md,json,csv', '--out', `${a}-reports`], a);
    const rb2 = await ws.cli(['report', '--audit', String(fresh['audit'].id), '--format', 'md,json,csv', '--out', `${b}-reports`], b);
    expect(ra2.code, ra2.stderr).not.toBe(2);
    expect(rb2.code, rb2.stderr).not.toBe(2);
    reuse['reports'] = reportFiles(`${a}-reports`);
    fresh['reports'] = reportFiles(`${b}-reports`);
  }
  return { reuse, fresh, stderr: [ra.stderr, rb.stderr], reuseDb: a, freshDb: b };
}
