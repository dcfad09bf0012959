import { failureMessage, type Db } from '../snapshot/db.js';
import { cronTimer } from './cron.js';
import type { RunTrigger } from './notifications/notice.js';
import { lastRun } from './run-log.js';
import { claimScheduler, recordNextRun, releaseScheduler } from './scheduler-state.js';

/**
 * The scheduler's loop: the job at every cron tick, never two at once, one catch-up at start for a
 * tick missed while down; on stop, the current run ends first. Each event is a JSON line on `log`.
 */

export interface SchedulerOptions {
  cron: string;
  timezone: string;
  /** Run once at start, whatever the schedule says (this also covers a missed tick). */
  runNow: boolean;
  /** The database the scheduler records itself and reads the run log in. */
  db: Db;
  /** One run of the job; resolves with the fields of its log line, and must not reject. */
  job: (trigger: RunTrigger) => Promise<Record<string, unknown>>;
  log: (event: Record<string, unknown>) => void;
  stopSignal: Promise<string>;
  /** Called once after the start has been logged, before any run (the staleness check). */
  onStart?: () => Promise<void>;
}

/** Whether a tick was due while no scheduler ran: the last recorded next tick passed with no run started since. */
export function missedTick(previousNextRun: string | null, lastRunStartedAt: string | null, now: Date): string | null {
  if (previousNextRun === null || Date.parse(previousNextRun) > now.getTime()) return null;
  if (lastRunStartedAt !== null && Date.parse(lastRunStartedAt) >= Date.parse(previousNextRun)) return null;
  return previousNextRun;
}

export async function runScheduler(o: SchedulerOptions): Promise<void> {
  let current: Promise<void> | null = null;
  let runningSince: string | null = null;
  let stopping = false;
  let signalled: string | null = null;
  void o.stopSignal.then((signal) => (signalled = signal));

  // The scheduler outlives a failing database (a full disk): its own bookkeeping is logged, never fatal.
  const noteNextRun = () => {
    try {
      recordNextRun(o.db, timer.next());
    } catch (err) {
      o.log({ event: 'error', message: failureMessage(err) });
    }
  };
  const start = (trigger: RunTrigger) => {
    runningSince = new Date().toISOString();
    current = o
      .job(trigger)
      .then((fields) => o.log({ event: 'run', ...fields }))
      .catch((err: unknown) => o.log({ event: 'error', message: failureMessage(err) }))
      .finally(() => {
        current = null;
        runningSince = null;
        if (!stopping) noteNextRun();
      });
  };
  const skip = (at: Date, reason: string) => o.log({ event: 'skipped', tick: at.toISOString(), reason, runningSince });
  const timer = cronTimer(
    o.cron,
    o.timezone,
    (at) => {
      if (stopping) return;
      if (current) skip(at, 'a run is in progress');
      else start('schedule');
      noteNextRun();
    },
    (at) => !stopping && skip(at, current ? 'a run is in progress' : 'the process was busy at the tick'),
  );

  timer.start();
  let previous;
  try {
    previous = claimScheduler(o.db, { cron: o.cron, timezone: o.timezone, nextRunAt: timer.next() });
  } catch (err) {
    timer.stop();
    throw err;
  }
  o.log({ event: 'started', cron: o.cron, timezone: o.timezone, pid: process.pid, nextRun: timer.next()?.toISOString() ?? null });
  await o.onStart?.();

  const missed = missedTick(previous?.nextRunAt ?? null, lastRun(o.db)?.startedAt ?? null, new Date());
  // A stop that came while starting up starts nothing.
  if (!signalled && o.runNow) start('run-now');
  else if (!signalled && missed) {
    o.log({ event: 'catch-up', missedTick: missed });
    start('catch-up');
  }

  const signal = await o.stopSignal;
  stopping = true;
  // The next tick stays recorded: if it passes before a scheduler runs again, that one catches up.
  noteNextRun();
  timer.stop();
  o.log({ event: 'stopping', signal, waitingForRun: current !== null });
  while (current) await current;
  try {
    releaseScheduler(o.db);
  } catch (err) {
    o.log({ event: 'error', message: failureMessage(err) });
  }
  o.log({ event: 'stopped', signal });
}
