import type { Finding } from '../policy/findings.js';
import type { Db } from '../snapshot/db.js';

/**
 * Since when each failure of a scan has failed: the start of the earliest scan of its unbroken
 * run of failures, walking back through the complete audited scans before it. A scan where the
 * finding did not fail (it passed, was waived or unknown) ends the run; incomplete scans are
 * skipped, since one that did not read a zone says nothing about it. Only failures are followed,
 * one earlier scan at a time, and the walk stops as soon as every run has ended, so a nightly
 * history costs as many scans as the oldest failure is old (at most MAX_SCANS_BACK).
 */

/** How far back the walk goes; a run this long reads "since at least" that scan. */
export const MAX_SCANS_BACK = 366;

export interface FirstSeen {
  /** ISO start of the first scan of the finding's run of failures; '' for a finding that does not fail. */
  (finding: Finding): string;
}

export function firstSeenOf(db: Db, scanId: number): FirstSeen {
  const current = db.prepare('SELECT started_at FROM scans WHERE id = ?').get(scanId) as { started_at: string } | undefined;
  const since = new Map<string, string>();
  if (!current) return () => '';
  const failing = db.prepare("SELECT fingerprint FROM findings WHERE scan_id = ? AND status = 'fail'").pluck();
  for (const fp of failing.iterate(scanId) as Iterable<string>) since.set(fp, current.started_at);

  const earlier = db
    .prepare(
      `SELECT s.id, s.started_at FROM scans s JOIN audits a ON a.scan_id = s.id
       WHERE s.status = 'complete' AND s.id < ? ORDER BY s.id DESC LIMIT ?`,
    )
    .all(scanId, MAX_SCANS_BACK) as Array<{ id: number; started_at: string }>;
  let open = new Set(since.keys());
  for (const scan of earlier) {
    if (open.size === 0) break;
    const still = new Set<string>();
    for (const fp of failing.iterate(scan.id) as Iterable<string>) {
      if (!open.has(fp)) continue;
      still.add(fp);
      since.set(fp, scan.started_at);
    }
    open = still;
  }
  return (f) => (f.status === 'fail' ? (since.get(f.fingerprint) ?? '') : '');
}
