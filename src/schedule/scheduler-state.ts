import { hostname } from 'node:os';
import { ZonewardenError } from '../common/errors.js';
import type { Db } from '../snapshot/db.js';
import { processAlive } from '../common/process-alive.js';

/** The scheduler's row: cron, time zone, next tick (for `status` and catch-up). One scheduler per database. */

export interface SchedulerState {
  cron: string;
  timezone: string;
  pid: number;
  host: string;
  startedAt: string;
  stoppedAt: string | null;
  nextRunAt: string | null;
}

export class SchedulerRunning extends ZonewardenError {
  constructor(state: SchedulerState) {
    super('ZW_SCHEDULER_RUNNING', `a scheduler is already running on this database (pid ${state.pid} since ${state.startedAt}); stop it first, or use another --db`);
  }
}

export function schedulerState(db: Db): SchedulerState | null {
  const select = 'SELECT cron, timezone, pid, host, started_at AS startedAt, stopped_at AS stoppedAt, next_run_at AS nextRunAt FROM scheduler WHERE id = 1';
  return (db.prepare(select).get() as SchedulerState | undefined) ?? null;
}

/** Whether the recorded scheduler is still running: on this host, its process is checked; elsewhere it is taken at its word. */
export function schedulerAlive(state: SchedulerState): boolean {
  if (state.stoppedAt !== null) return false;
  return state.host === hostname() ? processAlive(state.pid) : true;
}

/**
 * Records this process as the scheduler and returns the previous record. A live one on this host is
 * refused; another host's is replaced (its liveness cannot be checked, and a crashed one must not block).
 */
export function claimScheduler(db: Db, settings: { cron: string; timezone: string; nextRunAt: Date | null }, now = new Date()): SchedulerState | null {
  return db
    .transaction(() => {
      const previous = schedulerState(db);
      if (previous && previous.host === hostname() && previous.pid !== process.pid && schedulerAlive(previous)) throw new SchedulerRunning(previous);
      db.prepare(
        `INSERT INTO scheduler (id, cron, timezone, pid, host, started_at, stopped_at, next_run_at) VALUES (1, ?, ?, ?, ?, ?, NULL, ?)
         ON CONFLICT (id) DO UPDATE SET cron = excluded.cron, timezone = excluded.timezone, pid = excluded.pid, host = excluded.host,
           started_at = excluded.started_at, stopped_at = NULL, next_run_at = excluded.next_run_at`,
      ).run(settings.cron, settings.timezone, process.pid, hostname(), now.toISOString(), settings.nextRunAt?.toISOString() ?? null);
      return previous;
    })
    .immediate();
}

export function recordNextRun(db: Db, nextRunAt: Date | null): void {
  db.prepare('UPDATE scheduler SET next_run_at = ? WHERE id = 1 AND pid = ?').run(nextRunAt?.toISOString() ?? null, process.pid);
}

/** Marks the scheduler stopped; its next tick stays, for the catch-up check of the next one to start. */
export function releaseScheduler(db: Db, now = new Date()): void {
  db.prepare('UPDATE scheduler SET stopped_at = ? WHERE id = 1 AND pid = ?').run(now.toISOString(), process.pid);
}
