import { auditHeader, officialAuditHeader, type AuditHeader } from '../audit/store.js';
import { UsageError } from '../common/errors.js';
import { SnapshotError, type Db } from '../snapshot/db.js';
import { SnapshotReader } from '../snapshot/reader.js';
import { resolveFilter } from '../snapshot/scan-filter.js';
import { latestCoveringScan, scanOfNamedAudit } from '../snapshot/scan-choice.js';
import { describeScope, FULL_SCOPE, isFullScope, parseScope, type ScanScope } from '../snapshot/scope.js';
import { currentBaseline } from './baselines.js';
import { configurationDrift } from './configuration.js';
import { ScanCoverage, zoneInfo } from './coverage-pair.js';
import { findingDrift } from './findings.js';
import { DEFAULT_IGNORED_FIELDS, ignoreList, type IgnoreList } from './ignore.js';
import type { Baseline, DriftResult, DriftScan } from './result.js';

export interface DiffOptions {
  from?: number;
  to?: number;
  /** The audits to compare instead of the scans' official ones; each names its scan (--from-audit, --to-audit). */
  fromAudit?: number;
  toAudit?: number;
  /** Only these zones and accounts (--zone, --account); without --to, the newest complete scan holding them. Default: the whole scans. */
  filter?: ScanScope;
  /** Compare from the newest accepted baseline. */
  baseline?: boolean;
  ignore?: IgnoreList;
  /** Audits a scan that has not been audited; without it such a scan is an error. */
  audit?: (reader: SnapshotReader) => void;
}

export interface ScanPair {
  from: number;
  to: number;
  baseline: Baseline | null;
}

/**
 * Which scans to compare: --to (or --to-audit's scan), else the newest complete scan holding the filter;
 * --from (or --from-audit's), else the baseline with --baseline, else the newest complete scan before
 * --to holding what --to holds of the filter (a scan of the whole organisation holds every scope).
 */
export function chooseScans(db: Db, options: Pick<DiffOptions, 'from' | 'to' | 'fromAudit' | 'toAudit' | 'baseline' | 'filter'>): ScanPair {
  const fromAsked = scanOfNamedAudit(db, options.fromAudit, options.from, 'from');
  if (options.baseline && fromAsked !== undefined) throw new UsageError('--baseline and --from (or --from-audit) both name the scan to compare from: give one of them');
  const filter = options.filter ?? FULL_SCOPE;
  const to = scanOfNamedAudit(db, options.toAudit, options.to, 'to') ?? latestCoveringScan(db, filter);
  if (to === null) throw new SnapshotError('ZW_SCAN_MISSING', `no complete scan of ${describeScope(filter)} in this database: run zonewarden scan first, or name the scans with --from and --to`);
  // A mistyped --zone is named as such (with the closest names), not as a missing earlier scan.
  if (!isFullScope(filter)) resolveFilter([new SnapshotReader(db, to)], filter);
  if (options.baseline) {
    const baseline = currentBaseline(db);
    if (!baseline) throw new SnapshotError('ZW_SCAN_MISSING', 'no baseline has been accepted: accept a scan with zonewarden baseline accept [--scan ID]');
    return { from: baseline.scanId, to, baseline };
  }
  if (fromAsked !== undefined) return { from: fromAsked, to, baseline: null };
  // What the earlier scan must hold: the filter, else all that --to covered.
  const toScope = parseScope((db.prepare('SELECT scope FROM scans WHERE id = ?').get(to) as { scope: string } | undefined)?.scope ?? null);
  const previous = latestCoveringScan(db, isFullScope(filter) ? toScope : filter, ['complete'], to);
  if (previous === null) {
    throw new SnapshotError('ZW_SCAN_MISSING', `no complete scan before scan ${to} to compare it with: run zonewarden scan again later, or name the scans with --from and --to`);
  }
  return { from: previous, to, baseline: null };
}

function driftScan(reader: SnapshotReader, audit: AuditHeader): DriftScan {
  const s = reader.scan;
  return { id: s.id, startedAt: s.startedAt, finishedAt: s.finishedAt, status: s.status as DriftScan['status'], scope: s.scope, audit: { id: audit.auditId, trial: audit.trial } };
}

/** The audit named for a scan, else its official one; a scan not audited is audited first when `audit` is given. */
function auditOf(db: Db, reader: SnapshotReader, named: number | undefined, audit: DiffOptions['audit']): AuditHeader {
  if (named !== undefined) return auditHeader(db, named)!;
  let header = officialAuditHeader(db, reader.scan.id);
  if (!header && audit) {
    audit(reader);
    header = officialAuditHeader(db, reader.scan.id);
  }
  if (!header) throw new SnapshotError('ZW_NOT_AUDITED', `scan ${reader.scan.id} has not been audited: run zonewarden audit --scan ${reader.scan.id} first`);
  return header;
}

/** Drift between two scans: their findings and their configuration. */
export function diffScans(db: Db, options: DiffOptions = {}): DriftResult {
  const pair = chooseScans(db, options);
  const readers = { from: new SnapshotReader(db, pair.from), to: new SnapshotReader(db, pair.to) };
  const view = resolveFilter([readers.to, readers.from], options.filter ?? FULL_SCOPE);
  const audits = { from: auditOf(db, readers.from, options.fromAudit, options.audit), to: auditOf(db, readers.to, options.toAudit, options.audit) };
  // Both drifts are read in one transaction, so a scan finishing meanwhile cannot tear them apart.
  return db.transaction((): DriftResult => {
    const coverage = ScanCoverage.pair(db, readers.from, readers.to);
    const zones = zoneInfo(db, pair.from, pair.to);
    const findings = findingDrift(db, audits, coverage, zones, view);
    const configuration = configurationDrift(db, coverage.from, coverage.to, options.ignore ?? ignoreList(DEFAULT_IGNORED_FIELDS), zones, view);
    const changed = findings.changes.some((c) => c.change !== 'newly-unknown' && c.change !== 'known-again') || configuration.changes.length > 0;
    const incomplete = readers.from.scan.status !== 'complete' || readers.to.scan.status !== 'complete';
    const unjudged = configuration.unknown.length > 0 || findings.counts['newly-unknown'] > 0 || findings.rulesNotCompared.length > 0;
    const partial = incomplete || unjudged;
    return { from: driftScan(readers.from, audits.from), to: driftScan(readers.to, audits.to), baseline: pair.baseline, findings, configuration, changed, partial };
  })();
}
