import type { Db } from '../snapshot/db.js';
import { SnapshotReader } from '../snapshot/reader.js';
import { latestScanOfScope } from '../snapshot/scan-choice.js';
import { FULL_SCOPE, type ScanScope } from '../snapshot/scope.js';
import { statusOf } from '../schedule/status.js';
import { RUN_OUTCOMES } from '../schedule/notifications/notice.js';
import { officialAuditHeader, type AuditHeader } from '../audit/store.js';
import { findingCounts } from '../audit/reuse-rows.js';
import { STATUSES } from '../policy/findings.js';
import { SEVERITIES } from '../policy/rule.js';
import { PACKAGE } from '../common/package-info.js';
import type { ScanSummary } from '../crawler/summary.js';
import { certificateFamilies } from './certificates.js';
import { gauge, type MetricFamily, type Sample } from './exposition.js';

/**
 * The metrics of a database for Prometheus (docs/monitoring.md), read only: the metrics command may
 * run as a user who cannot write the database. Every value is a gauge (a state, not a count that
 * only grows); a state is a label with 1 on the current value and 0 on the others, so that an alert
 * compares with a value rather than the absence of a series. No free text of a run becomes a label.
 */
interface CollectOptions {
  now?: Date;
  scope?: ScanScope;
  /** --max-age, exported so that alerts can use the same limit as status. */
  maxAgeMs: number;
}

const seconds = (iso: string) => Date.parse(iso) / 1000;
const one = (value: number): Sample[] => [{ value }];
const flag = (on: boolean) => (on ? 1 : 0);

export function collectMetrics(db: Db, options: CollectOptions): MetricFamily[] {
  const now = options.now ?? new Date();
  const scope = options.scope ?? FULL_SCOPE;
  const status = statusOf(db, options.maxAgeMs, now, scope);
  const audit = latestOfficialAudit(db, scope);
  return [
    gauge('zonewarden_build_info', 'The zonewarden version that wrote these metrics (always 1).', [{ labels: { version: PACKAGE.version }, value: 1 }]),
    gauge('zonewarden_metrics_timestamp_seconds', 'When these metrics were taken from the database.', one(now.getTime() / 1000)),
    gauge('zonewarden_max_age_seconds', 'The configured --max-age: how old the last complete scan may be before status calls it stale.', one(status.maxAgeSeconds)),
    ...runFamilies(db, status),
    gauge(
      'zonewarden_last_complete_scan_end_timestamp_seconds',
      'When the newest complete scan of the scope finished.',
      status.lastCompleteScan ? one(seconds(status.lastCompleteScan.finishedAt)) : [],
    ),
    gauge(
      'zonewarden_last_complete_scan_age_seconds',
      'Age of the newest complete scan of the scope when these metrics were taken (alert on time() minus the end timestamp instead: a file is read long after it is written).',
      status.lastCompleteScan ? one(status.ageSeconds ?? 0) : [],
    ),
    gauge('zonewarden_stale', '1 when the newest complete scan is older than --max-age or there is none, as status reports it.', one(flag(status.stale))),
    ...auditFamilies(db, audit),
    ...certificateFamilies(audit && new SnapshotReader(db, audit.scanId), now),
  ];
}

type Status = ReturnType<typeof statusOf>;

/** The last run as status sees it (a run whose process died is aborted), and the scan it made. */
function runFamilies(db: Db, status: Status): MetricFamily[] {
  const run = status.lastRun;
  const outcome = run === null ? null : run.running ? 'running' : run.outcome;
  const success = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'").get()
    ? (db.prepare("SELECT finished_at FROM runs WHERE outcome IN ('ok', 'findings') ORDER BY id DESC LIMIT 1").pluck().get() as string | undefined)
    : undefined;
  const scan = run?.scanId == null ? undefined : (db.prepare('SELECT status, summary FROM scans WHERE id = ?').get(run.scanId) as { status: string; summary: string | null } | undefined);
  // A scan that ended early keeps only its error and reads in its summary: no counts to give.
  const parsed = scan?.summary ? (JSON.parse(scan.summary) as Partial<ScanSummary>) : null;
  const summary = parsed?.requests && parsed.missing ? (parsed as ScanSummary) : null;
  return [
    gauge('zonewarden_last_run_start_timestamp_seconds', 'When the last run of the nightly job (run or schedule) started.', run ? one(seconds(run.startedAt)) : []),
    gauge('zonewarden_last_run_end_timestamp_seconds', 'When the last run of the nightly job ended (absent while it runs).', run?.finishedAt ? one(seconds(run.finishedAt)) : []),
    gauge(
      'zonewarden_last_run_outcome',
      'How the last run ended: 1 for its outcome, 0 for the others (ok, findings: it ran; incomplete: the scan missed parts or a rule could not run; failed, aborted; running).',
      run ? [...RUN_OUTCOMES, 'running'].map((o) => ({ labels: { outcome: o }, value: flag(o === outcome) })) : [],
    ),
    gauge('zonewarden_last_run_exit_code', 'The exit code of the last run (0 done, 1 findings at or above --fail-on, 2 failed, 3 incomplete).', run?.exitCode != null ? one(run.exitCode) : []),
    gauge('zonewarden_last_success_timestamp_seconds', 'When the newest run that ended ok or with findings finished.', success ? one(seconds(success)) : []),
    gauge('zonewarden_last_run_scan_complete', '1 when the scan of the last run read everything it was meant to, else 0 (incomplete or aborted).', scan ? one(flag(scan.status === 'complete')) : []),
    gauge('zonewarden_last_run_scan_api_requests', 'API requests the scan of the last run made, retries included.', summary ? one(summary.requests.total) : []),
    gauge(
      'zonewarden_last_run_scan_zones',
      'Zones of the scan of the last run by how they were read: in full, or carried forward from the scan before (only what can change unlogged read again).',
      summary?.reads
        ? [
            { labels: { read: 'full' }, value: summary.reads.zonesRead },
            { labels: { read: 'carried_forward' }, value: summary.reads.zonesCarried },
          ]
        : [],
    ),
    gauge('zonewarden_last_run_scan_unread_parts', 'Parts (a list of a zone, an account) the scan of the last run could not read.', summary ? one(summary.missing.length) : []),
  ];
}

/** The official audit of the newest audited scan of the scope (complete or incomplete): what reports and drift rest on. */
function latestOfficialAudit(db: Db, scope: ScanScope): AuditHeader | null {
  let before: number | undefined;
  for (;;) {
    const scanId = latestScanOfScope(db, ['complete', 'incomplete'], scope, before);
    if (scanId === null) return null;
    const header = officialAuditHeader(db, scanId);
    if (header) return header;
    before = scanId;
  }
}

function auditFamilies(db: Db, audit: AuditHeader | null): MetricFamily[] {
  const scanStart = audit && (db.prepare('SELECT started_at FROM scans WHERE id = ?').pluck().get(audit.scanId) as string);
  const counts = audit ? [...findingCounts(db, audit.auditId).values()].sort((a, b) => (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)) : [];
  return [
    gauge('zonewarden_audit_timestamp_seconds', 'When the latest official audit of the scope was made.', audit ? one(seconds(audit.evaluatedAt)) : []),
    gauge('zonewarden_audit_scan_start_timestamp_seconds', 'When the scan the latest official audit judged started.', scanStart ? one(seconds(scanStart)) : []),
    gauge('zonewarden_audit_verdicts', "The latest audit's verdicts by status: pass, fail (not waived), waived, unknown (the data to judge was missing).", audit ? STATUSES.map((s) => ({ labels: { status: s }, value: audit.counts.byStatus[s] ?? 0 })) : []),
    gauge(
      'zonewarden_audit_failing_findings',
      'Failing findings of the latest audit by severity, waived ones apart (every severity, 0 included).',
      audit ? SEVERITIES.map((s) => ({ labels: { severity: s }, value: audit.counts.failBySeverity[s] ?? 0 })) : [],
    ),
    gauge(
      'zonewarden_audit_findings',
      'Findings of the latest audit by rule, severity and status (fail, waived, unknown); a combination with none has no series.',
      counts.map((c) => ({ labels: { rule: c.rule, severity: c.severity, status: c.status }, value: c.n })),
    ),
    gauge('zonewarden_audit_rule_errors', 'Rules that could not run in the latest audit (the audit is then incomplete).', audit ? one(audit.errors.length) : []),
  ];
}
