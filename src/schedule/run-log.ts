import { hostname } from 'node:os';
import type { Severity } from '../policy/rule.js';
import type { Db } from '../snapshot/db.js';
import { latestScanOfScope } from '../snapshot/scan-choice.js';
import { FULL_SCOPE, type ScanScope } from '../snapshot/scope.js';
import type { Delivery } from './notifications/deliver.js';
import type { NotificationEvent, RunOutcome, RunTrigger } from './notifications/notice.js';
import { processAlive } from '../common/process-alive.js';

/** The record of every run of the nightly job (`run`, or a tick of `schedule`), which `status` and the scheduler read. */

export interface RunSummary {
  counts: { fail: number; waived: number; unknown: number; pass: number } | null;
  /** New failures since the previous audited complete scan, by severity; null without an audit. */
  newFindings: { total: number; bySeverity: Record<Severity, number>; comparedWithScan: number | null } | null;
  error: string | null;
  reportDir: string | null;
  /** Scans deleted by --keep after the run. */
  deletedScans: number[];
}

export interface RunRecord {
  id: number;
  trigger: RunTrigger;
  startedAt: string;
  finishedAt: string | null;
  pid: number;
  host: string;
  /** Null while the run is going (or its process died without finishing it; see recoverAbandonedRuns). */
  outcome: RunOutcome | null;
  exitCode: number | null;
  scanId: number | null;
  summary: RunSummary | null;
}

export function beginRun(db: Db, trigger: RunTrigger, now = new Date()): number {
  recoverAbandonedRuns(db);
  const info = db.prepare('INSERT INTO runs (trigger, started_at, pid, host) VALUES (?, ?, ?, ?)').run(trigger, now.toISOString(), process.pid, hostname());
  return Number(info.lastInsertRowid);
}

export function finishRun(db: Db, id: number, end: { outcome: RunOutcome; exitCode: number; scanId: number | null; summary: RunSummary }, now = new Date()): void {
  const update = 'UPDATE runs SET finished_at = ?, outcome = ?, exit_code = ?, scan_id = ?, summary = ? WHERE id = ?';
  db.prepare(update).run(now.toISOString(), end.outcome, end.exitCode, end.scanId, JSON.stringify(end.summary), id);
}

/** Marks aborted the unfinished runs of this host whose process is gone (other hosts' cannot be checked). */
export function recoverAbandonedRuns(db: Db): number[] {
  const open = db.prepare('SELECT id, pid, host, started_at FROM runs WHERE outcome IS NULL').all() as Array<{ id: number; pid: number; host: string; started_at: string }>;
  const dead = open.filter((r) => r.host === hostname() && r.pid !== process.pid && !processAlive(r.pid));
  const summary: RunSummary = { counts: null, newFindings: null, error: 'the process ended before the run finished', reportDir: null, deletedScans: [] };
  const mark = db.prepare("UPDATE runs SET outcome = 'aborted', finished_at = ?, summary = ? WHERE id = ? AND outcome IS NULL");
  for (const r of dead) mark.run(r.started_at, JSON.stringify(summary), r.id);
  return dead.map((r) => r.id);
}

const RUN_COLUMNS = 'id, trigger, started_at AS startedAt, finished_at AS finishedAt, pid, host, outcome, exit_code AS exitCode, scan_id AS scanId, summary';

/** The newest runs, newest first. */
export function recentRuns(db: Db, limit: number): RunRecord[] {
  const rows = db.prepare(`SELECT ${RUN_COLUMNS} FROM runs ORDER BY id DESC LIMIT ?`).all(limit) as Array<Omit<RunRecord, 'summary'> & { summary: string | null }>;
  return rows.map((r) => ({ ...r, summary: r.summary ? (JSON.parse(r.summary) as RunSummary) : null }));
}

export function lastRun(db: Db): RunRecord | null {
  return recentRuns(db, 1)[0] ?? null;
}

/** The newest complete scan of the scope, by any command: what staleness is measured from (a one-zone rescan keeps nothing fresh). */
export function lastCompleteScan(db: Db, scope: ScanScope = FULL_SCOPE): { id: number; finishedAt: string } | null {
  const id = latestScanOfScope(db, ['complete'], scope);
  if (id === null) return null;
  const row = db.prepare('SELECT finished_at FROM scans WHERE id = ?').get(id) as { finished_at: string };
  return { id, finishedAt: row.finished_at };
}

/** The newest scan of the scope whatever its status: a failed or incomplete one is news for status. */
export function lastScanOf(db: Db, scope: ScanScope = FULL_SCOPE): { id: number; status: string; startedAt: string; finishedAt: string | null } | null {
  const id = latestScanOfScope(db, ['running', 'complete', 'incomplete', 'aborted'], scope);
  if (id === null) return null;
  const row = db.prepare('SELECT status, started_at, finished_at FROM scans WHERE id = ?').get(id) as { status: string; started_at: string; finished_at: string | null };
  return { id, status: row.status, startedAt: row.started_at, finishedAt: row.finished_at };
}

export function recordDeliveries(db: Db, runId: number | null, deliveries: readonly Delivery[], now = new Date()): void {
  const insert = db.prepare('INSERT INTO notifications (run_id, event, target, at, ok, attempts, http_status, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const d of deliveries) insert.run(runId, d.event, d.target, now.toISOString(), d.ok ? 1 : 0, d.attempts, d.status, d.error);
  })();
}

/** When an event was last delivered to some target, or null. */
export function lastDelivered(db: Db, event: NotificationEvent): string | null {
  const row = db.prepare('SELECT max(at) AS at FROM notifications WHERE event = ? AND ok = 1').get(event) as { at: string | null };
  return row.at;
}
