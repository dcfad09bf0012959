import { diffScans, type DriftResult } from '../drift/index.js';
import { catalogue } from '../policy/catalogue.js';
import type { Finding, Named, Status } from '../policy/findings.js';
import { CATEGORIES, type Category } from '../policy/rule.js';
import { auditHeader, officialAuditHeader, type AuditHeader } from '../audit/store.js';
import { auditView, type AuditView } from '../audit/audit-view.js';
import { officialAudits } from '../audit/audit-identity.js';
import { SnapshotError, type Db } from '../snapshot/db.js';
import { inFilter, resolveFilter } from '../snapshot/scan-filter.js';
import { SnapshotReader, type ScanRow } from '../snapshot/reader.js';
import { scanRef } from '../snapshot/scan-ref.js';
import { dataFreshness, freshnessOf, freshnessStatement } from './data-freshness.js';
import { describeScope, FULL_SCOPE, isFullScope, parseScope, sameScope, scopeStatement, type ScanScope } from '../snapshot/scope.js';
import type { CoverageState } from '../snapshot/writer.js';
import { entryOf } from '../common/map-entry.js';

/**
 * What every report format shows of one audited scan, gathered in code so the templates only lay it
 * out: counts and waivers, the worst failures, drift since the complete scan before it, and the
 * scan's health. The findings themselves are streamed by each format, never held here.
 */
export interface ReportData {
  scan: ScanRow;
  /** The audit reported (the scan's official one unless another was named), narrowed to the view. */
  audit: AuditHeader;
  /** What is reported of the audit: all of it, or the zones and accounts of --zone and --account, and their findings. */
  view: AuditView;
  /** Findings by category and status, in catalogue category order. */
  categories: Array<{ category: Category } & Record<Exclude<Status, 'pass'> | 'pass', number>>;
  /** The worst failures (not waived), worst first. */
  topRisks: Finding[];
  /** Drift from the complete scan before this one; null when there is none. */
  drift: DriftResult | null;
  health: ScanHealth;
  /** What the scan covered (and, with --zone or --account, what of it is shown), stated at the top of every report. */
  scope: { accounts: string[]; zones: string[]; full: boolean; zonesRead: number; statement: string };
  /** How much of it this scan read in full, and how much it carried forward; null when it read everything. */
  freshness: string | null;
  /** When each zone's data was last read in full: '' for a zone this scan read in full (see data-freshness.ts). */
  lastReadOf: (zoneId: string) => string;
}

export interface UnreadPart {
  zone: Named | null;
  /** The account or user scope of a partition that is not a zone's. */
  scope: string;
  endpoint: string;
  state: CoverageState;
  reason: string;
}

/** Parts the API answered as retired for good, by endpoint: not gaps, but checks of them are unknown. */
export interface RetiredPart {
  endpoint: string;
  /** Zones (or the user) whose part was retired. */
  count: number;
  reason: string;
}

export interface ScanHealth {
  complete: boolean;
  /** Partitions the scan could not read whole (failed, denied, truncated). */
  unread: UnreadPart[];
  retired: RetiredPart[];
  ruleErrors: AuditHeader['errors'];
  /** Why the scan's DNS resolver was not believed (every DNS target is then unknown), from its summary; null when it was, or was not asked. */
  resolver: string | null;
}

/** The worst failures listed by default. */
export const TOP_RISKS = 20;

export interface ReportDataOptions {
  topRisks?: number;
  /** The audit to report (report --audit); default: the scan's official audit. */
  auditId?: number;
  /** Only these zones and accounts (report --zone, --account). */
  filter?: ScanScope;
}

export function reportData(db: Db, scanId: number, options: ReportDataOptions = {}): ReportData {
  const reader = new SnapshotReader(db, scanId);
  const whole = options.auditId === undefined ? officialAuditHeader(db, scanId) : auditHeader(db, options.auditId);
  if (!whole) throw new SnapshotError('ZW_NOT_AUDITED', options.auditId === undefined ? `scan ${scanId} has not been audited: run zonewarden audit --scan ${scanId} first` : `no audit ${options.auditId} in this database: zonewarden scans lists each scan's audits`);
  if (whole.scanId !== scanId) throw new SnapshotError('ZW_AUDIT_MISSING', `audit ${whole.auditId} is an audit of scan ${whole.scanId}, not of scan ${scanId}`);
  const filter = options.filter ?? FULL_SCOPE;
  const view = auditView(db, whole, reader, resolveFilter([reader], filter));
  const audit = view.header;

  const categories = categoryRows(audit.counts.byRule);
  const topRisks = topFailures(view.findings(), options.topRisks ?? TOP_RISKS);
  const previous = previousAudited(db, reader.scan);
  // The earlier scan's official audit against the one reported; the view's zones only.
  const drift = previous === null ? null : diffScans(db, { from: previous, to: scanId, toAudit: whole.auditId, filter });

  const health = scanHealth(db, reader, audit, view);
  const zonesRead = view.zones.length;
  const shown = view.filter ? ` Shown: only ${describeScope(filter)} (${zonesRead} zone${zonesRead === 1 ? '' : 's'}).` : '';
  // A trial's report must say so where every format starts: its findings are not the nightly ones.
  const trial = whole.trial === null ? '' : ` This is trial audit ${whole.auditId} (${whole.trial}), not the scan's official audit.`;
  const scope = { ...reader.scan.scope, full: isFullScope(reader.scan.scope), zonesRead, statement: scopeStatement(reader.scan.scope, reader.zones().length, health.unread.length) + shown + trial };
  const fresh = dataFreshness(db, scanId);
  const freshness = freshnessStatement(view.filter ? freshnessOf(fresh, view.zones) : fresh);
  return { scan: reader.scan, audit, view, categories, topRisks, drift, health, scope, freshness, lastReadOf: fresh.lastReadOf };
}

/** Findings by category and status, in catalogue category order. */
export function categoryRows(byRule: Readonly<Record<string, Readonly<Record<Status, number>>>>): ReportData['categories'] {
  const rules = catalogue();
  const categories = CATEGORIES.map((category) => ({ category, fail: 0, waived: 0, unknown: 0, pass: 0 }));
  for (const [rule, counts] of Object.entries(byRule)) {
    const row = categories.find((c) => c.category === rules.get(rule)?.meta.category);
    if (row) for (const status of ['fail', 'waived', 'unknown', 'pass'] as const) row[status] += counts[status];
  }
  return categories;
}

/** The first `limit` failures of the kept rules: stored worst first, failures by severity. */
export function topFailures(findings: Iterable<Finding>, limit: number, keep: (rule: string) => boolean = () => true): Finding[] {
  const top: Finding[] = [];
  for (const f of findings) {
    if (f.status !== 'fail' || top.length >= limit) break;
    if (keep(f.rule)) top.push(f);
  }
  return top;
}

/** The audited complete scan of the same scope before this one: what "new" and "fixed" are measured from. */
function previousAudited(db: Db, scan: ScanRow): number | null {
  for (const r of officialAudits(db, { complete: true, before: scan.id, counts: false })) if (sameScope(parseScope(r.scope), scan.scope)) return r.scanId;
  return null;
}

/** Names in the scope that matched nothing: in the scan's summary, since no partition was read for them. */
function unmatchedScope(scan: ScanRow): UnreadPart[] {
  const missing = (scan.summary as { missing?: Array<{ kind: string; scopeId: string; name: string | null; endpoint: string; reason: string }> } | null)?.missing ?? [];
  return missing
    .filter((p) => p.scopeId === '' && (p.kind === 'zone' || p.kind === 'account'))
    .map((p) => ({ zone: p.kind === 'zone' ? { id: '', name: p.name } : null, scope: p.kind === 'account' ? (p.name ?? '') : '', endpoint: p.endpoint, state: 'failed', reason: p.reason }));
}

/** The scan summary's word on a resolver that was not believed (crawler/summary.ts `resolver`). */
function unbelievedResolver(scan: ScanRow): string | null {
  const check = (scan.summary as { resolver?: { trusted?: unknown; reason?: unknown } } | null)?.resolver;
  return check && check.trusted === false && typeof check.reason === 'string' ? check.reason : null;
}

/** What the scan could not read; in a view, of its zones (and what is not a zone's: the lists). */
function scanHealth(db: Db, reader: SnapshotReader, audit: AuditHeader, view: AuditView): ScanHealth {
  const ref = scanRef(reader.scan.id);
  const names = new Map(
    (db.prepare('SELECT item_id, name FROM zones WHERE first_scan <= ? AND last_scan >= ?').all(ref, ref) as Array<{ item_id: string; name: string }>).map((r) => [r.item_id, r.name]),
  );
  const unread = reader
    .coverage()
    .filter((c) => c.state === 'failed' || c.state === 'denied' || (c.state === 'ok' && c.truncated))
    .map(
      (c): UnreadPart => ({
        zone: c.kind === 'zone' ? { id: c.scopeId, name: names.get(c.scopeId) ?? null } : null,
        scope: c.kind === 'zone' ? '' : c.scopeId,
        endpoint: c.endpoint,
        state: c.state,
        reason: c.message ?? (c.truncated ? 'the list was truncated' : c.state),
      }),
    )
    .concat(unmatchedScope(reader.scan))
    .filter((p) => p.zone === null || p.zone.id === '' || inFilter(view.filter, p.zone.id, null))
    .sort((a, b) => (a.zone?.name ?? a.scope).localeCompare(b.zone?.name ?? b.scope) || a.endpoint.localeCompare(b.endpoint));
  const retired = new Map<string, RetiredPart>();
  for (const c of reader.coverage()) {
    if (c.state === 'retired') entryOf(retired, c.endpoint, () => ({ endpoint: c.endpoint, count: 0, reason: c.message ?? 'retired' })).count++;
  }
  return { complete: reader.scan.status === 'complete', unread, retired: [...retired.values()].sort((a, b) => a.endpoint.localeCompare(b.endpoint)), ruleErrors: audit.errors, resolver: unbelievedResolver(reader.scan) };
}
