import type { Db } from '../snapshot/db.js';
import { parseScope, type ScanScope } from '../snapshot/scope.js';

/** One line of `zonewarden scans`: what a scan covered, how it ended, what it read and found. */
export interface ScanListing {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  status: 'running' | 'complete' | 'incomplete' | 'aborted';
  scope: ScanScope;
  /** Accounts and zones read, and parts that could not be read; null for a scan that ended without a summary. */
  counts: { accounts: number; zones: number; missing: number } | null;
  /** Why an aborted scan ended, as stored (credentials already redacted). */
  error: string | null;
  /** The official audit's verdicts; null when the scan has not been audited. */
  audit: { fail: number; waived: number; unknown: number; pass: number } | null;
  /** The official audit's id (what report, diff and notifications use); null when not audited. */
  auditId: number | null;
  /** The scan's trial audits (other rules, settings or waivers), oldest first: report --audit ID shows one. */
  trials: Array<{ id: number; evaluatedAt: string; why: string; fail: number; waived: number; unknown: number; pass: number }>;
  baseline: boolean;
}

/** A row of listScans' query. */
type Row = Pick<ScanListing, 'id' | 'startedAt' | 'finishedAt' | 'status' | 'auditId'> & {
  scope: string;
  summary: string | null;
  audit: string | null;
  baseline: number;
};

interface Summary {
  accounts?: number;
  zones?: number;
  missing?: unknown[];
  error?: string;
}

/** The newest scans first; `limit` 0 lists all. */
export function listScans(db: Db, limit: number): ScanListing[] {
  const rows = db
    .prepare(
      `SELECT s.id, s.started_at AS startedAt, s.finished_at AS finishedAt, s.status, s.scope, s.summary,
              a.counts AS audit, a.id AS auditId,
              EXISTS (SELECT 1 FROM baselines b WHERE b.scan_id = s.id) AS baseline
       FROM scans s LEFT JOIN audits a ON a.scan_id = s.id AND a.trial IS NULL ORDER BY s.id DESC LIMIT ?`,
    )
    .all(limit === 0 ? -1 : limit) as Array<Row>;
  const trials = db.prepare('SELECT id, evaluated_at, trial, counts FROM audits WHERE scan_id = ? AND trial IS NOT NULL ORDER BY id');
  return rows.map((r) => {
    const summary = r.summary ? (JSON.parse(r.summary) as Summary) : null;
    const byStatus = r.audit ? (JSON.parse(r.audit) as { byStatus: ScanListing['audit'] }).byStatus : null;
    return {
      id: r.id,
      startedAt: r.startedAt,
      finishedAt: r.finishedAt,
      status: r.status,
      scope: parseScope(r.scope),
      counts: summary && typeof summary.zones === 'number' ? { accounts: summary.accounts ?? 0, zones: summary.zones, missing: summary.missing?.length ?? 0 } : null,
      error: typeof summary?.error === 'string' ? summary.error : null,
      audit: byStatus,
      auditId: r.auditId,
      trials: (trials.all(r.id) as Array<{ id: number; evaluated_at: string; trial: string; counts: string }>).map((t) => ({
        id: t.id,
        evaluatedAt: t.evaluated_at,
        why: t.trial,
        ...(JSON.parse(t.counts) as { byStatus: NonNullable<ScanListing['audit']> }).byStatus,
      })),
      baseline: r.baseline === 1,
    };
  });
}
