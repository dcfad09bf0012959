import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';

export interface HistoryScan {
  status: 'complete' | 'incomplete';
  /** Fingerprints of the scan's failing findings. */
  failing: string[];
  waived?: string[];
}

/**
 * A snapshot database of audited scans, one a day from 2026-11-01 02:00 UTC, written straight into
 * the tables: for report code that reads the audit history (trends, since when a finding fails),
 * which would otherwise need one real scan per night.
 */
export function auditedHistory(scans: HistoryScan[]): Db {
  const db = openSnapshot(join(mkdtempSync(join(tmpdir(), 'zw-history-')), 'zonewarden.db'));
  const scan = db.prepare("INSERT INTO scans (started_at, finished_at, status, base_url, scope, tool_version, pid, host, heartbeat_at) VALUES (?, ?, ?, 'u', '{}', '0.0.1', 1, 'h', ?)");
  const audit = db.prepare("INSERT INTO audits (scan_id, evaluated_at, tool_version, rules, counts, errors, waivers) VALUES (?, 't', '0.0.1', '[]', ?, '[]', '{}')");
  const finding = db.prepare(
    "INSERT INTO findings (audit_id, fingerprint, rule, category, severity, status, resource_type, resource_id, message, data) VALUES (?, ?, 'r', 'dns', 'high', ?, 'zone', 'z', 'm', '{}')",
  );
  scans.forEach((s, i) => {
    const at = `2026-11-${String(i + 1).padStart(2, '0')}T02:00:00.000Z`;
    const id = Number(scan.run(at, at, s.status, at).lastInsertRowid);
    const waived = s.waived ?? [];
    // Each scan's official audit (schema 10: audits have ids of their own, which findings name).
    const auditId = Number(audit.run(id, JSON.stringify({ byStatus: { fail: s.failing.length, waived: waived.length, unknown: 0, pass: 0 }, failBySeverity: {}, byRule: {} })).lastInsertRowid);
    for (const fp of s.failing) finding.run(auditId, fp, 'fail');
    for (const fp of waived) finding.run(auditId, fp, 'waived');
  });
  return db;
}
