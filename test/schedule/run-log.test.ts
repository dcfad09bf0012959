import { spawn, spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { beginRun, finishRun, lastCompleteScan, lastRun, recordDeliveries, recoverAbandonedRuns, type RunSummary } from '../../src/schedule/run-log.js';
import { missedTick } from '../../src/schedule/scheduler.js';
import { claimScheduler, recordNextRun, releaseScheduler, SchedulerRunning, schedulerState } from '../../src/schedule/scheduler-state.js';
import { staleNoticeDue, staleness } from '../../src/schedule/staleness.js';
import { statusOf } from '../../src/schedule/status.js';
import type { Db } from '../../src/snapshot/db.js';
import { tempDatabases } from '../support/temp-db.js';

const HOUR = 3_600_000;
const NOW = new Date('2026-11-22T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * HOUR).toISOString();

const freshDb = tempDatabases('zw-runlog-');

/** A scan row; by default one of another host ('h'), last heard from when it started. */
function addScan(db: Db, status: string, startedHoursAgo: number, finishedHoursAgo: number | null, process: { pid?: number; host?: string; heardHoursAgo?: number } = {}): number {
  const info = db
    .prepare("INSERT INTO scans (started_at, finished_at, status, base_url, scope, tool_version, pid, host, heartbeat_at) VALUES (?, ?, ?, 'http://127.0.0.1/client/v4', '{}', 't', ?, ?, ?)")
    .run(hoursAgo(startedHoursAgo), finishedHoursAgo === null ? null : hoursAgo(finishedHoursAgo), status, process.pid ?? 1, process.host ?? 'h', hoursAgo(process.heardHoursAgo ?? startedHoursAgo));
  return Number(info.lastInsertRowid);
}

/** A running scan of this very process, heard from a moment ago: alive. */
const ALIVE = { pid: process.pid, host: hostname(), heardHoursAgo: 0.001 };

/** The pid of a process that has ended: a child that exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid!;
}

const summary: RunSummary = { counts: { fail: 3, waived: 0, unknown: 1, pass: 9 }, newFindings: null, error: null, reportDir: '/r', deletedScans: [] };

describe('the run log', () => {
  it('records a run from start to finish', () => {
    const db = freshDb();
    const scan = addScan(db, 'complete', 1, 0.5);
    const id = beginRun(db, 'schedule', new Date(hoursAgo(1)));
    expect(lastRun(db)).toMatchObject({ id, trigger: 'schedule', outcome: null, finishedAt: null, pid: process.pid, host: hostname() });
    finishRun(db, id, { outcome: 'findings', exitCode: 1, scanId: scan, summary }, new Date(hoursAgo(0.5)));
    expect(lastRun(db)).toMatchObject({ id, outcome: 'findings', exitCode: 1, scanId: scan, finishedAt: hoursAgo(0.5), summary });
  });

  it('marks runs of dead processes on this host aborted, and leaves live ones and other hosts alone', () => {
    const db = freshDb();
    const insert = db.prepare("INSERT INTO runs (trigger, started_at, pid, host) VALUES ('schedule', ?, ?, ?)");
    const dead = Number(insert.run(hoursAgo(3), deadPid(), hostname()).lastInsertRowid);
    const live = Number(insert.run(hoursAgo(2), process.pid, hostname()).lastInsertRowid);
    const elsewhere = Number(insert.run(hoursAgo(1), deadPid(), 'another-host').lastInsertRowid);
    expect(recoverAbandonedRuns(db)).toEqual([dead]);
    const outcome = (id: number) => db.prepare('SELECT outcome, summary FROM runs WHERE id = ?').get(id) as { outcome: string | null; summary: string | null };
    expect(outcome(dead).outcome).toBe('aborted');
    expect(JSON.parse(outcome(dead).summary!).error).toMatch(/process ended before the run finished/);
    expect(outcome(live).outcome).toBeNull();
    expect(outcome(elsewhere).outcome).toBeNull();
  });

  it('finds the last complete scan, not a later incomplete or aborted one', () => {
    const db = freshDb();
    expect(lastCompleteScan(db)).toBeNull();
    const complete = addScan(db, 'complete', 30, 29);
    addScan(db, 'incomplete', 6, 5);
    addScan(db, 'aborted', 2, 1);
    expect(lastCompleteScan(db)).toEqual({ id: complete, finishedAt: hoursAgo(29) });
  });
});

describe('staleness', () => {
  it('is stale when nothing has run, and gives a new install max-age to succeed', () => {
    const db = freshDb();
    expect(staleness(db, 36 * HOUR, NOW)).toMatchObject({ stale: true, ageMs: null, lastComplete: null });
    expect(staleNoticeDue(db, staleness(db, 36 * HOUR, NOW)), 'a new install is no alarm').toBe(false);
    addScan(db, 'incomplete', 10, 9);
    expect(staleness(db, 36 * HOUR, NOW)).toMatchObject({ stale: false, ageMs: 10 * HOUR });
    expect(staleness(db, 9 * HOUR, NOW)).toMatchObject({ stale: true });
  });

  it('measures from the last complete scan, to the millisecond of max-age', () => {
    const db = freshDb();
    addScan(db, 'complete', 37, 36);
    addScan(db, 'incomplete', 2, 1);
    expect(staleness(db, 36 * HOUR, NOW).stale).toBe(false);
    expect(staleness(db, 36 * HOUR - 1, NOW).stale).toBe(true);
  });

  it('is due for a notice once per episode: not again until a complete scan ends it', () => {
    const db = freshDb();
    addScan(db, 'complete', 50, 49);
    const s = staleness(db, 36 * HOUR, NOW);
    expect(staleNoticeDue(db, s)).toBe(true);
    recordDeliveries(db, null, [{ target: 't', event: 'stale', ok: false, attempts: 4, status: 500, error: 'x' }], new Date(hoursAgo(2)));
    expect(staleNoticeDue(db, s), 'a failed delivery does not count').toBe(true);
    recordDeliveries(db, null, [{ target: 't', event: 'stale', ok: true, attempts: 1, status: 200, error: null }], new Date(hoursAgo(1)));
    expect(staleNoticeDue(db, s)).toBe(false);
    // A complete scan ended that episode; a new one starts when it too grows old.
    addScan(db, 'complete', 0.9, 0.8);
    const later = new Date(NOW.getTime() + 40 * HOUR);
    expect(staleNoticeDue(db, staleness(db, 36 * HOUR, later))).toBe(true);
    expect(staleNoticeDue(db, staleness(db, 36 * HOUR, NOW))).toBe(false);
  });
});

describe('the scheduler record', () => {
  it('returns the previous record when claimed, and keeps the next tick when released', () => {
    const db = freshDb();
    expect(claimScheduler(db, { cron: '0 2 * * *', timezone: 'UTC', nextRunAt: new Date(hoursAgo(-14)) }, NOW)).toBeNull();
    recordNextRun(db, new Date(hoursAgo(-13)));
    releaseScheduler(db, NOW);
    const state = schedulerState(db)!;
    expect(state).toMatchObject({ cron: '0 2 * * *', timezone: 'UTC', pid: process.pid, stoppedAt: NOW.toISOString(), nextRunAt: hoursAgo(-13) });
    const previous = claimScheduler(db, { cron: '*/5 * * * *', timezone: 'Europe/Berlin', nextRunAt: null }, NOW);
    expect(previous).toEqual(state);
    expect(schedulerState(db)).toMatchObject({ cron: '*/5 * * * *', stoppedAt: null });
  });

  it('refuses a second scheduler while the first one lives on this host, and replaces a dead one', async () => {
    const db = freshDb();
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      db.prepare("INSERT INTO scheduler (id, cron, timezone, pid, host, started_at) VALUES (1, '0 2 * * *', 'UTC', ?, ?, ?)").run(sleeper.pid, hostname(), hoursAgo(1));
      expect(() => claimScheduler(db, { cron: '0 3 * * *', timezone: 'UTC', nextRunAt: null })).toThrow(SchedulerRunning);
      expect(schedulerState(db)?.cron).toBe('0 2 * * *');
    } finally {
      sleeper.kill();
      await new Promise((r) => sleeper.once('exit', r));
    }
    expect(claimScheduler(db, { cron: '0 3 * * *', timezone: 'UTC', nextRunAt: null })?.pid).toBe(sleeper.pid);
    expect(schedulerState(db)?.pid).toBe(process.pid);
  });
});

describe('missed ticks', () => {
  const tick = '2026-11-22T02:00:00.000Z';
  it.each([
    ['no scheduler before', null, null, null],
    ['the tick is still ahead', '2026-11-22T13:00:00.000Z', null, null],
    ['a run started at or after the tick', tick, '2026-11-22T02:00:00.000Z', null],
    ['the tick passed with no run since', tick, '2026-11-21T02:00:00.000Z', tick],
    ['the tick passed and nothing ever ran', tick, null, tick],
  ])('%s', (_, next, lastStart, expected) => expect(missedTick(next, lastStart, NOW)).toBe(expected));
});

describe('status', () => {
  it('reports the last run, the scheduler and its next tick, and the last delivery', () => {
    const db = freshDb();
    const scan = addScan(db, 'complete', 3, 2);
    const run = beginRun(db, 'schedule', new Date(hoursAgo(3)));
    finishRun(db, run, { outcome: 'ok', exitCode: 0, scanId: scan, summary: { ...summary, newFindings: { total: 4, bySeverity: { critical: 0, high: 4, medium: 0, low: 0, info: 0 }, comparedWithScan: null } } }, new Date(hoursAgo(2)));
    claimScheduler(db, { cron: '0 2 * * *', timezone: 'UTC', nextRunAt: new Date(hoursAgo(-14)) }, NOW);
    recordDeliveries(db, run, [{ target: 'webhooks[0] https://hooks.example/…', event: 'new-findings', ok: false, attempts: 4, status: 503, error: 'HTTP 503' }], NOW);
    const view = statusOf(db, 36 * HOUR, NOW);
    expect(view).toMatchObject({
      schema: 'zonewarden.status/1',
      stale: false,
      ageSeconds: 7200,
      lastCompleteScan: { id: scan },
      lastRun: { id: run, outcome: 'ok', running: false, newFailures: 4, scanId: scan, reportDir: '/r' },
      scheduler: { cron: '0 2 * * *', running: true },
      nextRun: hoursAgo(-14),
      lastNotification: { event: 'new-findings', ok: false, attempts: 4, error: 'HTTP 503' },
    });
    releaseScheduler(db, NOW);
    expect(statusOf(db, 36 * HOUR, NOW)).toMatchObject({ scheduler: { running: false }, nextRun: null });
    expect(statusOf(db, HOUR, NOW).stale).toBe(true);
  });

  it('only reads: a run whose process died shows as aborted without being rewritten', () => {
    const db = freshDb();
    db.prepare("INSERT INTO runs (trigger, started_at, pid, host) VALUES ('schedule', ?, ?, ?)").run(hoursAgo(1), deadPid(), hostname());
    expect(statusOf(db, 36 * HOUR, NOW).lastRun).toMatchObject({ outcome: 'aborted', running: false, error: 'the process ended before the run finished' });
    expect(db.prepare('SELECT outcome FROM runs').get()).toEqual({ outcome: null });
    db.prepare("UPDATE runs SET pid = ?").run(process.pid);
    expect(statusOf(db, 36 * HOUR, NOW).lastRun).toMatchObject({ outcome: null, running: true });
  });

  it('is a problem (exit 1) when the last run failed, unless a complete scan has finished since', () => {
    const db = freshDb();
    addScan(db, 'complete', 5, 4);
    const failed = addScan(db, 'aborted', 2, 1.9);
    const run = beginRun(db, 'schedule', new Date(hoursAgo(2)));
    finishRun(db, run, { outcome: 'failed', exitCode: 2, scanId: failed, summary: { ...summary, counts: null, error: 'the API is unreachable' } }, new Date(hoursAgo(1.9)));
    expect(statusOf(db, 36 * HOUR, NOW)).toMatchObject({ stale: false, exitCode: 1, problems: [`the last run (${run}) ended failed: the API is unreachable`] });
    addScan(db, 'complete', 1, 0.5);
    expect(statusOf(db, 36 * HOUR, NOW)).toMatchObject({ exitCode: 0, problems: [] });
  });

  it('is a problem when a scan newer than the last complete one ended incomplete or aborted; a running one is not', () => {
    const db = freshDb();
    addScan(db, 'complete', 5, 4);
    const incomplete = addScan(db, 'incomplete', 2, 1);
    expect(statusOf(db, 36 * HOUR, NOW)).toMatchObject({ exitCode: 1, lastScan: { id: incomplete, status: 'incomplete' }, problems: [`the last scan (${incomplete}) is incomplete`] });
    addScan(db, 'running', 0.5, null, ALIVE);
    expect(statusOf(db, 36 * HOUR, NOW)).toMatchObject({ exitCode: 0, problems: [] });
  });

  it('tells a scan whose process is gone (interrupted, with when it was last heard from) from a running one', () => {
    const db = freshDb();
    addScan(db, 'complete', 5, 4);
    // On this host, a live process heard from a moment ago runs it.
    const live = addScan(db, 'running', 0.5, null, ALIVE);
    expect(statusOf(db, 36 * HOUR, NOW).lastScan).toEqual({ id: live, status: 'running', startedAt: hoursAgo(0.5), finishedAt: null, lastHeardAt: hoursAgo(0.001) });
    // On this host, a process that has ended (kill -9): interrupted at once, whatever the heartbeat's age.
    const killed = addScan(db, 'running', 0.4, null, { pid: deadPid(), host: hostname(), heardHoursAgo: 0.001 });
    const view = statusOf(db, 36 * HOUR, NOW);
    expect(view.lastScan).toEqual({ id: killed, status: 'interrupted', startedAt: hoursAgo(0.4), finishedAt: null, lastHeardAt: hoursAgo(0.001) });
    expect(view.exitCode).toBe(1);
    expect(view.problems).toEqual([`the last scan (${killed}) was interrupted: its process is gone, last heard from at ${hoursAgo(0.001)}; the next scan or run records it as aborted`]);
    // Its pid taken by another process since (this one): the heartbeat, silent for an hour, tells.
    const reused = addScan(db, 'running', 1.2, null, { pid: process.pid, host: hostname(), heardHoursAgo: 1 });
    expect(statusOf(db, 36 * HOUR, NOW).lastScan).toMatchObject({ id: reused, status: 'interrupted', lastHeardAt: hoursAgo(1) });
    // Another host sharing the file: its processes cannot be checked from here, its heartbeat can.
    const elsewhere = addScan(db, 'running', 0.3, null, { pid: 1, host: 'other-host', heardHoursAgo: 0.001 });
    expect(statusOf(db, 36 * HOUR, NOW)).toMatchObject({ exitCode: 0, lastScan: { id: elsewhere, status: 'running' } });
    const silent = addScan(db, 'running', 0.2, null, { pid: 1, host: 'other-host', heardHoursAgo: 0.1 });
    expect(statusOf(db, 36 * HOUR, NOW)).toMatchObject({ exitCode: 1, lastScan: { id: silent, status: 'interrupted', lastHeardAt: hoursAgo(0.1) } });
    // A finished scan has no heartbeat to show.
    const done = addScan(db, 'complete', 0.1, 0.05);
    expect(statusOf(db, 36 * HOUR, NOW)).toMatchObject({ exitCode: 0, lastScan: { id: done, status: 'complete', lastHeardAt: null } });
  });

  it('takes a run of another host whose scan has stopped being heard from as cut short', () => {
    const db = freshDb();
    addScan(db, 'complete', 5, 4);
    const scan = addScan(db, 'running', 1, null, { pid: 1, host: 'other-host', heardHoursAgo: 0.5 });
    const run = beginRun(db, 'schedule', new Date(hoursAgo(1)));
    db.prepare('UPDATE runs SET host = ?, pid = 1, scan_id = ? WHERE id = ?').run('other-host', scan, run);
    const view = statusOf(db, 36 * HOUR, NOW);
    expect(view.lastRun).toMatchObject({ id: run, running: false, outcome: 'aborted', error: 'the process ended before the run finished' });
    expect(view.lastScan).toMatchObject({ id: scan, status: 'interrupted' });
    // Said once, as the run's problem: the scan is the run's.
    expect(view.problems).toEqual([`the last run (${run}) ended aborted: the process ended before the run finished`]);
  });

  it('waits for a first scan without alarm, but not after a failed one', () => {
    const db = freshDb();
    addScan(db, 'running', 1, null, ALIVE);
    expect(statusOf(db, 36 * HOUR, NOW)).toMatchObject({ stale: false, exitCode: 0 });
    db.prepare("UPDATE scans SET status = 'aborted', finished_at = ?").run(hoursAgo(0.5));
    expect(statusOf(db, 36 * HOUR, NOW)).toMatchObject({ stale: false, exitCode: 1, problems: ['the last scan (1) is aborted'] });
  });

  it('measures the scope it is given: a scan of one zone keeps the organisation from nothing', () => {
    const db = freshDb();
    addScan(db, 'complete', 50, 49);
    db.prepare("INSERT INTO scans (started_at, finished_at, status, base_url, scope, tool_version, pid, host, heartbeat_at) VALUES (?, ?, 'complete', 'u', ?, 't', 1, 'h', ?)").run(
      hoursAgo(2),
      hoursAgo(1),
      JSON.stringify({ accounts: [], zones: ['a.example'] }),
      hoursAgo(2),
    );
    expect(statusOf(db, 36 * HOUR, NOW)).toMatchObject({ stale: true, exitCode: 1, lastCompleteScan: { id: 1 } });
    expect(statusOf(db, 36 * HOUR, NOW, { accounts: [], zones: ['a.example'] })).toMatchObject({ stale: false, exitCode: 0, lastCompleteScan: { id: 2 } });
  });

  it('reads a database of a zonewarden from before the run log', () => {
    const db = freshDb();
    addScan(db, 'complete', 2, 1);
    db.exec('DROP TABLE notifications; DROP TABLE scheduler; DROP TABLE runs;');
    expect(statusOf(db, 36 * HOUR, NOW)).toMatchObject({ stale: false, lastRun: null, scheduler: null, nextRun: null, lastNotification: null });
  });
});
