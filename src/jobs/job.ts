import { resolve } from 'node:path';
import { runScan, ScanFailed, type ScanOutcome } from '../crawler/run-scan.js';
import { redactorFor } from '../config/credentials.js';
import type { Config } from '../config/load.js';
import type { ScanScope } from '../snapshot/scope.js';
import { recordAudit, type AuditResult } from '../audit/audit.js';
import type { AuditMaker } from '../audit/audit-identity.js';
import { judgementOf } from '../policy/judgement.js';
import { catalogue, catalogueReads, loadRules, rulesFor } from '../policy/catalogue.js';
import type { Severity } from '../policy/rule.js';
import { auditWithinLimits, heldWaiverWarnings, loadWaivers } from '../policy/waivers.js';
import { loadTemplates } from '../report/templates.js';
import { writeReport, type ReportFormat, type WrittenReport } from '../report/write-report.js';
import { EXIT, ZonewardenError } from '../common/errors.js';
import { openSnapshot, SnapshotError } from '../snapshot/db.js';
import { snapshotFailure } from '../snapshot/failures.js';
import { SnapshotReader } from '../snapshot/reader.js';
import type { JobIO, ScanDisplay } from './job-io.js';
import { configScope, loggerFor } from './from-config.js';
import { clientSetFor } from './clients.js';

/** The steps of the nightly job, shared by `scan`, `run` and `demo`: a scan, an audit stored with it, its reports. */

/** Stopped by SIGINT or SIGTERM: the scan is marked aborted and earlier scans are untouched. */
export class ScanAborted extends ZonewardenError {
  constructor(scanId: number, signal: string) {
    super('ZW_SCAN_ABORTED', `scan ${scanId} aborted by ${signal}; earlier scans are intact`);
  }
}

/** What a job without a display shows of a scan: nothing. */
const NO_DISPLAY: Pick<ScanDisplay, 'progress'> = { progress: () => ({ update: () => {}, stop: () => {} }) };

/** `incremental`: read on from the last complete scan of the scope (run, schedule); a plain scan reads in full. */
export async function scanStep(config: Config, io: JobIO, incremental = false): Promise<ScanOutcome> {
  // The rules decide what is read per zone beyond the lists, --rules-dir ones included.
  await loadRules(config, io.cwd, (line) => io.stderr(`${line}\n`));
  const reads = catalogueReads(config);
  const logger = loggerFor(config, io);
  const clients = clientSetFor(config, io, logger);
  const path = resolve(io.cwd, config.db);
  const db = openSnapshot(path);
  const controller = new AbortController();
  let stoppedBy: string | null = null;
  void io.stopSignal.then((signal) => {
    stoppedBy = signal;
    controller.abort(new Error(signal));
  });
  const progress = (io.scanDisplay ?? NO_DISPLAY).progress({
    tty: io.stderrIsTTY === true,
    quiet: config.quiet,
    write: io.stderr,
    stats: () => clients.snapshotStats(),
    budget: () => clients.budgetStatus(),
  });
  try {
    return await runScan({
      db,
      client: clients.primary,
      clients,
      scope: configScope(config),
      concurrency: config.concurrency,
      logger,
      redact: redactorFor(io.env, config),
      signal: controller.signal,
      onProgress: (p) => progress.update(p),
      reads,
      resolver: config.resolver === undefined ? {} : { server: config.resolver },
      ...(incremental ? { incremental: { full: config.full, fullEvery: config.fullEvery } } : {}),
    }).finally(() => progress.stop());
  } catch (err) {
    if (!(err instanceof ScanFailed)) throw err;
    if (stoppedBy && err.scanId !== null) throw new ScanAborted(err.scanId, stoppedBy);
    // What ended the scan, as it is (refused credentials, an unreachable API, a scope that matches nothing): one line,
    // exit 2, no reports. A full disk, a lock held too long: one line naming the file, not a stack.
    const failure = snapshotFailure(err.error, path);
    if (failure) throw new SnapshotError(failure.code, err.scanId === null ? failure.message : `scan ${err.scanId} aborted: ${failure.message}`);
    throw err.error;
  } finally {
    await clients.close();
    db.close();
  }
}

/** Where and how the job writes its reports. */
export interface ReportSettings {
  out: string;
  formats: readonly ReportFormat[];
  templatesDir?: string;
  /** The scope index.html charts (default: the configuration's). */
  trendScope?: ScanScope;
}

export interface JobOutcome {
  scan: ScanOutcome;
  audit: AuditResult;
  report: WrittenReport;
  /** Failures (not waived) at or above --fail-on; 0 with --fail-on none. */
  failing: number;
  exitCode: number;
}

/** scan, audit, report: `zonewarden run`. The audit is the new scan's official one: its reports, drift and notifications rest on it. */
export async function runJob(config: Config, io: JobIO, report: ReportSettings, madeBy: AuditMaker = 'run'): Promise<JobOutcome> {
  await loadRules(config, io.cwd, (line) => io.stderr(`${line}\n`));
  const scope = report.trendScope ?? configScope(config);
  const rules = rulesFor(config);
  const waivers = config.waivers ? loadWaivers(resolve(io.cwd, config.waivers), [...catalogue().keys()], { maxDays: config.waiverMaxDays }) : [];
  const templates = loadTemplates(report.templatesDir === undefined ? {} : { overrideDir: report.templatesDir });
  const scan = await scanStep(config, io, true);
  if (!config.quiet && io.scanDisplay) io.stderr(io.scanDisplay.summary(scan.summary));
  const path = resolve(io.cwd, config.db);
  const db = openSnapshot(path);
  try {
    const reader = new SnapshotReader(db, scan.scanId);
    const identity = { judgement: judgementOf(rules, waivers, config.waiverMaxMatches), madeBy, official: true };
    const audit = auditWithinLimits(waivers, config.waiverMaxMatches, (w) => recordAudit(db, reader, rules, w, { identity }));
    for (const line of heldWaiverWarnings(audit.waivers, resolve(io.cwd, config.waivers ?? ''))) io.stderr(`${line}\n`);
    const written = await writeReport(db, scan.scanId, { out: report.out, formats: report.formats, templates, trendScope: scope, ...(report.templatesDir === undefined ? {} : { templatesDir: report.templatesDir }) });
    const failOn = config.failOn;
    const failing = failOn === 'none' ? 0 : audit.failingAtOrAbove[failOn as Severity];
    const incomplete = scan.status !== 'complete' || audit.errors.length > 0;
    if (!config.quiet) {
      const c = audit.counts.byStatus;
      io.stderr(`audit of scan ${scan.scanId}: ${c.fail} failing, ${c.waived} waived, ${c.unknown} unknown, ${c.pass} passing${failing ? `; ${failing} at or above ${failOn}` : ''}\n`);
    }
    for (const file of written.files) io.stdout(`${file}\n`);
    io.stdout(`${written.index}\n`);
    return { scan, audit, report: written, failing, exitCode: failing ? EXIT.findings : incomplete ? EXIT.incomplete : EXIT.ok };
  } catch (err) {
    throw snapshotFailure(err, path) ?? err;
  } finally {
    db.close();
  }
}
