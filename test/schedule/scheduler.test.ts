import { describe, expect, it } from 'vitest';
import type { RunTrigger } from '../../src/schedule/notifications/notice.js';
import { beginRun, finishRun } from '../../src/schedule/run-log.js';
import { runScheduler } from '../../src/schedule/scheduler.js';
import { claimScheduler, releaseScheduler, schedulerState } from '../../src/schedule/scheduler-state.js';
import type { Db } from '../../src/snapshot/db.js';
import { tempDatabases } from '../support/temp-db.js';

/** The loop alone, with a stand-in job that takes a set time: what it starts, skips and waits for. */

const freshDb = tempDatabases('zw-sched-');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function harness(db: Db, jobMs: number) {
  const events: Array<Record<string, unknown>> = [];
  const runs: Array<{ trigger: RunTrigger; start: number; end: number }> = [];
  const started: RunTrigger[] = [];
  let stop!: (signal: string) => void;
  const stopSignal = new Promise<string>((r) => (stop = r));
  const job = async (trigger: RunTrigger) => {
    const start = Date.now();
    started.push(trigger);
    // As the real job does: the run is in the log while it goes, so catch-up sees it.
    const id = beginRun(db, trigger);
    await sleep(jobMs);
    finishRun(db, id, { outcome: 'ok', exitCode: 0, scanId: null, summary: { counts: null, newFindings: null, error: null, reportDir: null, deletedScans: [] } });
    runs.push({ trigger, start, end: Date.now() });
    return { trigger };
  };
  return { events, runs, started, stop, stopSignal, job, log: (e: Record<string, unknown>) => void events.push(e) };
}

// A guard against a hang with a message, not a speed target: well under the test's own limit (vitest.config.ts).
async function until(condition: () => boolean, timeoutMs = 100_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(25);
  }
}

describe('the scheduler loop', () => {
  it('runs at the ticks, skips (and logs) the ticks that come during a run, and waits for the run when stopped', async () => {
    const db = freshDb();
    const h = harness(db, 2300);
    const done = runScheduler({ cron: '* * * * * *', timezone: 'UTC', runNow: false, db, job: h.job, log: h.log, stopSignal: h.stopSignal });
    await until(() => h.runs.length === 2);
    await until(() => h.events.filter((e) => e['event'] === 'run').length === 2);
    const [first, second] = h.runs;
    expect(second!.start).toBeGreaterThanOrEqual(first!.end);
    expect(h.runs.map((r) => r.trigger)).toEqual(['schedule', 'schedule']);
    // Ticks during the 2.3 s runs. A tick node-cron found late on a busy machine before any run is
    // logged as 'the process was busy at the tick': only those during a run are counted here.
    const skipped = h.events.filter((e) => e['event'] === 'skipped' && e['reason'] === 'a run is in progress');
    expect(skipped.length).toBeGreaterThanOrEqual(2);
    expect(typeof skipped[0]!['runningSince']).toBe('string');

    // Stopped in the middle of a third run (its job has started and not ended): the loop returns only after it has ended.
    await until(() => h.started.length === 3);
    expect(h.runs).toHaveLength(2);
    h.stop('SIGTERM');
    await done;
    const names = h.events.map((e) => e['event']);
    expect(names.at(-1)).toBe('stopped');
    expect(names.indexOf('stopping')).toBeLessThan(names.lastIndexOf('run'));
    expect(h.runs).toHaveLength(3);
    expect(schedulerState(db)).toMatchObject({ pid: process.pid, stoppedAt: expect.any(String) });
    expect(schedulerState(db)?.nextRunAt, 'the next tick stays recorded for a later catch-up').not.toBeNull();
  });

  it('catches up once at start on a tick missed while no scheduler ran', async () => {
    const db = freshDb();
    // A scheduler that stopped with its next tick an hour ago, and no run since.
    claimScheduler(db, { cron: '0 2 * * *', timezone: 'UTC', nextRunAt: new Date(Date.now() - 3_600_000) });
    releaseScheduler(db);
    const h = harness(db, 10);
    const done = runScheduler({ cron: '0 3 1 1 *', timezone: 'UTC', runNow: false, db, job: h.job, log: h.log, stopSignal: h.stopSignal });
    await until(() => h.runs.length === 1);
    h.stop('SIGINT');
    await done;
    expect(h.runs.map((r) => r.trigger)).toEqual(['catch-up']);
    expect(h.events.find((e) => e['event'] === 'catch-up')).toMatchObject({ missedTick: expect.any(String) });

    // Started again at once: the yearly tick is ahead, and a run happened since the old one.
    const again = harness(db, 10);
    const done2 = runScheduler({ cron: '0 3 1 1 *', timezone: 'UTC', runNow: false, db, job: again.job, log: again.log, stopSignal: again.stopSignal });
    await until(() => again.events.some((e) => e['event'] === 'started'));
    again.stop('SIGTERM');
    await done2;
    expect(again.runs).toEqual([]);
  });

  it('runs once at start with --run-now, and starts nothing when stopped while starting', async () => {
    const db = freshDb();
    const h = harness(db, 10);
    const done = runScheduler({ cron: '0 3 1 1 *', timezone: 'UTC', runNow: true, db, job: h.job, log: h.log, stopSignal: h.stopSignal });
    await until(() => h.runs.length === 1);
    h.stop('SIGTERM');
    await done;
    expect(h.runs.map((r) => r.trigger)).toEqual(['run-now']);

    const other = freshDb();
    const early = harness(other, 10);
    early.stop('SIGTERM');
    await runScheduler({ cron: '0 3 1 1 *', timezone: 'UTC', runNow: true, db: other, job: early.job, log: early.log, stopSignal: early.stopSignal });
    expect(early.runs).toEqual([]);
    expect(early.events.map((e) => e['event'])).toEqual(['started', 'stopping', 'stopped']);
  });
});
