import { resolve } from 'node:path';
import { ScanCannotStart } from '../crawler/crawl.js';
import { createProgress } from '../crawler/progress.js';
import { runScan, ScanFailed, type ScanOutcome } from '../crawler/run-scan.js';
import { summaryText } from '../crawler/summary.js';
import { redactorFor } from '../config/credentials.js';
import type { Config } from '../config/load.js';
import { recordAudit, type AuditResult } from '../policy/audit.js';
import { catalogue, catalogueReads, loadRules, rulesFor } from '../policy/catalogue.js';
import type { Severity } from '../policy/rule.js';
import { loadWaivers } from '../policy/waivers.js';
import { loadTemplates } from '../report/templates.js';
import { writeReport, type ReportFormat, type WrittenReport } from '../report/write-report.js';
import { EXIT, ZonewardenError } from '../shared/errors.js';
import { openSnapshot } from '../snapshot/db.js';
import { SnapshotReader } from '../snapshot/reader.js';
import type { CommandIO } from './command.js';
import { clientFor, loggerFor } from './common.js';

/**
 * The steps of the nightly job, shared by `scan`, `run` and `demo`: a scan as the scan command
 * makes it (progress, summary, a stop signal that aborts it cleanly), then an audit stored with
 * it, then its reports.
 */

/** Stopped by SIGINT or SIGTERM: the scan is marked aborted and earlier scans are untouched. */
export class ScanAborted extends ZonewardenError {
  constructor(scanId: number, signal: string) {
    super('ZW_SCAN_ABORTED', `scan ${scanId} aborted by ${signal}; earlier scans are intact`);
  }
}

export async function scanStep(config: Config, io: CommandIO): Promise<ScanOutcome> {
  // The rules decide what is read per zone beyond the lists, --rules-dir ones included.
  await loadRules(config, io.cwd);
  const reads = catalogueReads(config);
  const logger = loggerFor(config, io);
  const client = clientFor(config, io, logger);
  const db = openSnapshot(resolve(io.cwd, config.db));
  const controller = new AbortController();
  let stoppedBy: string | null = null;
  void io.stopSignal.then((signal) => {
    stoppedBy = signal;
    controller.abort(new Error(signal));
  });
  const progress = createProgress({ tty: io.stderrIsTTY === true, quiet: config.quiet, write: io.stderr, stats: () => client.snapshotStats() });
  try {
    return await runScan({
      db,
      client,
      scope: { accounts: [...config.account], zones: [...config.zone] },
      concurrency: config.concurrency,
      logger,
      redact: redactorFor(io.env),
      signal: controller.signal,
      onProgress: (p) => progress.update(p),
      reads,
    }).finally(() => progress.stop());
  } catch (err) {
    if (!(err instanceof ScanFailed)) throw err;
    if (stoppedBy && err.scanId !== null) throw new ScanAborted(err.scanId, stoppedBy);
    // Refused credentials or an unreachable API: one line, exit 2, no reports.
    if (err.error instanceof ScanCannotStart) throw err.error;
    throw err.error;
  } finally {
    await client.close();
    db.close();
  }
}

export interface JobOutcome {
  scan: ScanOutcome;
  audit: AuditResult;
  report: WrittenReport;
  /** Failures (not waived) at or above --fail-on; 0 with --fail-on none. */
  failing: number;
  exitCode: number;
}

/** scan, audit, report: `zonewarden run`. Output as the three commands give it, on stderr, and the report paths on stdout. */
export async function runJob(config: Config, io: CommandIO, report: { out: string; formats: readonly ReportFormat[]; templatesDir?: string }): Promise<JobOutcome> {
  await loadRules(config, io.cwd);
  const rules = rulesFor(config);
  const waivers = config.waivers ? loadWaivers(resolve(io.cwd, config.waivers), [...catalogue().keys()]) : [];
  const templates = loadTemplates(report.templatesDir === undefined ? {} : { overrideDir: report.templatesDir });
  const scan = await scanStep(config, io);
  if (!config.quiet) io.stderr(summaryText(scan.summary));
  const db = openSnapshot(resolve(io.cwd, config.db));
  try {
    const audit = recordAudit(db, new SnapshotReader(db, scan.scanId), rules, waivers);
    const written = await writeReport(db, scan.scanId, { out: report.out, formats: report.formats, templates, ...(report.templatesDir === undefined ? {} : { templatesDir: report.templatesDir }) });
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
  } finally {
    db.close();
  }
}
