import { SnapshotError, type Db } from '../snapshot/db.js';
import { SnapshotReader, type ZoneRow } from '../snapshot/reader.js';
import { filterCondition, type ScanFilter } from '../snapshot/scan-filter.js';
import type { AuditCounts } from './audit.js';
import type { Finding, Status } from '../policy/findings.js';
import { auditRows, type RowCondition } from './reuse-rows.js';
import type { Severity } from '../policy/rule.js';
import { failingAtOrAbove as failingBySeverity, zeroSeverities, zeroStatuses } from './audit-result.js';
import { auditFindings, auditFindingsJson, auditHeader, NO_TALLY, type AuditHeader } from './store.js';

/**
 * A stored audit as a command shows it: whole, or narrowed to a filter's zones and accounts, with
 * exact counts: failures, unknowns and waivers from its rows, passes from those kept per zone
 * (audit_zones) and account. Summaries, --fail-on and every output format follow the filter.
 */
export interface AuditView {
  /** The audit, its counts and rule errors narrowed to the view. */
  header: AuditHeader;
  /** The zones in the view, by name. */
  zones: ZoneRow[];
  filter: ScanFilter | null;
  /** The view's findings rows, for queries of the findings table; undefined: all of the audit's. */
  where: RowCondition | undefined;
  /** The findings in the view, worst first. */
  findings(): Generator<Finding>;
  findingsJson(): Generator<string>;
}

export function auditView(db: Db, header: AuditHeader, reader: SnapshotReader, filter: ScanFilter | null): AuditView {
  const where = filter ? filterCondition(filter) : undefined;
  const narrowed = filter ? { ...header, counts: viewCounts(db, header, filter, where!), errors: header.errors.filter((e) => e.zone === null || filter.zoneIds.has(e.zone.id)) } : header;
  return {
    header: narrowed,
    zones: filter ? filter.zones : reader.zones(),
    filter,
    where,
    findings: () => auditFindings(db, header.auditId, where),
    findingsJson: () => auditFindingsJson(db, header.auditId, where),
  };
}

/** Another audit (the one a report compares with) through the same view; null when there is none, or it is too old to narrow. */
export function sameView(db: Db, auditId: number, filter: ScanFilter | null): AuditView | null {
  const header = auditHeader(db, auditId);
  if (!header) return null;
  try {
    return auditView(db, header, new SnapshotReader(db, header.scanId), filter);
  } catch (err) {
    if (err instanceof SnapshotError && err.code === 'ZW_AUDIT_OLD') return null;
    throw err;
  }
}

/** Failures (not waived) at or above each severity in a view's counts: what --fail-on looks at. */
export const failingAtOrAbove = (counts: AuditCounts): Record<Severity, number> => failingBySeverity(counts.failBySeverity);

/** The audit's counts of the verdicts on the view's zones and accounts. */
function viewCounts(db: Db, header: AuditHeader, filter: ScanFilter, where: RowCondition): AuditCounts {
  const audit = db.prepare('SELECT judgement, account_passes FROM audits WHERE id = ?').get(header.auditId) as { judgement: string | null; account_passes: string | null };
  if (audit.judgement === null) {
    throw new SnapshotError(
      'ZW_AUDIT_OLD',
      // A plain `audit` with other settings would store a trial beside it, and report and diff would still read this one.
      `audit ${header.auditId} of scan ${header.scanId} was stored by an earlier zonewarden, which kept no counts per zone to narrow it by: make a new official audit of the scan (zonewarden audit --scan ${header.scanId} --official, with the nightly job's config and waivers) to view it by --zone or --account`,
    );
  }
  const counts: AuditCounts = {
    byStatus: zeroStatuses(),
    failBySeverity: zeroSeverities(),
    byRule: Object.fromEntries(Object.keys(header.counts.byRule).map((r) => [r, zeroStatuses()])),
    byZone: {},
  };
  const byRule = (rule: string) => (counts.byRule[rule] ??= zeroStatuses());
  for (const row of auditRows(db, header.auditId, 'status, severity, rule', where) as Iterable<{ status: Exclude<Status, 'pass'>; severity: Severity; rule: string }>) {
    counts.byStatus[row.status]++;
    byRule(row.rule)[row.status]++;
    if (row.status === 'fail') counts.failBySeverity[row.severity]++;
  }
  const addPasses = (rule: string, n: number) => {
    counts.byStatus.pass += n;
    byRule(rule).pass += n;
  };
  // Per zone: the passes in other_passes; an audit stored with verdict reuse (before issue 51) kept
  // some rules' passes in the counts (a tally) of the audit that judged the zone instead.
  const zones = db.prepare(
    `SELECT a.zone_id, CASE WHEN a.counts = '${NO_TALLY}' THEN s.counts ELSE a.counts END AS counts, a.other_passes, j.reused_rules
     FROM audit_zones a LEFT JOIN audit_zones s ON s.audit_id = a.source_audit AND s.zone_id = a.zone_id LEFT JOIN audits j ON j.id = a.source_audit
     WHERE a.audit_id = ? AND a.zone_id IN (SELECT value FROM json_each(?))`,
  );
  for (const z of zones.iterate(header.auditId, JSON.stringify([...filter.zoneIds])) as Iterable<{ zone_id: string; counts: string | null; other_passes: string | null; reused_rules: string | null }>) {
    if (z.counts) for (const [rule, pass] of talliedPasses(z.counts, JSON.parse(z.reused_rules ?? '[]') as string[])) addPasses(rule, pass);
    if (z.other_passes) for (const [rule, n] of Object.entries(JSON.parse(z.other_passes) as Record<string, number>)) addPasses(rule, n);
  }
  const accountPasses = audit.account_passes ? (JSON.parse(audit.account_passes) as Record<string, Record<string, number>>) : {};
  for (const id of filter.accountIds) for (const [rule, n] of Object.entries(accountPasses[id] ?? {})) addPasses(rule, n);
  for (const id of filter.zoneIds) {
    const zone = header.counts.byZone?.[id];
    if (zone) counts.byZone![id] = { ...zone };
  }
  return counts;
}

/** A zone's passes by rule in a verdict-reuse tally (schemas 9 to 14): `q`, in reused_rules' order, 0, 1 or [pass, fail, ...]. */
function talliedPasses(counts: string, order: readonly string[]): Array<[string, number]> {
  const { q } = JSON.parse(counts) as { q: Array<0 | 1 | [number, number, number, number]> };
  const passes: Array<[string, number]> = [];
  order.forEach((rule, i) => {
    const c = q[i];
    const pass = c === 1 ? 1 : Array.isArray(c) ? c[0] : 0;
    if (pass > 0) passes.push([rule, pass]);
  });
  return passes;
}
