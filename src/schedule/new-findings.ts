import type { DriftResult, FindingChange } from '../drift/result.js';
import { resourceText, type Finding } from '../policy/findings.js';
import { SEVERITIES, severityRank, type Severity } from '../policy/rule.js';
import { auditFindings } from '../audit/store.js';
import type { Db } from '../snapshot/db.js';
import type { NoticeFinding, RunNotice } from './notifications/notice.js';

/**
 * Failures new since the previous audited complete scan, or whose waiver ended; on the first audited
 * scan every failure is new, so a team that just set up webhooks hears what is wrong.
 */

export const WORST_LISTED = 50;

const zeroBySeverity = (): Record<Severity, number> => Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;

function noticeFinding(f: Pick<Finding, 'rule' | 'severity' | 'account' | 'zone' | 'resource' | 'message' | 'fingerprint'>, change: NoticeFinding['change']): NoticeFinding {
  return {
    change,
    rule: f.rule,
    severity: f.severity,
    account: f.account?.name ?? f.account?.id ?? null,
    zone: f.zone?.name ?? f.zone?.id ?? null,
    resource: resourceText(f.resource),
    message: f.message,
    fingerprint: f.fingerprint,
  };
}

/** `auditId`: the run's official audit; `failBySeverity`: its failure counts, all new without drift. */
export function newFailures(db: Db, auditId: number, drift: DriftResult | null, failBySeverity: Readonly<Record<Severity, number>>): NonNullable<RunNotice['newFindings']> {
  const bySeverity = zeroBySeverity();
  if (drift) {
    const failing = drift.findings.changes.filter((c): c is FindingChange & { change: 'new' | 'unwaived' } => (c.change === 'new' || c.change === 'unwaived') && c.after === 'fail');
    for (const c of failing) bySeverity[c.severity]++;
    // Sorted by kind, then severity: worst first across both kinds; the sort is stable, so ties keep the drift's order.
    const worst = [...failing].sort((a, b) => severityRank(b.severity) - severityRank(a.severity)).slice(0, WORST_LISTED);
    return { comparedWithScan: drift.from.id, bySeverity, worst: worst.map((c) => noticeFinding(c, c.change)) };
  }
  const worst: NoticeFinding[] = [];
  for (const f of auditFindings(db, auditId)) {
    // Stored worst first, failures before unknowns and waivers: the first rows are the ones to list.
    if (f.status !== 'fail' || worst.length === WORST_LISTED) break;
    worst.push(noticeFinding(f, 'new'));
  }
  return { comparedWithScan: null, bySeverity: { ...failBySeverity }, worst };
}

export function total(bySeverity: Record<Severity, number>): number {
  return SEVERITIES.reduce((n, s) => n + bySeverity[s], 0);
}
