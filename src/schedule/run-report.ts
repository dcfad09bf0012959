import type { Severity } from '../policy/rule.js';
import type { Delivery } from './notifications/deliver.js';
import type { NoticeFinding, RunNotice, RunOutcome, RunTrigger } from './notifications/notice.js';
import type { Staleness } from './staleness.js';

/** One run of the nightly job: its JSON log line (docs/nightly.md), and the source of its notifications. */
export interface RunReport {
  run: number;
  trigger: RunTrigger;
  startedAt: string;
  finishedAt: string;
  durationSeconds: number;
  outcome: RunOutcome;
  exitCode: number;
  scan: { id: number; status: 'complete' | 'incomplete' | 'aborted'; startedAt: string; zones: number | null; requests: number | null; unreadPartitions: number | null } | null;
  counts: { fail: number; waived: number; unknown: number; pass: number } | null;
  newFindings: { total: number; bySeverity: Record<Severity, number>; comparedWithScan: number | null } | null;
  /** Rules that could not run on this scan. */
  ruleErrors: number;
  reportDir: string | null;
  reportFiles: string[];
  deletedScans: number[];
  notifications: Delivery[];
  /** Why a failed or aborted run ended, redacted. */
  error: string | null;
}

/** The notices a finished run calls for: failure, incomplete scan, new failures (any: webhooks filter), staleness. */
export function runNotices(report: RunReport, worst: readonly NoticeFinding[], stale: Staleness, staleDue: boolean): RunNotice[] {
  const run = {
    id: report.run,
    trigger: report.trigger,
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    outcome: report.outcome,
    exitCode: report.exitCode,
    error: report.error,
  };
  const base: Omit<RunNotice, 'event'> = {
    run,
    scan: report.scan && { id: report.scan.id, status: report.scan.status, startedAt: report.scan.startedAt, unreadPartitions: report.scan.unreadPartitions ?? 0 },
    counts: report.counts,
    newFindings: report.newFindings && { comparedWithScan: report.newFindings.comparedWithScan, bySeverity: report.newFindings.bySeverity, worst: [...worst] },
    lastCompleteScan: stale.lastComplete,
    maxAgeSeconds: Math.round(stale.maxAgeMs / 1000),
    report: report.reportDir === null ? null : { dir: report.reportDir, files: report.reportFiles },
  };
  const notices: RunNotice[] = [];
  // A run stopped by the operator (SIGTERM on a service stop) is not news.
  if (report.outcome === 'failed') notices.push({ ...base, event: 'failed' });
  // Incomplete: data unread, or a rule that could not run (exit 3, or hidden behind exit 1).
  const ran = report.outcome !== 'failed' && report.outcome !== 'aborted';
  if (ran && (report.scan?.status === 'incomplete' || report.outcome === 'incomplete' || report.ruleErrors > 0)) notices.push({ ...base, event: 'incomplete' });
  if (report.newFindings && report.newFindings.total > 0) notices.push({ ...base, event: 'new-findings' });
  if (staleDue) notices.push({ ...base, event: 'stale' });
  return notices;
}

/** A staleness notice with no run behind it: the scheduler starting on a stale database. */
export function staleNotice(stale: Staleness): RunNotice {
  return {
    event: 'stale',
    run: null,
    scan: null,
    counts: null,
    newFindings: null,
    lastCompleteScan: stale.lastComplete,
    maxAgeSeconds: Math.round(stale.maxAgeMs / 1000),
    report: null,
  };
}
