import type { Db } from '../snapshot/db.js';
import { recentRuns, recoverAbandonedRuns, type RunRecord } from './run-log.js';
import { schedulerAlive, schedulerState } from './scheduler-state.js';
import { staleness } from './staleness.js';

/**
 * What `zonewarden status` reports, for people and for monitoring: the last run and how it
 * ended, the scheduler and its next tick, the last webhook delivery, and whether the last
 * complete scan is older than max-age. The JSON form is `zonewarden.status/1`.
 */

export interface StatusView {
  schema: 'zonewarden.status/1';
  checkedAt: string;
  stale: boolean;
  maxAgeSeconds: number;
  /** Seconds since the last complete scan finished (or, with none, since the first scan started); null: nothing has run. */
  ageSeconds: number | null;
  lastCompleteScan: { id: number; finishedAt: string } | null;
  lastRun: (Omit<RunRecord, 'summary' | 'pid' | 'host'> & { running: boolean; newFailures: number | null; reportDir: string | null; error: string | null }) | null;
  scheduler: { cron: string; timezone: string; pid: number; host: string; startedAt: string; stoppedAt: string | null; running: boolean } | null;
  /** The scheduler's next tick; null when no scheduler is running. */
  nextRun: string | null;
  lastNotification: { event: string; target: string; at: string; ok: boolean; attempts: number; error: string | null } | null;
}

export function statusOf(db: Db, maxAgeMs: number, now = new Date()): StatusView {
  recoverAbandonedRuns(db);
  const s = staleness(db, maxAgeMs, now);
  const run = recentRuns(db, 1)[0];
  const scheduler = schedulerState(db);
  const running = scheduler !== null && schedulerAlive(scheduler);
  const note = db.prepare('SELECT event, target, at, ok, attempts, error FROM notifications ORDER BY id DESC LIMIT 1').get() as
    | { event: string; target: string; at: string; ok: number; attempts: number; error: string | null }
    | undefined;
  return {
    schema: 'zonewarden.status/1',
    checkedAt: now.toISOString(),
    stale: s.stale,
    maxAgeSeconds: Math.round(maxAgeMs / 1000),
    ageSeconds: s.ageMs === null ? null : Math.round(s.ageMs / 1000),
    lastCompleteScan: s.lastComplete,
    lastRun: run
      ? {
          id: run.id,
          trigger: run.trigger,
          startedAt: run.startedAt,
          finishedAt: run.finishedAt,
          outcome: run.outcome,
          exitCode: run.exitCode,
          scanId: run.scanId,
          running: run.outcome === null,
          newFailures: run.summary?.newFindings?.total ?? null,
          reportDir: run.summary?.reportDir ?? null,
          error: run.summary?.error ?? null,
        }
      : null,
    scheduler: scheduler && { cron: scheduler.cron, timezone: scheduler.timezone, pid: scheduler.pid, host: scheduler.host, startedAt: scheduler.startedAt, stoppedAt: scheduler.stoppedAt, running },
    nextRun: running ? scheduler.nextRunAt : null,
    lastNotification: note ? { ...note, ok: note.ok === 1 } : null,
  };
}
