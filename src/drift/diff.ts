import { loadAuditHeader, type AuditHeader } from '../policy/store.js';
import { UsageError } from '../common/errors.js';
import { SnapshotError, type Db } from '../snapshot/db.js';
import { SnapshotReader } from '../snapshot/reader.js';
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
  /** Without --to: the scope whose latest complete scan is compared (default: the whole organisation). */
  scope?: ScanScope;
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
 * Which scans to compare: --to, else the latest complete scan of the scope; --from, else the
 * accepted baseline with --baseline, else the complete scan of the same scope before --to.
 */
export function chooseScans(db: Db, options: Pick<DiffOptions, 'from' | 'to' | 'baseline' | 'scope'>): ScanPair {
  if (options.baseline && options.from !== undefined) throw new UsageError('--baseline and --from both name the scan to compare from: give one of them');
  const scope = options.scope ?? FULL_SCOPE;
  const to = options.to ?? SnapshotReader.latestScanId(db, ['complete'], scope);
  if (to === null) throw new SnapshotError('ZW_SCAN_MISSING', `no complete scan of ${describeScope(scope)} in this database: run zonewarden scan first, or name the scans with --from and --to`);
  if (options.baseline) {
    const baseline = currentBaseline(db);
    if (!baseline) throw new SnapshotError('ZW_SCAN_MISSING', 'no baseline has been accepted: accept a scan with zonewarden baseline accept [--scan ID]');
    return { from: baseline.scanId, to, baseline };
  }
  if (options.from !== undefined) return { from: options.from, to, baseline: null };
  // The same scope before it; for a scoped scan with none, the whole organisation's (it covered that scope too).
  const toScope = parseScope((db.prepare('SELECT scope FROM scans WHERE id = ?').get(to) as { scope: string } | undefined)?.scope ?? null);
  const previous = SnapshotReader.latestScanId(db, ['complete'], toScope, to) ?? (isFullScope(toScope) ? null : SnapshotReader.latestScanId(db, ['complete'], FULL_SCOPE, to));
  if (previous === null) {
    throw new SnapshotError('ZW_SCAN_MISSING', `no complete scan before scan ${to} to compare it with: run zonewarden scan again later, or name the scans with --from and --to`);
  }
  return { from: previous, to, baseline: null };
}

function driftScan(reader: SnapshotReader): DriftScan {
  const s = reader.scan;
  return { id: s.id, startedAt: s.startedAt, finishedAt: s.finishedAt, status: s.status as DriftScan['status'], scope: s.scope };
}

function auditOf(db: Db, reader: SnapshotReader, audit: DiffOptions['audit']): AuditHeader {
  let header = loadAuditHeader(db, reader.scan.id);
  if (!header && audit) {
    audit(reader);
    header = loadAuditHeader(db, reader.scan.id);
  }
  if (!header) throw new SnapshotError('ZW_NOT_AUDITED', `scan ${reader.scan.id} has not been audited: run zonewarden audit --scan ${reader.scan.id} first`);
  return header;
}

/** Drift between two scans: their findings and their configuration. */
export function diffScans(db: Db, options: DiffOptions = {}): DriftResult {
  const pair = chooseScans(db, options);
  const readers = { from: new SnapshotReader(db, pair.from), to: new SnapshotReader(db, pair.to) };
  const audits = { from: auditOf(db, readers.from, options.audit), to: auditOf(db, readers.to, options.audit) };
  // Both drifts are read in one transaction, so a scan finishing meanwhile cannot tear them apart.
  return db.transaction((): DriftResult => {
    const coverage = ScanCoverage.pair(db, readers.from, readers.to);
    const zones = zoneInfo(db, pair.from, pair.to);
    const findings = findingDrift(db, audits, coverage, zones);
    const configuration = configurationDrift(db, coverage.from, coverage.to, options.ignore ?? ignoreList(DEFAULT_IGNORED_FIELDS), zones);
    const changed = findings.changes.some((c) => c.change !== 'newly-unknown' && c.change !== 'known-again') || configuration.changes.length > 0;
    const partial =
      readers.from.scan.status !== 'complete' ||
      readers.to.scan.status !== 'complete' ||
      configuration.unknown.length > 0 ||
      findings.counts['newly-unknown'] > 0 ||
      findings.rulesNotCompared.length > 0;
    return { from: driftScan(readers.from), to: driftScan(readers.to), baseline: pair.baseline, findings, configuration, changed, partial };
  })();
}
