import { closeSync, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { DriftResult } from '../drift/result.js';
import { catalogue } from '../policy/catalogue.js';
import { storedFindings, storedFindingsJson } from '../policy/store.js';
import { EXIT, ZonewardenError } from '../common/errors.js';
import type { Db } from '../snapshot/db.js';
import { SnapshotReader } from '../snapshot/reader.js';
import { describeScope, FULL_SCOPE, parseScope, sameScope, type ScanScope } from '../snapshot/scope.js';
import { CHART, expiryTimeline, failureTrend } from './charts.js';
import { writeFindingsCsv } from './csv.js';
import { writeStoredAuditJson } from './findings-json.js';
import { findingsTable } from './findings-table.js';
import { dataFreshness } from './data-freshness.js';
import { firstSeenOf } from './first-seen.js';
import { htmlView, pageScript } from './html-view.js';
import { junitRules, writeJunit } from './junit.js';
import { renderDigest } from './markdown-digest.js';
import { writeOcsf } from './ocsf.js';
import { reportData } from './report-data.js';
import type { Templates } from './templates.js';

/**
 * Writes the reports of one audited scan into `<out>/<scan time>-scan-<id>/` and refreshes
 * `<out>/index.html`. Each file is written under a temporary name and renamed into place, so a
 * report that fails half way never replaces a good one.
 */

export const REPORT_FORMATS = ['html', 'md', 'json', 'csv', 'ocsf', 'junit'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
/** What `report` and `run` write unless --format says otherwise: OCSF and JUnit are for the tools that ask for them. */
export const DEFAULT_REPORT_FORMATS: readonly ReportFormat[] = ['html', 'md', 'json', 'csv'];
export const REPORT_FILES: Record<ReportFormat, string> = {
  html: 'report.html',
  md: 'report.md',
  json: 'findings.json',
  csv: 'findings.csv',
  ocsf: 'findings.ocsf.jsonl',
  junit: 'junit.xml',
};

export interface WrittenReport {
  dir: string;
  files: string[];
  index: string;
  incomplete: boolean;
  /** Drift since the previous audited complete scan, as the reports show it; null for the first. */
  drift: DriftResult | null;
}

/** A directory name that sorts by time and is valid on every file system. */
export function reportDirName(scan: { id: number; startedAt: string }): string {
  return `${scan.startedAt.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}-scan-${scan.id}`;
}

/** A report that cannot be written leaves nothing behind: the temporary file goes with the failure. */
function writeFileAtomically(path: string, fill: (write: (text: string) => void) => void): void {
  const temporary = `${path}.partial`;
  try {
    const fd = openSync(temporary, 'w');
    try {
      fill((text) => void writeSync(fd, text));
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    if ((err as { code?: string }).code === 'ENOSPC') {
      throw new ZonewardenError('ZW_DISK_FULL', `the disk holding ${path} is full: free some space there, or write the reports elsewhere with --out`, { cause: err });
    }
    throw err;
  }
}

export interface ReportOptions {
  out: string;
  formats: readonly ReportFormat[];
  templates: Templates;
  templatesDir?: string;
  /** The scope whose scans index.html charts (default: the whole organisation); others are listed apart. */
  trendScope?: ScanScope;
}

export async function writeReport(db: Db, scanId: number, options: ReportOptions): Promise<WrittenReport> {
  const reader = new SnapshotReader(db, scanId);
  const data = reportData(db, scanId);
  const dir = join(options.out, reportDirName(reader.scan));
  mkdirSync(dir, { recursive: true });
  const incomplete = reader.scan.status !== 'complete';
  const files: string[] = [];
  for (const format of options.formats) {
    const path = join(dir, REPORT_FILES[format]);
    // Streamed through gzip before the file is opened: the only step that waits.
    const table = format === 'html' ? await findingsTable(storedFindings(db, scanId), firstSeenOf(db, scanId), dataFreshness(db, scanId).lastReadOf) : null;
    writeFileAtomically(path, (write) => {
      if (table) {
        const charts = { timeline: expiryTimeline(reader, new Date(reader.scan.startedAt)), trend: failureTrend(db, scanId, reader.scan.scope) };
        write(options.templates.render('report.html', htmlView(data, table, charts, pageScript(options.templatesDir))));
      } else if (format === 'md') {
        write(renderDigest(options.templates, data));
      } else if (format === 'json') {
        writeStoredAuditJson(data.audit, reader.scan, reader.zones().length, storedFindingsJson(db, scanId), { failOn: 'none', exitCode: incomplete ? EXIT.incomplete : EXIT.ok }, write);
      } else if (format === 'ocsf') {
        writeOcsf(storedFindings(db, scanId), reader.scan, catalogue(), write);
      } else if (format === 'junit') {
        writeJunit({ scan: reader.scan, zones: reader.zones(), rules: junitRules(data.audit.rules, catalogue()), findings: storedFindings(db, scanId), errors: data.audit.errors }, write);
      } else {
        writeFindingsCsv(storedFindings(db, scanId), write);
      }
    });
    files.push(path);
  }
  return { dir, files, index: writeIndex(db, options.out, options.templates, options.trendScope), incomplete, drift: data.drift };
}

/** `<out>/index.html`, listing every audited scan: after a report is written, or old ones deleted. */
export function writeIndex(db: Db, out: string, templates: Templates, trendScope: ScanScope = FULL_SCOPE): string {
  const index = join(out, 'index.html');
  writeFileAtomically(index, (write) => write(templates.render('index.html', indexView(db, out, trendScope))));
  return index;
}

/**
 * Every audited scan, newest first, with links to the reports written for it; the scans of the
 * trend's scope first, with the trend, and the scans of other scopes (a --zone scan, a write
 * command's rescan) apart, so that they never read as a change of the whole.
 */
function indexView(db: Db, out: string, trendScope: ScanScope) {
  const dirs = new Set(existsSync(out) ? readdirSync(out) : []);
  const all = (
    db.prepare('SELECT s.id, s.started_at, s.status, s.scope, a.counts FROM scans s JOIN audits a ON a.scan_id = s.id ORDER BY s.id DESC').all() as Array<{
      id: number;
      started_at: string;
      status: string;
      scope: string;
      counts: string;
    }>
  ).map((r) => {
    const counts = JSON.parse(r.counts) as { byStatus: Record<string, number>; failBySeverity: Record<string, number> };
    const name = reportDirName({ id: r.id, startedAt: r.started_at });
    const written = dirs.has(name) ? readdirSync(join(out, name)).filter((f) => Object.values(REPORT_FILES).includes(f)) : [];
    const scope = parseScope(r.scope);
    return {
      id: r.id,
      startedAt: r.started_at,
      status: r.status,
      scope: describeScope(scope),
      inTrend: sameScope(scope, trendScope),
      failing: counts.byStatus['fail'] ?? 0,
      critical: counts.failBySeverity['critical'] ?? 0,
      high: counts.failBySeverity['high'] ?? 0,
      links: written.sort().map((file) => ({ file, href: `${encodeURIComponent(name)}/${file}` })),
    };
  });
  const runs = all.filter((r) => r.inTrend);
  const otherRuns = all.filter((r) => !r.inTrend);
  const latest = runs[0]?.id ?? 0;
  return { scope: describeScope(trendScope), runs, otherRuns, trend: failureTrend(db, latest, trendScope), chart: CHART, csp: "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'" };
}
