import { PACKAGE } from '../shared/package-info.js';
import type { Statement } from 'better-sqlite3';
import { smallPageCache, type Db } from '../snapshot/db.js';
import type { AuditCounts, AuditResult } from './audit.js';
import type { RuleRunError } from './engine.js';
import type { Finding } from './findings.js';
import type { WaiverReport } from './waivers.js';
import { HeapCeiling } from '../shared/heap.js';
import { overridesOf } from './zone-overrides.js';

/**
 * Findings kept with their scan. Passing verdicts are stored as counts only: a zone rule passes a
 * zone exactly when it stored nothing else for it, so drift and reports can tell "fixed" from
 * "unknown" without a row per zone and rule (200,000 rows a night at 10,000 zones).
 */

/** An audit without its findings. */
export interface AuditHeader {
  scanId: number;
  evaluatedAt: string;
  toolVersion: string;
  rules: Array<{ id: string; severity: string | null; options: unknown; overrides?: unknown[] }>;
  counts: AuditCounts;
  errors: RuleRunError[];
  waivers: WaiverReport;
}

export interface StoredAudit extends AuditHeader {
  /** Failing, unknown and waived findings. */
  findings: Finding[];
}

const COLUMNS = `scan_id, fingerprint, rule, category, severity, status, account_id, account_name, zone_id, zone_name,
  resource_type, resource_id, resource_name, message, message_id, data, waiver`;

/**
 * Stores one audit of a scan, replacing an earlier one. Findings are staged in a temporary table
 * while the rules run, which takes no lock on the database, and moved into place in one short
 * write transaction by finish(): an audit of 10,000 zones takes half a minute, and a scan writing
 * the same file meanwhile must not wait for it.
 */
export class AuditRecorder {
  private readonly insert: Statement;

  constructor(
    private readonly db: Db,
    private readonly scanId: number,
  ) {
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS audit_stage AS SELECT ${COLUMNS} FROM main.findings WHERE 0`);
    db.exec('DELETE FROM temp.audit_stage');
    this.insert = db.prepare(`INSERT INTO temp.audit_stage (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  }

  add(f: Finding): void {
    if (f.status === 'pass') return;
    this.insert.run(
      this.scanId,
      f.fingerprint,
      f.rule,
      f.category,
      f.severity,
      f.status,
      f.account?.id ?? null,
      f.account?.name ?? null,
      f.zone?.id ?? null,
      f.zone?.name ?? null,
      f.resource.type,
      f.resource.id,
      f.resource.name,
      f.message,
      f.messageId,
      JSON.stringify(f.data),
      f.waiver ? JSON.stringify(f.waiver) : null,
    );
  }

  /** Replaces the scan's stored audit with this one, in one write transaction. */
  finish(result: Omit<AuditResult, 'findings'>, evaluatedAt: Date): void {
    this.db
      .transaction(() => {
        this.db.prepare('DELETE FROM audits WHERE scan_id = ?').run(this.scanId);
        this.db
          .prepare('INSERT INTO audits (scan_id, evaluated_at, tool_version, rules, counts, errors, waivers) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(
            this.scanId,
            evaluatedAt.toISOString(),
            PACKAGE.version,
            JSON.stringify(result.rules.map((r) => ({ id: r.rule.meta.id, severity: r.severity, options: r.options, ...overridesOf(r) }))),
            JSON.stringify(result.counts),
            JSON.stringify(result.errors),
            JSON.stringify(result.waivers),
          );
        this.db.exec(`INSERT INTO main.findings (${COLUMNS}) SELECT ${COLUMNS} FROM temp.audit_stage`);
        this.db.exec('DELETE FROM temp.audit_stage');
      })
      .immediate();
  }
}

/** Stores an audit held in memory (see recordAudit for one streamed as it runs). */
export function saveAudit(db: Db, result: AuditResult, evaluatedAt = new Date()): void {
  const recorder = new AuditRecorder(db, result.scan.id);
  db.transaction(() => {
    for (const f of result.findings) recorder.add(f);
  })();
  recorder.finish(result, evaluatedAt);
}

/** Worst first, as compareFindings orders them in memory. */
const ORDER = `CASE status WHEN 'fail' THEN 0 WHEN 'unknown' THEN 1 ELSE 2 END,
  CASE severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 WHEN 'low' THEN 3 ELSE 4 END,
  rule, coalesce(zone_name, ''), coalesce(resource_name, resource_id)`;

/** A finding from a row of the findings table (or a query giving its columns). */
export function findingFromRow(r: Record<string, string | null>): Finding {
  return {
    rule: r['rule'] as string,
    category: r['category'] as Finding['category'],
    severity: r['severity'] as Finding['severity'],
    status: r['status'] as Finding['status'],
    account: r['account_id'] === null ? null : { id: r['account_id'] as string, name: r['account_name'] ?? null },
    zone: r['zone_id'] === null ? null : { id: r['zone_id'] as string, name: r['zone_name'] ?? null },
    resource: { type: r['resource_type'] as string, id: r['resource_id'] as string, name: r['resource_name'] ?? null },
    message: r['message'] as string,
    messageId: r['message_id'] ?? null,
    data: JSON.parse(r['data'] as string) as Record<string, unknown>,
    fingerprint: r['fingerprint'] as string,
    ...(r['waiver'] ? { waiver: JSON.parse(r['waiver']) as Finding['waiver'] & object } : {}),
  };
}

/**
 * The stored findings of a scan, worst first, one at a time (a large audit never sits in memory
 * whole). Each becomes garbage once used, so the heap is kept from piling them up.
 */
export function* storedFindings(db: Db, scanId: number): Generator<Finding> {
  const heap = new HeapCeiling(96, 1000);
  // The sort's buffers follow the page cache's size: small, as in the audit that wrote them.
  const restore = smallPageCache(db);
  try {
    for (const row of db.prepare(`SELECT * FROM findings WHERE scan_id = ? ORDER BY ${ORDER}`).iterate(scanId)) {
      heap.check();
      yield findingFromRow(row as Record<string, string | null>);
    }
  } finally {
    restore();
  }
}

export function loadAuditHeader(db: Db, scanId: number): AuditHeader | null {
  const row = db.prepare('SELECT * FROM audits WHERE scan_id = ?').get(scanId) as Record<string, string | number> | undefined;
  if (!row) return null;
  return {
    scanId,
    evaluatedAt: row['evaluated_at'] as string,
    toolVersion: row['tool_version'] as string,
    rules: JSON.parse(row['rules'] as string) as AuditHeader['rules'],
    counts: JSON.parse(row['counts'] as string) as AuditCounts,
    errors: JSON.parse(row['errors'] as string) as RuleRunError[],
    waivers: JSON.parse(row['waivers'] as string) as WaiverReport,
  };
}

export function loadAudit(db: Db, scanId: number): StoredAudit | null {
  const header = loadAuditHeader(db, scanId);
  return header && { ...header, findings: [...storedFindings(db, scanId)] };
}
