import type { Severity } from '../../policy/rule.js';

/** What a notification is about: plain data from the job, turned into a payload per target. */

export const NOTIFICATION_EVENTS = ['new-findings', 'failed', 'incomplete', 'stale'] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** How a run ended: `findings` is exit 1 (at or above --fail-on), `incomplete` exit 3, `failed` exit 2. */
export const RUN_OUTCOMES = ['ok', 'findings', 'incomplete', 'failed', 'aborted'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/** What started a run: `zonewarden run`, a cron tick, --run-now, or the catch-up of a missed tick. */
export const RUN_TRIGGERS = ['manual', 'schedule', 'run-now', 'catch-up'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

export interface NoticeFinding {
  /** `new`: failing now and not before; `unwaived`: failing again because its waiver ended. */
  change: 'new' | 'unwaived';
  rule: string;
  severity: Severity;
  account: string | null;
  zone: string | null;
  /** The resource as one line, e.g. `dns_record www.example.com (A)`. */
  resource: string;
  message: string;
  fingerprint: string;
}

export interface NoticeRun {
  id: number;
  trigger: RunTrigger;
  startedAt: string;
  finishedAt: string;
  outcome: RunOutcome;
  exitCode: number;
  /** Why a failed or aborted run ended, already redacted. */
  error: string | null;
}

export interface RunNotice {
  event: NotificationEvent;
  /** The run that prompted it; null for a staleness check with no run (the scheduler starting). */
  run: NoticeRun | null;
  scan: { id: number; status: 'complete' | 'incomplete' | 'aborted'; startedAt: string; unreadPartitions: number } | null;
  /** The audit's counts by status; null when the run produced no audit. */
  counts: { fail: number; waived: number; unknown: number; pass: number } | null;
  /** Failures new since the previous audited complete scan: counts and the worst 50; null without an audit. */
  newFindings: { comparedWithScan: number | null; bySeverity: Record<Severity, number>; worst: NoticeFinding[] } | null;
  lastCompleteScan: { id: number; finishedAt: string } | null;
  /** How old the last complete scan may be before it is stale (--max-age). */
  maxAgeSeconds: number;
  /** The report directory written by the run, and its files (absolute paths on the host). */
  report: { dir: string; files: string[] } | null;
}
