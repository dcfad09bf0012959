import type { Finding } from '../policy/findings.js';
import type { Db } from '../snapshot/db.js';
import { auditRows } from '../audit/reuse-rows.js';
import { officialAuditId, officialAudits } from '../audit/audit-identity.js';

/**
 * Since when each failure of a scan has failed: the start of the earliest scan of its unbroken run,
 * walking back through the complete audited scans (an incomplete one says nothing of a zone it did
 * not read). A scan where it did not fail ends the run; the walk stops once every run has ended.
 */

/** How far back the walk goes (a quarter of nightly scans); each scan back reads its failures: 148,656 over 30 scans take 1.8 s. */
export const MAX_SCANS_BACK = 90;

/** ISO start of the first scan of the finding's run of failures; '' for a finding that does not fail. */
export type FirstSeen = (finding: Finding) => string;

/** `auditId`: the audit of the scan reported (default its official one); earlier scans count by their official audits. */
export function firstSeenOf(db: Db, scanId: number, auditId: number | null = officialAuditId(db, scanId)): FirstSeen {
  const current = db.prepare('SELECT started_at FROM scans WHERE id = ?').get(scanId) as { started_at: string } | undefined;
  if (!current || auditId === null) return () => '';
  // An audit that kept verdicts of an earlier one reads some of its rows there (auditRows).
  const failing = (id: number) => auditRows(db, id, 'fingerprint', "status = 'fail'", true) as Iterable<string>;
  // Each failing fingerprint gets a number once; the walk then costs one map lookup per row.
  const index = new Map<string, number>();
  for (const fp of failing(auditId)) if (!index.has(fp)) index.set(fp, index.size);
  // How many scans back each run reaches: 0 is this scan alone.
  const depth = new Uint16Array(index.size);

  const earlier: Array<{ id: number; started_at: string }> = [];
  for (const a of officialAudits(db, { complete: true, before: scanId, counts: false })) {
    if (earlier.length === MAX_SCANS_BACK) break;
    earlier.push({ id: a.auditId, started_at: a.startedAt });
  }
  let open = index.size;
  for (let back = 0; back < earlier.length && open > 0; back++) {
    // A run still open reached `back` scans back; it reaches one more if it failed in this scan too.
    open = 0;
    for (const fp of failing(earlier[back]!.id)) {
      const i = index.get(fp);
      if (i !== undefined && depth[i] === back) {
        depth[i] = back + 1;
        open++;
      }
    }
  }
  const startOf = (d: number) => (d === 0 ? current.started_at : earlier[d - 1]!.started_at);
  return (f) => {
    const i = f.status === 'fail' ? index.get(f.fingerprint) : undefined;
    return i === undefined ? '' : startOf(depth[i]!);
  };
}
