import type { Db } from '../snapshot/db.js';
import { differences, parseJudgement, sameJudgement, type Judgement } from '../policy/judgement.js';

/**
 * Which audit of a scan is which (schema 10). Its first audit, or the one `run` and `schedule` make,
 * is official: what reports, drift, notifications and `scans` read. One with the same judgement as a
 * stored audit replaces it, keeping its id; another judgement makes a trial beside the official one,
 * so trying other waivers cannot rewrite the nightly history (issue 32). audit --official makes the
 * new audit official on purpose, and the one it replaces stays, as a trial.
 */

/** The command that stored an audit: `run` and `schedule` are the nightly job's. */
export type AuditMaker = 'run' | 'schedule' | 'audit' | 'diff' | 'demo';

export interface AuditIdentity {
  judgement: Judgement;
  madeBy: AuditMaker;
  /** Store as the scan's official audit, whatever it has (audit --official). */
  official?: boolean;
}

/** Where an audit is stored, decided in the write transaction that stores it. */
export interface Placement {
  /** The audit replaced (its id is kept), or null for a new audit. */
  replaces: number | null;
  /** null: the scan's official audit; else why it is a trial. */
  trial: string | null;
  madeBy: AuditMaker;
  /** The official audit that becomes a trial (with --official), and why. */
  demote: { id: number; trial: string } | null;
}

/** What was stored: for the command's note. */
export interface StoredAs {
  auditId: number;
  scanId: number;
  trial: string | null;
  /** True when an audit with the same judgement was replaced. */
  replaced: boolean;
  /** The scan's official audit when this one is a trial; with --official, the former official one. */
  official: number | null;
}

interface AuditRow {
  id: number;
  judgement: string | null;
  trial: string | null;
  made_by: AuditMaker;
}

const NIGHTLY: readonly AuditMaker[] = ['run', 'schedule'];

/** "the nightly audit of scan 6" or "the official audit of scan 6 (audit 9)". */
export function officialName(madeBy: AuditMaker, scanId: number): string {
  return NIGHTLY.includes(madeBy) ? `the nightly audit of scan ${scanId}` : `the official audit of scan ${scanId}`;
}

/** Whether a stored audit judged as this one does; one stored before schema 10 has no judgement, and never does. */
function judgedAlike(row: AuditRow, judgement: Judgement): boolean {
  const stored = parseJudgement(row.judgement);
  return stored !== null && sameJudgement(stored, judgement);
}

export function placeAudit(db: Db, scanId: number, identity: AuditIdentity): Placement {
  const rows = db.prepare('SELECT id, judgement, trial, made_by FROM audits WHERE scan_id = ? ORDER BY id').all(scanId) as AuditRow[];
  const official = rows.find((r) => r.trial === null) ?? null;
  const same = rows.find((r) => judgedAlike(r, identity.judgement)) ?? null;
  // A refresh of the nightly audit is still the nightly audit.
  const madeBy = same && NIGHTLY.includes(same.made_by) ? same.made_by : identity.madeBy;
  if (official === null) return { replaces: same?.id ?? null, trial: null, madeBy, demote: null };
  if (same !== null && same.id === official.id) return { replaces: same.id, trial: null, madeBy, demote: null };
  if (identity.official) {
    const was = NIGHTLY.includes(official.made_by) ? 'the nightly audit, ' : '';
    return { replaces: same?.id ?? null, trial: null, madeBy, demote: { id: official.id, trial: `${was}replaced as the official audit of scan ${scanId} by audit --official` } };
  }
  const trial = `${differences(parseJudgement(official.judgement), identity.judgement)} from ${officialName(official.made_by, scanId)}`;
  return { replaces: same?.id ?? null, trial, madeBy, demote: null };
}

/** The official audit of a scan, or null when it has not been audited. */
export function officialAuditId(db: Db, scanId: number): number | null {
  return (db.prepare('SELECT id FROM audits WHERE scan_id = ? AND trial IS NULL').pluck().get(scanId) as number | undefined) ?? null;
}

/** A scan with its official audit, as the reports' index, trend and history walk read them. */
export interface OfficialAudit {
  scanId: number;
  startedAt: string;
  status: string;
  /** The scan's scope, as stored (parseScope reads it). */
  scope: string;
  auditId: number;
  /** The audit's counts, as stored (JSON of AuditCounts); '' when not asked for. */
  counts: string;
}

/**
 * The official audits of scans, newest first, one at a time (a caller stops when it has enough).
 * `before`/`upTo`: scans with a lower id, or not higher; `counts: false` leaves the counts unread.
 */
export function* officialAudits(
  db: Db,
  options: { before?: number; upTo?: number; complete?: boolean; counts?: boolean } = {},
): Generator<OfficialAudit> {
  const where: string[] = [];
  const params: number[] = [];
  if (options.complete) where.push("s.status = 'complete'");
  if (options.before !== undefined) (where.push('s.id < ?'), params.push(options.before));
  if (options.upTo !== undefined) (where.push('s.id <= ?'), params.push(options.upTo));
  const rows = db
    .prepare(
      `SELECT s.id AS scanId, s.started_at AS startedAt, s.status, s.scope, a.id AS auditId, ${options.counts === false ? "''" : 'a.counts'} AS counts
       FROM scans s JOIN audits a ON a.scan_id = s.id AND a.trial IS NULL${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY s.id DESC`,
    )
    .iterate(...params) as Iterable<OfficialAudit>;
  yield* rows;
}

/** One line for `audit --official` when it made a trial of the scan's official audit: which, and what replaced it. */
export function demotionNote(stored: StoredAs): string | null {
  if (stored.trial !== null || stored.official === null) return null;
  return `audit ${stored.official} of scan ${stored.scanId} is now a trial (replaced as official by audit ${stored.auditId})`;
}

/** One line for the command that stored a trial: where it is, why, and how to see it. */
export function trialNote(stored: StoredAs): string | null {
  if (stored.trial === null) return null;
  return `stored as audit ${stored.auditId} (trial: ${stored.trial}); report --audit ${stored.auditId} shows it`;
}
