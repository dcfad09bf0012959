import { hostname } from 'node:os';
import { processAlive } from '../common/process-alive.js';
import { scanIsAlive, type Db, type RunningScan } from '../snapshot/db.js';
import { formatDuration } from '../common/duration.js';
import { FULL_SCOPE, type ScanScope } from '../snapshot/scope.js';
import { lastScanOf, recentRuns, type RunRecord } from './run-log.js';
import { schedulerAlive, schedulerState } from './scheduler-state.js';
import { staleness, type Staleness } from './staleness.js';

/** What `zonewarden status` reports (`zonewarden.status/1`); it only reads, and copes with databases without a run log. */

export interface StatusView {
  schema: 'zonewarden.status/1';
  checkedAt: string;
  stale: boolean;
  maxAgeSeconds: number;
  /** Seconds since the last complete scan finished (or, with none, since the first scan started); null: nothing has run. */
  ageSeconds: number | null;
  lastCompleteScan: { id: number; finishedAt: string } | null;
  /** The scope status is about: the config's --account and --zone, or the whole organisation (both empty). */
  scope: ScanScope;
  /** The newest scan of that scope; one left `running` by a process that is gone is `interrupted`. */
  lastScan: { id: number; status: string; startedAt: string; finishedAt: string | null; lastHeardAt: string | null } | null;
  /** Why status is not all clear, one line each: staleness, a failed or aborted run, an incomplete or aborted scan. */
  problems: string[];
  /** 0 all clear (or waiting for a first scan within max-age); 1 a problem above. */
  exitCode: 0 | 1;
  lastRun: (Omit<RunRecord, 'summary' | 'pid' | 'host'> & { running: boolean; newFailures: number | null; reportDir: string | null; error: string | null }) | null;
  scheduler: { cron: string; timezone: string; pid: number; host: string; startedAt: string; stoppedAt: string | null; running: boolean } | null;
  /** The scheduler's next tick; null when no scheduler is running. */
  nextRun: string | null;
  lastNotification: { event: string; target: string; at: string; ok: boolean; attempts: number; error: string | null } | null;
}

/** An unfinished run is going if its process is (another host's: taken at its word) and its scan is still heard from. */
function stillGoing(run: RunRecord, interruptedScan: number | null): boolean {
  if (run.outcome !== null || (run.scanId !== null && run.scanId === interruptedScan)) return false;
  return run.host !== hostname() || processAlive(run.pid);
}

/** The newest scan of the scope, `interrupted` when running but no longer alive, and when it was last heard from. */
function lastScanView(db: Db, scope: ScanScope, now: Date): StatusView['lastScan'] {
  const scan = lastScanOf(db, scope);
  if (scan === null) return null;
  if (scan.status !== 'running') return { ...scan, lastHeardAt: null };
  const row = db.prepare('SELECT id, pid, host, heartbeat_at FROM scans WHERE id = ?').get(scan.id) as RunningScan;
  return { ...scan, status: scanIsAlive(row, now.getTime()) ? 'running' : 'interrupted', lastHeardAt: row.heartbeat_at };
}

/** What needs a person: staleness, a last run that ended badly (unsettled), a newer scan that did not complete. */
function problemsOf(s: Staleness, run: StatusView['lastRun'], scan: StatusView['lastScan']): string[] {
  const problems: string[] = [];
  const age = s.ageMs === null ? null : formatDuration(s.ageMs);
  if (s.stale) {
    problems.push(
      s.lastComplete
        ? `stale: the last complete scan (${s.lastComplete.id}) finished ${age} ago, more than the max age of ${formatDuration(s.maxAgeMs)}`
        : s.ageMs === null
          ? 'stale: nothing has run on this database yet'
          : `stale: no complete scan yet, and the first scan started ${age} ago`,
    );
  }
  // A complete scan since the run started (a manual scan after fixing the cause) settles it.
  const settled = run !== null && s.lastComplete !== null && Date.parse(s.lastComplete.finishedAt) > Date.parse(run.startedAt);
  if (run && !run.running && !settled && (run.outcome === 'failed' || run.outcome === 'aborted' || run.outcome === 'incomplete')) {
    problems.push(`the last run (${run.id}) ended ${run.outcome}${run.error ? `: ${run.error}` : ''}`);
  }
  const newer = scan !== null && (s.lastComplete === null || scan.id > s.lastComplete.id);
  if (newer && scan.id !== run?.scanId) {
    if (scan.status === 'incomplete' || scan.status === 'aborted') problems.push(`the last scan (${scan.id}) is ${scan.status}`);
    if (scan.status === 'interrupted') problems.push(`the last scan (${scan.id}) was interrupted: ${interruptedText(scan)}`);
  }
  return problems;
}

/** How an interrupted scan is told, in `status` and its problems. */
export function interruptedText(scan: { lastHeardAt: string | null }): string {
  return `its process is gone, last heard from at ${scan.lastHeardAt ?? 'an unknown time'}; the next scan or run records it as aborted`;
}

export function statusOf(db: Db, maxAgeMs: number, now = new Date(), scope: ScanScope = FULL_SCOPE): StatusView {
  const s = staleness(db, maxAgeMs, now, scope);
  const lastScan = lastScanView(db, scope, now);
  const hasRunLog = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'").get() !== undefined;
  const run = hasRunLog ? recentRuns(db, 1)[0] : undefined;
  const scheduler = hasRunLog ? schedulerState(db) : null;
  const running = scheduler !== null && schedulerAlive(scheduler);
  const note = hasRunLog
    ? (db.prepare('SELECT event, target, at, ok, attempts, error FROM notifications ORDER BY id DESC LIMIT 1').get() as
        | { event: string; target: string; at: string; ok: number; attempts: number; error: string | null }
        | undefined)
    : undefined;
  const interrupted = lastScan?.status === 'interrupted' ? lastScan.id : null;
  const cut = run !== undefined && run.outcome === null && !stillGoing(run, interrupted);
  const lastRun: StatusView['lastRun'] = run
    ? {
        id: run.id,
        trigger: run.trigger,
        startedAt: run.startedAt,
        finishedAt: run.finishedAt,
        // A run whose process died unfinished is reported as the next writer will record it.
        outcome: cut ? 'aborted' : run.outcome,
        exitCode: run.exitCode,
        scanId: run.scanId,
        running: stillGoing(run, interrupted),
        newFailures: run.summary?.newFindings?.total ?? null,
        reportDir: run.summary?.reportDir ?? null,
        error: cut ? 'the process ended before the run finished' : (run.summary?.error ?? null),
      }
    : null;
  const problems = problemsOf(s, lastRun, lastScan);
  return {
    schema: 'zonewarden.status/1',
    checkedAt: now.toISOString(),
    stale: s.stale,
    maxAgeSeconds: Math.round(maxAgeMs / 1000),
    ageSeconds: s.ageMs === null ? null : Math.round(s.ageMs / 1000),
    lastCompleteScan: s.lastComplete,
    scope,
    lastScan,
    problems,
    exitCode: problems.length ? 1 : 0,
    lastRun,
    scheduler: scheduler && { cron: scheduler.cron, timezone: scheduler.timezone, pid: scheduler.pid, host: scheduler.host, startedAt: scheduler.startedAt, stoppedAt: scheduler.stoppedAt, running },
    nextRun: running ? scheduler.nextRunAt : null,
    lastNotification: note ? { ...note, ok: note.ok === 1 } : null,
  };
}
