import { closeSync, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { DriftResult } from '../drift/result.js';
import { catalogue } from '../policy/catalogue.js';
import { auditHeader } from '../audit/store.js';
import { sameView } from '../audit/audit-view.js';
import { inFilter } from '../snapshot/scan-filter.js';
import { keptCounts, keptFindings, keptFindingsJson, type ComplianceFilter } from '../audit/compliance-filter.js';
import type { Finding } from '../policy/findings.js';
import { forEachPass } from '../audit/pass-verdicts.js';
import { officialAudits } from '../audit/audit-identity.js';
import type { ActiveRule } from '../policy/registry.js';
import { EXIT, ZonewardenError } from '../common/errors.js';
import { chunkedWriter } from '../common/chunked-write.js';
import type { Db } from '../snapshot/db.js';
import { SnapshotReader } from '../snapshot/reader.js';
import { describeScope, FULL_SCOPE, parseScope, sameScope, type ScanScope } from '../snapshot/scope.js';
import { CHART, expiryTimeline, failureTrend } from './charts.js';
import { findingCsvRow, writeFindingsCsv } from './csv.js';
import { writeStoredAuditJson } from './findings-json.js';
import { findingsTable } from './findings-table.js';
import { carriedZones } from './data-freshness.js';
import { firstSeenOf } from './first-seen.js';
import { htmlView, pageScript } from './html-view.js';
import { junitRules, writeJunit } from './junit.js';
import { renderDigest } from './markdown-digest.js';
import { ocsfLine, writeOcsf } from './ocsf.js';
import { narrowReportData } from './compliance-view.js';
import { reportData, type ReportData } from './report-data.js';
import { groupAllowances } from './finding-groups.js';
import { collecting, GroupRows } from './group-rows.js';
import { reportRisk, type ReportRisk } from './risk.js';
import type { Templates } from './templates.js';
import type { SideBySide } from './vendor-insights.js';
import { sideBySideOf } from './vendor-insights-data.js';
import { VENDOR_INSIGHTS_CSV, writeVendorInsightsCsv } from './vendor-insights-csv.js';

/** Writes an audited scan's reports into `<out>/<scan time>-scan-<id>/` and refreshes `<out>/index.html`. */

export const REPORT_FORMATS = ['html', 'md', 'json', 'csv', 'ocsf', 'junit'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
/** What `report` and `run` write unless --format says otherwise: OCSF and JUnit are for the tools that ask for them. */
export const DEFAULT_REPORT_FORMATS: readonly ReportFormat[] = ['html', 'md', 'json', 'csv'];
export const REPORT_FILES: Record<ReportFormat, string> = {
  html: 'report.html', md: 'report.md', json: 'findings.json', csv: 'findings.csv', ocsf: 'findings.ocsf.jsonl', junit: 'junit.xml',
};

export interface WrittenReport {
  dir: string;
  files: string[];
  index: string;
  incomplete: boolean;
  /** Drift since the previous audited complete scan, as the reports show it; null for the first. */
  drift: DriftResult | null;
}

/** A directory name that sorts by time, valid on every file system; `variant` (reportVariant) never overwrites the official report. */
export function reportDirName(scan: { id: number; startedAt: string }, variant = ''): string {
  return `${scan.startedAt.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}-scan-${scan.id}${variant ? `-${variant}` : ''}`;
}

/** `audit-12` for an audit other than the official one, `zone-shop.example.com` for a view, `framework-pci` for a filter; joined. */
export function reportVariant(audit: { auditId: number; trial: string | null }, view: ScanScope | null, compliance: Pick<ComplianceFilter, 'name'> | null = null): string {
  const parts = audit.trial === null ? [] : [`audit-${audit.auditId}`];
  if (view) parts.push(fileSafe([...view.accounts.map((a) => `account-${a}`), ...view.zones.map((z) => `zone-${z}`)].join('+')));
  if (compliance) parts.push(fileSafe(compliance.name));
  return parts.join('-');
}

/** A name valid on every file system; long lists and odd names keep a readable start and a hash that tells them apart. */
function fileSafe(named: string): string {
  const safe = named.replace(/[^A-Za-z0-9._+-]/g, '_');
  return safe.length <= 80 ? safe : `${safe.slice(0, 60)}-${createHash('sha256').update(named).digest('hex').slice(0, 8)}`;
}

/** Written under a temporary name and renamed into place: a report that fails half way never replaces a good one, nor leaves anything. */
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
  /** The audit to report (report --audit; it must be of the scan); default: the scan's official audit. */
  auditId?: number;
  /** Only the findings of these zones and accounts (report --zone, --account); the directory name says so. */
  view?: ScanScope | null;
  out: string;
  /** Only the findings of the rules mapped to a framework or a control (--framework, --control); the directory name says so. */
  compliance?: ComplianceFilter | null;
  /** CSV and OCSF list the passing verdicts too, judged again with these rules (--passes; src/audit/pass-verdicts.ts). */
  passes?: readonly ActiveRule[];
  formats: readonly ReportFormat[];
  templates: Templates;
  templatesDir?: string;
  /** The scope whose scans index.html charts (default: the whole organisation); others are listed apart. */
  trendScope?: ScanScope;
}

export async function writeReport(db: Db, scanId: number, options: ReportOptions): Promise<WrittenReport> {
  const reader = new SnapshotReader(db, scanId);
  const filter = options.compliance ?? null;
  // The audit named (report --audit) or the scan's official one; all of it, or the view of --zone and --account.
  const whole = reportData(db, scanId, { ...(options.auditId === undefined ? {} : { auditId: options.auditId }), ...(options.view ? { filter: options.view } : {}) });
  const view = whole.view;
  const data = filter ? narrowReportData(whole, filter, () => view.findings()) : whole;
  // The findings every format lists: the kept rules' only, under --framework or --control.
  const stored = () => (filter ? keptFindings(view.findings(), filter) : view.findings());
  // --passes: after the stored findings, the passing verdicts judged again.
  const passes = (line: (pass: Finding) => string, write: (text: string) => void) => {
    if (!options.passes) return;
    const out = chunkedWriter(write);
    // Checked against the whole audit: every pass is judged again, then only the kept rules' listed.
    forEachPass(reader, auditHeader(db, whole.audit.auditId)!, options.passes, (f) => {
      if (filter && !filter.matches(f.rule)) return;
      if (!inFilter(view.filter, f.zone?.id ?? null, f.account?.id ?? null)) return;
      out.push(line(f));
    });
    out.flush();
  };
  // Where the risk is (the order of fixes, the zones by risk), for the HTML and Markdown reports.
  let riskOfAudit: ReportRisk | undefined;
  const risk = () => (riskOfAudit ??= reportRisk(db, data.audit.auditId, filter ? (rule) => filter.matches(rule) : undefined, view.where));
  // The vendor's own scanner side by side with the audit, once for every format; not under
  // --framework or --control, whose reports are about the mapped rules' controls only.
  let vendorOfAudit: SideBySide | null | undefined;
  const vendor = () => (vendorOfAudit === undefined ? (vendorOfAudit = filter ? null : sideBySideOf(db, reader, data)) : vendorOfAudit);
  const dir = join(options.out, reportDirName(reader.scan, reportVariant(whole.audit, view.filter ? (options.view ?? null) : null, filter)));
  mkdirSync(dir, { recursive: true });
  const incomplete = reader.scan.status !== 'complete';
  const files: string[] = [];
  for (const format of options.formats) {
    const path = join(dir, REPORT_FILES[format]);
    // Streamed through gzip before the file is opened: the only step that waits.
    const html = format === 'html' ? await htmlParts(db, scanId, data, stored, risk(), filter) : null;
    writeFileAtomically(path, (write) => {
      if (html) {
        const charts = { timeline: expiryTimeline(reader, new Date(reader.scan.startedAt), view.zones), trend: failureTrend(db, scanId, reader.scan.scope, view.filter?.zoneIds) };
        write(options.templates.render('report.html', htmlView(data, html.table, charts, pageScript(options.templatesDir), { ...html.context, vendor: vendor() })));
      } else if (format === 'md') {
        write(renderDigest(options.templates, data, risk(), vendor()));
      } else if (format === 'json') {
        const json = filter ? keptFindingsJson(view.findingsJson(), filter) : view.findingsJson();
        const dataRead = carriedZones(view.zones, data.lastReadOf);
        writeStoredAuditJson(data.audit, reader.scan, view.zones.length, json, { failOn: 'none', exitCode: incomplete ? EXIT.incomplete : EXIT.ok, dataRead, vendorInsights: vendor() }, write);
      } else if (format === 'ocsf') {
        writeOcsf(stored(), reader.scan, catalogue(), write);
        passes((f) => ocsfLine(f, reader.scan, catalogue()), write);
      } else if (format === 'junit') {
        writeJunit({ scan: reader.scan, zones: view.zones, rules: junitRules(data.audit.rules, catalogue()), findings: stored(), errors: data.audit.errors }, write);
      } else {
        // A zone this scan read in full was read at its start; a carried one when it was last read in full.
        const readOn = (zoneId: string) => data.lastReadOf(zoneId) || reader.scan.startedAt;
        writeFindingsCsv(stored(), write, readOn);
        passes((f) => findingCsvRow(f, readOn), write);
      }
    });
    files.push(path);
    const side = format === 'csv' ? vendor() : null;
    if (side) {
      const vendorPath = join(dir, VENDOR_INSIGHTS_CSV);
      writeFileAtomically(vendorPath, (write) => writeVendorInsightsCsv(side, write));
      files.push(vendorPath);
    }
  }
  return { dir, files, index: writeIndex(db, options.out, options.templates, options.trendScope), incomplete, drift: data.drift };
}

/** The HTML report's findings, read once: gzipped for the page script, its groups' rows collected on the way; and what it compares with. */
async function htmlParts(db: Db, scanId: number, data: ReportData, stored: () => Iterable<Finding>, risk: ReportRisk, filter: ComplianceFilter | null) {
  const firstSeen = firstSeenOf(db, scanId, data.audit.auditId);
  const { lastReadOf } = data;
  const rows = new GroupRows(groupAllowances(risk), firstSeen);
  const table = await findingsTable(collecting(stored(), rows), firstSeen, lastReadOf);
  // The earlier audit drift compared with, through this report's view and counted as it counts (the kept rules under a filter).
  const from = data.drift ? sameView(db, data.drift.from.audit.id, data.view.filter) : null;
  const previous = from && (filter ? keptCounts(from.header.counts, filter, from.findings()) : from.header.counts);
  return { table, context: { risk, rows, readOn: lastReadOf, previous } };
}

/** `<out>/index.html`, listing every audited scan: after a report is written, or old ones deleted. */
export function writeIndex(db: Db, out: string, templates: Templates, trendScope: ScanScope = FULL_SCOPE): string {
  const index = join(out, 'index.html');
  writeFileAtomically(index, (write) => write(templates.render('index.html', indexView(db, out, trendScope))));
  return index;
}

/**
 * Every audited scan, newest first, with links to its reports: the trend's scope first, with the trend,
 * and other scopes (a --zone scan, a write command's rescan) apart, never read as a change of the whole.
 */
function indexView(db: Db, out: string, trendScope: ScanScope) {
  const dirs = new Set(existsSync(out) ? readdirSync(out) : []);
  const all = [...officialAudits(db)].map((r) => {
    const counts = JSON.parse(r.counts) as { byStatus: Record<string, number>; failBySeverity: Record<string, number> };
    const name = reportDirName({ id: r.scanId, startedAt: r.startedAt });
    const written = dirs.has(name) ? readdirSync(join(out, name)).filter((f) => Object.values(REPORT_FILES).includes(f)) : [];
    const scope = parseScope(r.scope);
    return {
      id: r.scanId,
      startedAt: r.startedAt,
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
