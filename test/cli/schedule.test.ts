import type { ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { claimScheduler, releaseScheduler } from '../../src/schedule/scheduler-state.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { exited, runCliProcess, startCli } from '../support/cli.js';
import { TOKEN } from '../support/http.js';
import { startReceiver } from '../support/receiver.js';

/**
 * `zonewarden schedule` and `zonewarden status` as users run them: the built CLI in its own
 * process, against an emulator slow enough that a run spans several one-second ticks.
 */

type Event = Record<string, unknown> & { event: string };
const events = (stdout: string): Event[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Event);

// A guard against a hang with a message, not a speed target: under the tests' own limit (vitest.config.ts).
async function until(condition: () => boolean, what: string, timeoutMs = 100_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What the database holds after a stop: no scan left running, every run finished, no corruption. */
function consistency(dbPath: string) {
  const db = new Database(dbPath, { readonly: true });
  try {
    return {
      integrity: db.pragma('integrity_check', { simple: true }),
      running: (db.prepare("SELECT count(*) AS n FROM scans WHERE status = 'running'").get() as { n: number }).n,
      unfinishedRuns: (db.prepare('SELECT count(*) AS n FROM runs WHERE outcome IS NULL').get() as { n: number }).n,
      scans: db.prepare('SELECT id, status FROM scans ORDER BY id').all() as Array<{ id: number; status: string }>,
    };
  } finally {
    db.close();
  }
}

function schedule(emu: RunningEmulator, cwd: string, ...args: string[]): Promise<{ child: ChildProcess; output: () => { stdout: string; stderr: string } }> {
  return startCli(['schedule', '--base-url', emu.url, '--budget', '1000000', '--quiet', '--out', 'reports', ...args], { env: { ZONEWARDEN_API_TOKEN: TOKEN }, cwd });
}

describe('zonewarden schedule', () => {
  let slow: RunningEmulator;
  beforeAll(async () => {
    // About 150 requests, 8 at a time: a run takes a few seconds, so one-second ticks fall inside it.
    slow = await startEmulator({ dataset: 'demo', now: new Date(), rateLimit: 0, ipRateLimit: 0, latencyMs: 150 });
  });
  afterAll(async () => {
    await slow?.close();
  });

  it('runs on a seconds-level cron twice without overlap, logging the skipped ticks, and stops cleanly on SIGTERM', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'zw-schedule-'));
    const { child, output } = await schedule(slow, cwd, '--cron', '* * * * * *', '--tz', 'Europe/Berlin');
    await until(() => events(output().stdout).filter((e) => e.event === 'run').length >= 2, 'two runs');
    child.kill('SIGTERM');
    expect(await exited(child), output().stderr).toBe(0);

    const log = events(output().stdout);
    expect(log[0]).toMatchObject({ event: 'started', cron: '* * * * * *', timezone: 'Europe/Berlin', nextRun: expect.any(String) });
    expect(log.at(-1)).toMatchObject({ event: 'stopped', signal: 'SIGTERM' });
    const runs = log.filter((e) => e.event === 'run');
    const [first, second] = runs as Array<Event & { startedAt: string; finishedAt: string }>;
    expect(first).toMatchObject({ trigger: 'schedule', outcome: 'ok', exitCode: 0, scan: { status: 'complete' }, counts: { fail: expect.any(Number) } });
    expect(second).toMatchObject({ trigger: 'schedule', outcome: 'ok', scan: { status: 'complete' } });
    expect(Date.parse(second!.startedAt)).toBeGreaterThanOrEqual(Date.parse(first!.finishedAt));
    // A tick node-cron found late before the first run (a busy machine) is logged as 'the process was
    // busy at the tick'; the ticks that came during a run are the ones this is about.
    const skipped = log.filter((e) => e.event === 'skipped' && e['reason'] === 'a run is in progress');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped[0]).toMatchObject({ reason: 'a run is in progress', runningSince: expect.any(String) });
    for (const line of output().stdout.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
    expect(output().stdout + output().stderr).not.toContain(TOKEN);

    const after = consistency(join(cwd, 'zonewarden.db'));
    expect(after).toMatchObject({ integrity: 'ok', running: 0, unfinishedRuns: 0 });
    // Any run cut by the signal left an aborted scan; the two that finished have their reports.
    expect(after.scans.slice(0, 2).map((s) => s.status)).toEqual(['complete', 'complete']);
    expect(readdirSync(join(cwd, 'reports')).filter((d) => /-scan-[12]$/.test(d))).toHaveLength(2);
  });

  it('ends a run cut by SIGTERM cleanly: the scan is marked aborted, earlier scans stay, exit 0', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'zw-schedule-cut-'));
    const slower = await startEmulator({ dataset: 'demo', now: new Date(), rateLimit: 0, ipRateLimit: 0, latencyMs: 600 });
    try {
      const { child, output } = await schedule(slower, cwd, '--cron', '0 3 1 1 *', '--run-now');
      const dbPath = join(cwd, 'zonewarden.db');
      await until(() => existsSync(dbPath) && consistency(dbPath).running === 1, 'the scan to start');
      // Twice at once, as systemd and npm deliver it: the same request, still a clean stop.
      child.kill('SIGTERM');
      child.kill('SIGTERM');
      expect(await exited(child), output().stderr).toBe(0);
      const log = events(output().stdout);
      expect(log.map((e) => e.event)).toEqual(['started', 'stopping', 'run', 'stopped']);
      expect(log[1]).toMatchObject({ waitingForRun: true });
      expect(log[2]).toMatchObject({ trigger: 'run-now', outcome: 'aborted', scan: { id: 1, status: 'aborted' }, reportDir: null, error: expect.stringContaining('aborted by SIGTERM') });
      expect(consistency(dbPath)).toMatchObject({ integrity: 'ok', running: 0, unfinishedRuns: 0, scans: [{ id: 1, status: 'aborted' }] });
      expect(existsSync(join(cwd, 'reports'))).toBe(false);
    } finally {
      await slower.close();
    }
  });

  it('catches up once on a tick missed while it was down, and refuses a second scheduler on the same database', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'zw-schedule-catch-up-'));
    const dbPath = join(cwd, 'zonewarden.db');
    const db = openSnapshot(dbPath);
    claimScheduler(db, { cron: '0 2 * * *', timezone: 'UTC', nextRunAt: new Date(Date.now() - 3_600_000) });
    releaseScheduler(db);
    db.close();

    const { child, output } = await schedule(slow, cwd, '--cron', '0 3 1 1 *', '--tz', 'UTC');
    await until(() => events(output().stdout).some((e) => e.event === 'catch-up'), 'the catch-up');
    const second = await runCliProcess(['schedule', '--cron', '0 3 1 1 *', '--base-url', slow.url, '--db', dbPath], { ZONEWARDEN_API_TOKEN: TOKEN });
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(new RegExp(`^zonewarden schedule: a scheduler is already running on this database \\(pid ${child.pid} since .*\\); stop it first, or use another --db\\n$`));
    await until(() => events(output().stdout).some((e) => e.event === 'run'), 'the caught-up run');
    child.kill('SIGINT');
    expect(await exited(child)).toBe(0);
    const runs = events(output().stdout).filter((e) => e.event === 'run');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'catch-up', outcome: 'ok' });
  });

  it('sends a stale notice at start when the last complete scan is older than --max-age, once', async () => {
    const hooks = await startReceiver();
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'zw-schedule-stale-'));
      writeFileSync(join(cwd, 'zonewarden.config.json'), JSON.stringify({ notifications: { webhooks: [{ url: `${hooks.origin}/hook/s3cret` }] } }));
      const first = await runCliProcess(['run', '--base-url', slow.url, '--budget', '1000000', '--quiet', '--db', join(cwd, 'zonewarden.db'), '--out', join(cwd, 'reports')], { ZONEWARDEN_API_TOKEN: TOKEN });
      expect(first.code, first.stderr).toBe(0);
      const db = new Database(join(cwd, 'zonewarden.db'));
      db.prepare("UPDATE scans SET started_at = '2026-01-01T00:00:00.000Z', finished_at = '2026-01-01T00:05:00.000Z'").run();
      db.close();
      const before = hooks.received.length;
      for (let i = 0; i < 2; i++) {
        const { child, output } = await schedule(slow, cwd, '--cron', '0 3 1 1 *', '--max-age', '2d');
        await until(() => events(output().stdout).length >= 1, 'the start');
        // The staleness check runs before the scheduler waits for a signal: by exit, any notice has gone.
        child.kill('SIGTERM');
        expect(await exited(child)).toBe(0);
        const notices = events(output().stdout).filter((e) => e.event === 'notification');
        if (i === 0) expect(notices).toEqual([expect.objectContaining({ notice: 'stale', ok: true, target: `webhooks[0] ${hooks.origin}/…` })]);
        else expect(notices, 'once per episode').toEqual([]);
      }
      const stale = hooks.received.slice(before).map((q) => JSON.parse(q.body) as Record<string, unknown>);
      expect(stale).toEqual([expect.objectContaining({ event: 'stale', run: null, lastCompleteScan: { id: 1, finishedAt: '2026-01-01T00:05:00.000Z' }, maxAgeSeconds: 172_800 })]);
    } finally {
      await hooks.close();
    }
  });

  it.each([
    [[], /^zonewarden schedule: --cron EXPR is required .*e\.g\. --cron "0 2 \* \* \*"\n$/],
    [['--cron', '0 25 * * *'], /^zonewarden schedule: --cron "0 25 \* \* \*" is not a cron expression: 25 is a invalid expression for hour; e\.g\./],
    [['--cron', 'every night'], /^zonewarden schedule: --cron "every night" is not a cron expression: /],
    [['--cron', '0 2 * * *', '--tz', 'Mars/Olympus'], /^zonewarden schedule: --tz "Mars\/Olympus" is not a time zone; use an IANA name such as UTC/],
    [['--cron', '0 2 * * *', '--max-age', '36'], /^zonewarden schedule: max-age "36" is not a duration; e\.g\. 36h, 2d, 90m or 1d12h\n$/],
  ])('refuses %j with one line naming the fix', async (args, message) => {
    const r = await runCliProcess(['schedule', '--base-url', 'http://127.0.0.1:9/client/v4', '--db', join(mkdtempSync(join(tmpdir(), 'zw-s-')), 'z.db'), ...args], { ZONEWARDEN_API_TOKEN: TOKEN });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe('zonewarden run and schedule, before they start', () => {
  it.each([
    [['schedule', '--cron', '0 2 * * *', '--base-url', 'ftp://api.example.com/client/v4'], {}, /^zonewarden schedule: --base-url must be https/],
    [['schedule', '--cron', '0 2 * * *', '--base-url', 'https://api.example.com/client/v4'], null, /^zonewarden schedule: no API credentials: set ZONEWARDEN_API_TOKEN/],
    [['run', '--base-url', 'https://api.example.com/v4'], {}, /^zonewarden run: --base-url must end in \/client\/v4/],
  ])('refuses %j with one line, before any scan or notification', async (args, env, message) => {
    const cwd = mkdtempSync(join(tmpdir(), 'zw-early-'));
    const r = await runCliProcess([...args, '--db', join(cwd, 'z.db')], env === null ? {} : { ZONEWARDEN_API_TOKEN: TOKEN });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(cwd, 'z.db'))).toBe(false);
  });
});

describe('zonewarden status', () => {
  let emu: RunningEmulator;
  let dbPath: string;
  beforeAll(async () => {
    emu = await startEmulator({ dataset: 'demo', now: new Date(), rateLimit: 0, ipRateLimit: 0 });
    const cwd = mkdtempSync(join(tmpdir(), 'zw-status-'));
    const r = await runCliProcess(['run', '--base-url', emu.url, '--budget', '1000000', '--quiet', '--out', join(cwd, 'reports'), '--db', join(cwd, 'z.db')], { ZONEWARDEN_API_TOKEN: TOKEN });
    expect(r.code, r.stderr).toBe(0);
    dbPath = join(cwd, 'z.db');
  });
  afterAll(async () => {
    await emu?.close();
  });

  it('exits 0 while the last complete scan is fresh, showing the last run', async () => {
    const r = await runCliProcess(['status', '--db', dbPath]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^fresh: last complete scan 1 finished \S+, \d+ seconds? ago \(max age 1 day 12 hours\)\n/);
    expect(r.stdout).toMatch(/\nlast run: 1 \(manual\) started \S+, ended \S+: ok \(exit 0\); scan 1, \d+ new failures\n/);
    expect(r.stdout).toContain('scheduler: never started on this database');
  });

  it('exits 1 once the last complete scan is older than --max-age, in text and JSON', async () => {
    const stale = join(mkdtempSync(join(tmpdir(), 'zw-status-stale-')), 'z.db');
    copyFileSync(dbPath, stale);
    const db = new Database(stale);
    // Ten days, five and a half hours before now, so the age reads the same at any time of day.
    const finished = new Date(Date.now() - ((10 * 24 + 5) * 3600 + 1800) * 1000).toISOString();
    const started = new Date(Date.parse(finished) - 300_000).toISOString();
    db.prepare('UPDATE scans SET started_at = ?, finished_at = ?').run(started, finished);
    db.close();
    const text = await runCliProcess(['status', '--db', stale, '--max-age', '2d']);
    expect(text.code).toBe(1);
    expect(text.stdout.startsWith(`STALE: last complete scan 1 finished ${finished}, 10 days 5 hours ago (max age 2 days)\n`), text.stdout).toBe(true);
    const json = await runCliProcess(['status', '--db', stale, '--format', 'json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ schema: 'zonewarden.status/1', stale: true, maxAgeSeconds: 36 * 3600, lastCompleteScan: { id: 1 }, lastRun: { id: 1, outcome: 'ok' } });
    const env = await runCliProcess(['status', '--db', stale], { ZONEWARDEN_MAX_AGE: '11d' });
    expect(env.code, 'ZONEWARDEN_MAX_AGE sets the maximum age').toBe(0);
  });

  it.each([
    [['--db', '/nonexistent/zonewarden.db'], /^zonewarden status: no database at \/nonexistent\/zonewarden\.db: run zonewarden scan first, or point --db at one\n$/],
    [['--max-age', 'soon'], /^zonewarden status: --max-age "soon" is not a duration; e\.g\. 36h, 2d, 90m or 1d12h\n$/],
    [['--format', 'yaml'], /^zonewarden status: --format must be one of text, json/],
  ])('exits 2 on %j', async (args, message) => {
    const r = await runCliProcess(['status', '--db', dbPath, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
