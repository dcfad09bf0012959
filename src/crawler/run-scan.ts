import { declaredReadsOf } from '../api/endpoints.js';
import type { Redact } from '../common/redact.js';
import type { Db } from '../snapshot/db.js';
import { ScanWriter } from '../snapshot/writer.js';
import { crawl } from './crawl.js';
import type { CrawlOptions } from './crawl-parts.js';
import { ReadPlan, type ReadPlanOptions } from './incremental/read-plan.js';
import { buildSummary, type ScanSummary } from './summary.js';

/** The crawl's options, but the writer and plan, which the scan makes. */
export interface RunScanOptions extends Omit<CrawlOptions, 'writer' | 'plan'> {
  db: Db;
  redact: Redact;
  /** Read on from the last scan of the scope that read every zone it listed, where the audit logs allow (default: read every zone in full). */
  incremental?: ReadPlanOptions;
}

export interface ScanOutcome {
  scanId: number;
  status: 'complete' | 'incomplete';
  summary: ScanSummary;
}

/** The scan id (marked aborted; earlier scans stay intact) and the original error. */
export class ScanFailed extends Error {
  constructor(
    readonly scanId: number | null,
    readonly error: unknown,
  ) {
    super(error instanceof Error ? error.message : String(error));
  }
}

/** One scan from start to finish, for `scan` and for the write commands' rescans of the zones they touched. */
export async function runScan(o: RunScanOptions): Promise<ScanOutcome> {
  const started = new Date();
  let writer: ScanWriter | undefined;
  // Without reads given, the crawler reads no setting and no object (reads/zone-settings.ts, reads/zone-objects.ts).
  const declared = o.reads ?? declaredReadsOf([]);
  try {
    // What the rules ask is on the scan's row from its start: a night may carry what an aborted or killed scan read (ReadPlan.mayCarry).
    writer = ScanWriter.start(o.db, o.client.options.baseUrl, o.scope, o.redact, { declaredReads: declared });
    const plan = o.incremental ? ReadPlan.create(o.db, writer, o.scope, o.incremental, declared, o.logger) : ReadPlan.full(writer, o.logger, 'every zone is read in full');
    const result = await crawl({ ...o, plan, writer });
    const status = result.missing.length ? 'incomplete' : 'complete';
    const summary = { ...buildSummary(writer.scanId, status, started, result, writer.written, o.clients?.snapshotStats() ?? o.client.snapshotStats()), declaredReads: declared };
    writer.finish(status, summary);
    return { scanId: writer.scanId, status, summary };
  } catch (err) {
    if (writer) writer.finish('aborted', { error: err instanceof Error ? err.message : String(err), declaredReads: declared });
    throw new ScanFailed(writer?.scanId ?? null, err);
  }
}
