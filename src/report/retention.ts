import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../snapshot/db.js';
import type { ScanScope } from '../snapshot/scope.js';
import type { PruneResult } from '../snapshot/prune.js';
import { pruneScansAndAudits } from '../audit/retention.js';
import type { Templates } from './templates.js';
import { reportDirName, writeIndex } from './write-report.js';

/**
 * Retention for the nightly job (--keep N): the scans prune deletes, their report directories (and
 * those of their trial audits and views), then the index. Only directories named after deleted scans
 * go: the output directory may be shared. The latest complete scan of each scope and every baseline stay.
 */
export function pruneScansAndReports(db: Db, options: { keep: number; out: string; templates: Templates; trendScope?: ScanScope }): PruneResult & { deletedReports: string[] } {
  const started = new Map((db.prepare('SELECT id, started_at FROM scans').all() as Array<{ id: number; started_at: string }>).map((r) => [r.id, r.started_at]));
  const result = pruneScansAndAudits(db, options.keep);
  const deletedReports: string[] = [];
  const names = existsSync(options.out) ? readdirSync(options.out) : [];
  for (const id of result.deletedScans) {
    // The scan's report, and those of its trial audits and views (reportVariant): `<name>-...`.
    const name = reportDirName({ id, startedAt: started.get(id)! });
    for (const found of names.filter((n) => n === name || n.startsWith(`${name}-`))) {
      const dir = join(options.out, found);
      rmSync(dir, { recursive: true, force: true });
      deletedReports.push(dir);
    }
  }
  if (result.deletedScans.length && existsSync(options.out)) writeIndex(db, options.out, options.templates, options.trendScope);
  return { ...result, deletedReports };
}
