import { closestMatches } from '../common/did-you-mean.js';
import { UsageError } from '../common/errors.js';
import { printable } from '../common/printable.js';
import { SnapshotError, type Db } from './db.js';
import { covers } from './scan-filter.js';
import { RowReader } from './row-reader.js';
import type { ScanRow } from './scan-view.js';
import { describeScope, isFullScope, parseScope, sameScope, scopeFlags, type ScanScope } from './scope.js';

/** Which scan a command uses (issue 51): one function per question, each walking the scans newest first. */

/** The scans with one of these statuses older than `before` (all without it), newest first. */
function newestFirst<T extends { id: number; scope: string }>(db: Db, columns: string, statuses: readonly string[], before?: number): Iterable<T> {
  return db
    .prepare(`SELECT ${columns} FROM scans WHERE status IN (${statuses.map(() => '?').join(', ')}) AND id < ? ORDER BY id DESC`)
    .iterate(...statuses, before ?? Number.MAX_SAFE_INTEGER) as Iterable<T>;
}

/**
 * The latest scan with this status (default: complete), or null; with a scope, the latest of
 * that scope only (a one-zone rescan is not the latest scan of the organisation). `before`
 * limits it to scans older than that id.
 */
export function latestScanOfScope(db: Db, statuses: ReadonlyArray<ScanRow['status']> = ['complete'], scope?: ScanScope, before?: number): number | null {
  for (const r of newestFirst(db, 'id, scope', statuses, before)) if (scope === undefined || sameScope(parseScope(r.scope), scope)) return r.id;
  return null;
}

/**
 * The scan a view reads by default: the newest complete scan that holds what the filter asks for
 * (see covers), so that a one-zone rescan newer than the nightly scan serves `--zone` on that zone,
 * and the nightly scan serves any other. With an empty filter: the newest complete scan of the
 * whole organisation. `before`: only scans older than this one.
 */
export function latestCoveringScan(db: Db, filter: ScanScope, statuses: ReadonlyArray<'complete' | 'incomplete'> = ['complete'], before?: number): number | null {
  // All rows first: opening a scoped scan to tell what it holds queries the same connection.
  for (const r of [...newestFirst(db, 'id, scope', statuses, before)]) {
    const scope = parseScope(r.scope);
    if (isFullScope(scope)) return r.id;
    // Only a scoped scan needs reading to tell; the whole organisation's holds everything.
    if (!isFullScope(filter) && covers(RowReader.open(db, r.id), filter)) return r.id;
  }
  return null;
}

/**
 * The scan audit, report and baseline use: the one asked for (--scan), else the newest complete one
 * holding what the filter asks for (latestCoveringScan). When there is none, the message names the
 * scans that exist instead, and the closest zone names to a mistyped one.
 */
export function scanForView(db: Db, path: string, asked: number | undefined, filter: ScanScope): number {
  if (asked !== undefined) return asked;
  const latest = latestCoveringScan(db, filter);
  if (latest !== null) return latest;
  const incomplete = latestCoveringScan(db, filter, ['incomplete']);
  const what = isFullScope(filter) ? `scan of ${describeScope(filter)}` : `scan holding ${describeScope(filter)}`;
  if (incomplete !== null) {
    throw new SnapshotError('ZW_SCAN_MISSING', `no complete ${what} in ${path}: use the latest incomplete one with --scan ${incomplete}, or run zonewarden scan again`);
  }
  const other = latestScanOfScope(db, ['complete', 'incomplete']);
  const known = knownZoneNames(db);
  const near = filter.zones.flatMap((z) => closestMatches(z, known)).map((n) => printable(n));
  const flags = isFullScope(filter) ? '' : ` ${scopeFlags(filter)}`;
  if (other === null) throw new SnapshotError('ZW_SCAN_MISSING', `no finished scan in ${path}: run zonewarden scan${flags} first`);
  const fix = `run zonewarden scan${flags}, or name a scan with --scan (zonewarden scans lists them; the latest is scan ${other})`;
  throw new SnapshotError('ZW_SCAN_MISSING', near.length ? `no ${what} in ${path}; did you mean ${[...new Set(near)].join(' or ')}? Else ${fix}` : `no ${what} in ${path}: ${fix}`);
}

/** Zone names of the newest complete scan (of any scope): to suggest a name when no scan holds the one asked for. */
function knownZoneNames(db: Db): string[] {
  const latest = latestScanOfScope(db, ['complete']);
  return latest === null ? [] : RowReader.open(db, latest).zones().map((z) => z.name);
}

/**
 * The scan of an audit named on the command line (--audit, --from-audit, --to-audit), checked
 * against the scan named beside it; the scan asked for (or undefined) when no audit is named.
 * `side`: diff's from or to; none for report's --audit and --scan.
 */
export function scanOfNamedAudit(db: Db, auditId: number, scan: number | undefined, side?: 'from' | 'to'): number;
export function scanOfNamedAudit(db: Db, auditId: number | undefined, scan: number | undefined, side?: 'from' | 'to'): number | undefined;
export function scanOfNamedAudit(db: Db, auditId: number | undefined, scan: number | undefined, side?: 'from' | 'to'): number | undefined {
  if (auditId === undefined) return scan;
  const owner = db.prepare('SELECT scan_id FROM audits WHERE id = ?').pluck().get(auditId) as number | undefined;
  if (owner === undefined) throw new SnapshotError('ZW_AUDIT_MISSING', `no audit ${auditId} in this database: zonewarden scans lists each scan's audits`);
  const [auditFlag, scanFlag] = side ? [`--${side}-audit`, `--${side}`] : ['--audit', '--scan'];
  if (scan !== undefined && scan !== owner) throw new UsageError(`${auditFlag} ${auditId} is an audit of scan ${owner}, not of ${scanFlag} ${scan}: give one of them`);
  return owner;
}

/**
 * The scan a night reads on from: the latest of the scope that is complete, or incomplete only for
 * parts of zones it listed. Such a scan attempted every part, and a part it could not read is read
 * again, never carried (ScanWriter.carry); else a token lacking one permission made every night a
 * full read. A scan that could not read a zone list or the accounts may not have attempted some
 * zones, and is passed over; so is a summary without the list of missing parts.
 */
export function scanToReadOn(db: Db, scope: ScanScope, before: number): number | null {
  const scans = newestFirst<{ id: number; scope: string; status: string; summary: string | null }>(db, 'id, scope, status, summary', ['complete', 'incomplete'], before);
  for (const s of scans) {
    if (!sameScope(parseScope(s.scope), scope)) continue;
    if (s.status === 'complete' || onlyZonePartsMissing(s.summary)) return s.id;
  }
  return null;
}

/** Whether a scan's summary lists its missing parts, every one of them a part of a zone it listed. */
function onlyZonePartsMissing(summary: string | null): boolean {
  let missing: unknown;
  try {
    missing = summary === null ? undefined : (JSON.parse(summary) as { missing?: unknown }).missing;
  } catch {
    return false;
  }
  const zonePart = (p: { kind?: unknown; scopeId?: unknown } | null) => p?.kind === 'zone' && typeof p.scopeId === 'string' && p.scopeId !== '';
  return Array.isArray(missing) && missing.length > 0 && missing.every(zonePart);
}
