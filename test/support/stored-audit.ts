import { auditFindings, auditFindingsJson, officialAuditHeader, type AuditHeader } from '../../src/audit/store.js';
import { officialAuditId } from '../../src/audit/audit-identity.js';
import type { Finding } from '../../src/policy/findings.js';
import type { Db } from '../../src/snapshot/db.js';

/** The findings of a scan's official audit (none when it has not been audited). */
export function* storedFindings(db: Db, scanId: number): Generator<Finding> {
  const auditId = officialAuditId(db, scanId);
  if (auditId !== null) yield* auditFindings(db, auditId);
}

/** The findings of a scan's official audit as JSON texts. */
export function* storedFindingsJson(db: Db, scanId: number): Generator<string> {
  const auditId = officialAuditId(db, scanId);
  if (auditId !== null) yield* auditFindingsJson(db, auditId);
}

/** The official audit of a scan with its failing, unknown and waived findings; null when the scan has not been audited. */
export function loadAudit(db: Db, scanId: number): (AuditHeader & { findings: Finding[] }) | null {
  const header = officialAuditHeader(db, scanId);
  return header && { ...header, findings: [...auditFindings(db, header.auditId)] };
}
