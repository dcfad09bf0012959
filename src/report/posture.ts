import { SEVERITIES, type Severity } from '../policy/rule.js';
import { RISK_WEIGHTS } from './risk.js';

/**
 * "How are we, and is it getting better or worse": an audit's pass rate and failures by severity against
 * the audit the report compares with (as "new" and "fixed" are measured). Better or worse weighs failures
 * by severity (RISK_WEIGHTS), so one new low finding does not outweigh a fixed critical.
 */

/** What posture reads of an audit's stored counts. */
export interface PostureCounts {
  byStatus: { fail: number; pass: number };
  failBySeverity: Partial<Record<Severity, number>>;
}

export type Verdict = 'better' | 'worse' | 'unchanged' | 'first';

export interface Posture {
  /** Passing checks of those passed or failed, to a tenth of a percent; null when none was decided. */
  passRate: number | null;
  failing: number;
  bySeverity: Array<{ severity: Severity; count: number; delta: number | null }>;
  previous: { scanId: number; startedAt: string; passRate: number | null; failing: number } | null;
  /** In percentage points, to a tenth; null without a previous audit or a rate on either side. */
  passRateDelta: number | null;
  failingDelta: number | null;
  verdict: Verdict;
  /** The severities whose failures moved, as "high −1, low +2"; empty when none did. */
  moved: string;
}

/** Passing checks of those decided (pass or fail), to a tenth of a percent, rounded down; null when none was. */
export const passRate = (c: { pass: number; fail: number }): number | null => (c.pass + c.fail > 0 ? Math.floor((c.pass / (c.pass + c.fail)) * 1000) / 10 : null);

const weighted = (c: PostureCounts) => SEVERITIES.reduce((sum, s) => sum + RISK_WEIGHTS[s] * (c.failBySeverity[s] ?? 0), 0);

/** A signed count with a true minus sign: "+2", "−1", "±0". */
export const signed = (n: number): string => (n > 0 ? `+${n.toLocaleString('en-US')}` : n < 0 ? `−${(-n).toLocaleString('en-US')}` : '±0');

export function posture(now: PostureCounts, before: { scanId: number; startedAt: string; counts: PostureCounts } | null): Posture {
  const rate = passRate(now.byStatus);
  const bySeverity = SEVERITIES.map((severity) => {
    const count = now.failBySeverity[severity] ?? 0;
    return { severity, count, delta: before ? count - (before.counts.failBySeverity[severity] ?? 0) : null };
  });
  if (!before) return { passRate: rate, failing: now.byStatus.fail, bySeverity, previous: null, passRateDelta: null, failingDelta: null, verdict: 'first', moved: '' };
  const previousRate = passRate(before.counts.byStatus);
  const change = weighted(now) - weighted(before.counts);
  return {
    passRate: rate,
    failing: now.byStatus.fail,
    bySeverity,
    previous: { scanId: before.scanId, startedAt: before.startedAt, passRate: previousRate, failing: before.counts.byStatus.fail },
    passRateDelta: rate !== null && previousRate !== null ? Math.round((rate - previousRate) * 10) / 10 : null,
    failingDelta: now.byStatus.fail - before.counts.byStatus.fail,
    verdict: change < 0 ? 'better' : change > 0 ? 'worse' : 'unchanged',
    moved: bySeverity.filter((s) => s.delta).map((s) => `${s.severity} ${signed(s.delta!)}`).join(', '),
  };
}
