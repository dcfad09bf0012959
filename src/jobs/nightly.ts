import { resolve } from 'node:path';
import { redactorFor } from '../config/credentials.js';
import { ConfigError } from '../config/config-error.js';
import type { Config } from '../config/load.js';
import { loadTemplates } from '../report/templates.js';
import { pruneScansAndReports } from '../report/retention.js';
import { newFailures, total } from '../schedule/new-findings.js';
import type { RunTrigger } from '../schedule/notifications/notice.js';
import { notify } from '../schedule/notifications/notify.js';
import { notificationSettings, type NotificationSettings } from '../schedule/notifications/settings.js';
import { beginRun, finishRun, recordDeliveries } from '../schedule/run-log.js';
import { runNotices, staleNotice, type RunReport } from '../schedule/run-report.js';
import { staleNoticeDue, staleness } from '../schedule/staleness.js';
import { parseDuration } from '../common/duration.js';
import { publishMetrics } from '../metrics/publish.js';
import { metricsPathProblem } from '../metrics/write-file.js';
import { EXIT, ZonewardenError } from '../common/errors.js';
import { openSnapshot, type Db } from '../snapshot/db.js';
import type { ScanScope } from '../snapshot/scope.js';
import type { JobIO } from './job-io.js';
import { closing, configScope } from './from-config.js';
import { runJob, ScanAborted, type JobOutcome, type ReportSettings } from './job.js';

/**
 * One run of the nightly job (`run`, `schedule`): the job recorded in the run log, retention, webhooks. A failing
 * webhook is logged, never the run's failure; a failed run is returned, not thrown, so that its notifications still
 * go out and the scheduler carries on.
 */

export interface NightlySettings {
  report: ReportSettings;
  maxAgeMs: number;
  notifications: NotificationSettings;
  /** --metrics-file, resolved: written after each run (and at the scheduler's start); null when not asked for. */
  metricsFile: string | null;
}

/** The settings `run` and `schedule` share, checked once before anything starts. */
export function nightlySettings(config: Config, io: JobIO, report: ReportSettings): NightlySettings {
  const maxAgeMs = parseDuration(config.maxAge);
  if (maxAgeMs === null) throw new ConfigError(`max-age "${config.maxAge.slice(0, 40)}" is not a duration; e.g. 36h, 2d, 90m or 1d12h`);
  const source = config.configFile ? `config file ${config.configFile}` : 'config';
  const metricsFile = config.metricsFile === undefined ? null : resolve(io.cwd, config.metricsFile);
  const problem = metricsFile === null ? null : metricsPathProblem(metricsFile);
  if (problem) throw new ConfigError(problem);
  return { report, maxAgeMs, notifications: notificationSettings(config.notifications, io.env, source), metricsFile };
}

export interface NightlyResult {
  report: RunReport;
  /** Why the run failed, for `run` to exit with; null when it ran. */
  error: unknown;
}

export async function nightlyRun(config: Config, io: JobIO, settings: NightlySettings, trigger: RunTrigger): Promise<NightlyResult> {
  const redact = redactorFor(io.env, config);
  return closing(openSnapshot(resolve(io.cwd, config.db)), async (db) => {
    const started = new Date();
    const runId = beginRun(db, trigger, started);
    let job: JobOutcome | null = null;
    let error: unknown = null;
    try {
      job = await runJob(config, io, settings.report, trigger === 'manual' ? 'run' : 'schedule');
    } catch (err) {
      error = err;
    }
    const finished = new Date();
    const done = job && { job, fresh: newFailures(db, job.audit.stored!.auditId, job.report.drift, job.audit.counts.failBySeverity) };
    const report = reportOf(db, { runId, trigger, started, finished, done, error, redact });
    if (config.keep !== undefined && report.outcome !== 'aborted') report.deletedScans = retain(db, config.keep, settings.report, io, settings.report.trendScope ?? configScope(config));
    const { outcome, exitCode, counts, newFindings, reportDir, deletedScans } = report;
    const summary = { counts, newFindings, error: report.error, reportDir, deletedScans };
    finishRun(db, runId, { outcome, exitCode, scanId: report.scan?.id ?? null, summary }, finished);
    // Before the webhooks, which may take minutes of retries: a failed run says so too.
    if (settings.metricsFile) publishMetrics(db, settings.metricsFile, configScope(config), settings.maxAgeMs, { warn: io.stderr, redact });
    const stale = staleness(db, settings.maxAgeMs, new Date(), configScope(config));
    const notices = runNotices(report, done?.fresh.worst ?? [], stale, staleNoticeDue(db, stale));
    if (notices.length && settings.notifications.webhooks.length) {
      report.notifications = await notify(settings.notifications, notices, { redact });
      recordDeliveries(db, runId, report.notifications);
    }
    return { report, error };
  });
}

/** At the scheduler's start: the metrics file, so that a new install is seen before its first run. */
export function publishMetricsAtStart(config: Config, io: JobIO, settings: NightlySettings): void {
  if (!settings.metricsFile) return;
  const db = openSnapshot(resolve(io.cwd, config.db));
  try {
    publishMetrics(db, settings.metricsFile, configScope(config), settings.maxAgeMs, { warn: io.stderr, redact: redactorFor(io.env, config) });
  } finally {
    db.close();
  }
}

/** At the scheduler's start: a stale database gets its notice before the first tick. */
export async function notifyIfStale(config: Config, io: JobIO, settings: NightlySettings): Promise<RunReport['notifications']> {
  if (!settings.notifications.webhooks.length) return [];
  return closing(openSnapshot(resolve(io.cwd, config.db)), async (db) => {
    const stale = staleness(db, settings.maxAgeMs, new Date(), configScope(config));
    if (!staleNoticeDue(db, stale)) return [];
    const deliveries = await notify(settings.notifications, [staleNotice(stale)], { redact: redactorFor(io.env, config) });
    recordDeliveries(db, null, deliveries);
    return deliveries;
  });
}

/** Retention must not turn a good run into a failed one: a report directory that cannot be deleted is a warning. */
function retain(db: Db, keep: number, report: ReportSettings, io: JobIO, trendScope: ScanScope): number[] {
  try {
    const templates = loadTemplates(report.templatesDir === undefined ? {} : { overrideDir: report.templatesDir });
    return pruneScansAndReports(db, { keep, out: report.out, templates, trendScope }).deletedScans;
  } catch (err) {
    io.stderr(`warning: --keep ${keep}: old scans or reports could not be deleted: ${(err as Error).message}\n`);
    return [];
  }
}

interface RunFacts {
  runId: number;
  trigger: RunTrigger;
  started: Date;
  finished: Date;
  /** The job's outcome and its new failures; null when it threw `error`. */
  done: { job: JobOutcome; fresh: ReturnType<typeof newFailures> } | null;
  error: unknown;
  redact: (text: string) => string;
}

function reportOf(db: Db, f: RunFacts): RunReport {
  const base = {
    run: f.runId,
    trigger: f.trigger,
    startedAt: f.started.toISOString(),
    finishedAt: f.finished.toISOString(),
    durationSeconds: Math.round((f.finished.getTime() - f.started.getTime()) / 100) / 10,
  };
  // Filled in after the run: retention, then the webhooks.
  const after = { deletedScans: [], notifications: [] };
  if (f.done) {
    const { job, fresh } = f.done;
    const { scan, audit } = job;
    return {
      ...base,
      outcome: job.exitCode === EXIT.findings ? 'findings' : job.exitCode === EXIT.incomplete ? 'incomplete' : 'ok',
      exitCode: job.exitCode,
      scan: { id: scan.scanId, status: scan.status, startedAt: scan.summary.startedAt, zones: scan.summary.zones, requests: scan.summary.requests.total, unreadPartitions: scan.summary.missing.length },
      counts: { ...audit.counts.byStatus },
      newFindings: { total: total(fresh.bySeverity), bySeverity: fresh.bySeverity, comparedWithScan: fresh.comparedWithScan },
      ruleErrors: audit.errors.length,
      reportDir: job.report.dir,
      reportFiles: job.report.files,
      error: null,
      ...after,
    };
  }
  // The scan this run started, if it got that far (the writer allows one running scan per database).
  const scan = db.prepare('SELECT id, status, started_at FROM scans WHERE started_at >= ? ORDER BY id DESC LIMIT 1').get(f.started.toISOString()) as
    | { id: number; status: 'complete' | 'incomplete' | 'aborted'; started_at: string }
    | undefined;
  const message = f.error instanceof Error ? f.error.message : String(f.error);
  return {
    ...base,
    outcome: f.error instanceof ScanAborted ? 'aborted' : 'failed',
    exitCode: f.error instanceof ZonewardenError ? f.error.exitCode : EXIT.usage,
    scan: scan ? { id: scan.id, status: scan.status, startedAt: scan.started_at, zones: null, requests: null, unreadPartitions: null } : null,
    counts: null,
    newFindings: null,
    ruleErrors: 0,
    reportDir: null,
    reportFiles: [],
    error: f.redact(message),
    ...after,
  };
}
