import type { Db } from '../snapshot/db.js';
import { byText, STATUS_ORDER, type Status } from '../policy/findings.js';
import { severityRank, type Severity } from '../policy/rule.js';

/**
 * The findings rows of an audit that reused verdicts (schemas 9 to 14, before issue 51), which still
 * read as they did. It stored rows only for what it judged; a kept zone's rows of the reused rules
 * stay with the audit that judged it (audit_zones.source_audit, always that audit: one step reaches
 * every row). Every reader of findings goes through here, and sees what a full audit would have stored.
 */

/** One part of an audit's rows: a SQL condition on `findings` and its parameters. */
export interface RowPart {
  /** The audit whose rows these are. */
  auditId: number;
  /** The keys of the source audit's run in listing order (null for audits stored before schema 7). */
  run: { from: number; to: number } | null;
  where: string;
  params: unknown[];
}

interface AuditRow {
  findings_from: number | null;
  findings_to: number | null;
  reused_rules: string | null;
}

const runOf = (a: AuditRow | undefined): RowPart['run'] => (a?.findings_from != null && a.findings_to != null ? { from: a.findings_from, to: a.findings_to } : null);

/** The audits whose rows an audit reads besides its own, or an empty list. */
export function referencedAudits(db: Db, auditId: number): number[] {
  return (db.prepare('SELECT DISTINCT source_audit FROM audit_zones WHERE audit_id = ? AND source_audit <> ?').pluck().all(auditId, auditId) as number[]).sort((a, b) => a - b);
}

/** The parts of an audit's findings: its own rows, then, per referenced audit, the rows of the zones it kept. */
export function rowParts(db: Db, auditId: number): [RowPart, ...RowPart[]] {
  const audit = db.prepare('SELECT findings_from, findings_to, reused_rules FROM audits WHERE id = ?').get(auditId) as AuditRow | undefined;
  const parts: [RowPart, ...RowPart[]] = [{ auditId, run: runOf(audit), where: 'audit_id = ?', params: [auditId] }];
  const sources = referencedAudits(db, auditId);
  if (sources.length === 0) return parts;
  const rules = audit?.reused_rules ?? '[]';
  const source = db.prepare('SELECT findings_from, findings_to, reused_rules FROM audits WHERE id = ?');
  for (const s of sources) {
    parts.push({
      auditId: s,
      run: runOf(source.get(s) as AuditRow | undefined),
      where: 'audit_id = ? AND rule IN (SELECT value FROM json_each(?)) AND zone_id IN (SELECT zone_id FROM audit_zones WHERE audit_id = ? AND source_audit = ?)',
      params: [s, rules, auditId, s],
    });
  }
  return parts;
}

/** A condition on findings rows and its parameters, such as a view's zones (src/audit/audit-view.ts). */
export interface RowCondition {
  sql: string;
  params: unknown[];
}

const ALL_ROWS: RowCondition = { sql: '1', params: [] };

/** `columns` of every findings row of the audit, in no particular order; `where` narrows them. */
export function* auditRows(db: Db, auditId: number, columns: string, where: string | RowCondition = ALL_ROWS, pluck = false): Generator<unknown> {
  const condition = typeof where === 'string' ? { sql: where, params: [] } : where;
  for (const part of rowParts(db, auditId)) {
    const statement = db.prepare(`SELECT ${columns} FROM findings WHERE ${part.where} AND (${condition.sql})`);
    if (pluck) statement.pluck();
    yield* statement.iterate(...part.params, ...condition.params) as Iterable<unknown>;
  }
}

/** The listing order's key columns (compareFindings), read with each row of a merged audit. */
const KEY_COLUMNS = 'status AS k_status, severity AS k_severity, rule AS k_rule, zone_name AS k_zone, zone_id AS k_zone_id, coalesce(resource_name, resource_id) AS k_resource';

type Keyed = { k_status: Status; k_severity: Severity; k_rule: string; k_zone: string | null; k_zone_id: string | null; k_resource: string; v?: unknown };

const byListing = (a: Keyed, b: Keyed): number =>
  STATUS_ORDER[a.k_status] - STATUS_ORDER[b.k_status] ||
  severityRank(b.k_severity) - severityRank(a.k_severity) ||
  byText(a.k_rule, b.k_rule) ||
  byText(a.k_zone ?? '', b.k_zone ?? '') ||
  byText(a.k_zone_id ?? '', b.k_zone_id ?? '') ||
  byText(a.k_resource, b.k_resource);

/**
 * `select` of every row of an audit with references, worst first: each part's rows come in listing
 * order from its source's run, and the parts (a handful) are merged; rows equal in every key keep their part's order.
 */
export function* mergedInListingOrder(db: Db, auditId: number, select: string, pluck: boolean, where: RowCondition = ALL_ROWS): Generator<unknown> {
  const streams: Array<Iterator<Keyed>> = [];
  for (const part of rowParts(db, auditId)) {
    const ordered = part.run
      ? `SELECT ${KEY_COLUMNS}, ${select === '*' ? '*' : `${select} AS v`} FROM findings WHERE pk BETWEEN ${part.run.from} AND ${part.run.to} AND +${part.where} AND (${where.sql}) ORDER BY pk`
      : null;
    if (!ordered) throw new Error(`audit ${part.auditId} keeps no run of findings in listing order; audit its scan again`);
    streams.push(db.prepare(ordered).iterate(...part.params, ...where.params) as Iterator<Keyed>);
  }
  // A reader that stops early (the text table's first rows) must still close every statement.
  try {
    const heads: Array<Keyed | undefined> = streams.map((s) => s.next().value as Keyed | undefined);
    for (;;) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        const h = heads[i];
        if (h !== undefined && (best < 0 || byListing(h, heads[best]!) < 0)) best = i;
      }
      if (best < 0) return;
      const row = heads[best]!;
      heads[best] = streams[best]!.next().value as Keyed | undefined;
      yield pluck ? row.v : row;
    }
  } finally {
    for (const s of streams) s.return?.();
  }
}

/** A table to read an audit's findings from (drift's joins): `findings`, or for an audit with references a temporary copy. */
export function findingsTableFor(db: Db, auditIds: readonly number[]): (auditId: number) => string {
  const copied = new Set<number>();
  for (const id of auditIds) {
    if (referencedAudits(db, id).length === 0 || copied.has(id)) continue;
    if (copied.size === 0) {
      db.exec('CREATE TEMP TABLE IF NOT EXISTS audit_rows (pk INTEGER, audit_id INTEGER, fingerprint TEXT, status TEXT, severity TEXT, rule TEXT, zone_id TEXT, account_id TEXT)');
      db.exec('CREATE INDEX IF NOT EXISTS temp.audit_rows_fp ON audit_rows (audit_id, fingerprint, status, severity, rule, zone_id)');
      db.exec('DELETE FROM temp.audit_rows');
    }
    for (const part of rowParts(db, id)) {
      db.prepare(`INSERT INTO temp.audit_rows SELECT pk, ?, fingerprint, status, severity, rule, zone_id, account_id FROM findings WHERE ${part.where}`).run(id, ...part.params);
    }
    copied.add(id);
  }
  return (auditId) => (copied.has(auditId) ? 'temp.audit_rows' : 'findings');
}

/** Findings of the audit by rule, severity and status, counted per part of its rows (a kept zone's rows live with the audit that judged it). */
export function findingCounts(db: Db, auditId: number): Map<string, { rule: string; severity: string; status: string; n: number }> {
  const counts = new Map<string, { rule: string; severity: string; status: string; n: number }>();
  for (const part of rowParts(db, auditId)) {
    const rows = db.prepare(`SELECT rule, severity, status, count(*) AS n FROM findings WHERE ${part.where} GROUP BY rule, severity, status`).all(...part.params) as Array<{ rule: string; severity: string; status: string; n: number }>;
    for (const r of rows) {
      const key = `${r.rule}\0${r.severity}\0${r.status}`;
      const c = counts.get(key);
      if (c) c.n += r.n;
      else counts.set(key, { ...r });
    }
  }
  return counts;
}
