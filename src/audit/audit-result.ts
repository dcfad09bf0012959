import type { StoredAs } from './audit-identity.js';
import type { Evaluation } from '../policy/engine.js';
import { STATUSES, type Finding, type Status } from '../policy/findings.js';
import { atOrAbove, SEVERITIES, type Severity } from '../policy/rule.js';
import type { WaiverReport, WaiverSet } from '../policy/waivers.js';

/** An audit's result and its counts, apart from audit.ts so that the store can keep them without importing the audit. */

export interface AuditCounts {
  byStatus: Record<Status, number>;
  /** Failures (not waived) by severity. */
  failBySeverity: Record<Severity, number>;
  byRule: Record<string, Record<Status, number>>;
  /**
   * Passing and failing (not waived) verdicts by zone id, for the reports' pass rate per zone; kept
   * with the audit, left out of the audit's JSON. Absent in audits stored by earlier versions.
   */
  byZone?: Record<string, { pass: number; fail: number }>;
}

export interface AuditResult extends Evaluation {
  waivers: WaiverReport;
  counts: AuditCounts;
  /** Failures at or above each severity: what --fail-on looks at (findings may have been streamed away). */
  failingAtOrAbove: Record<Severity, number>;
  /** Where recordAudit stored it: the audit's id, and whether it is the scan's official audit or a trial. */
  stored?: StoredAs;
}

export const zeroStatuses = (): Record<Status, number> => Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>;

export const zeroSeverities = (): Record<Severity, number> => Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;

/** Failures at or above each severity: what --fail-on looks at. */
export function failingAtOrAbove(failBySeverity: Readonly<Partial<Record<Severity, number>>>): Record<Severity, number> {
  const failing = (t: Severity) => SEVERITIES.filter((s) => atOrAbove(s, t)).reduce((n, s) => n + (failBySeverity[s] ?? 0), 0);
  return Object.fromEntries(SEVERITIES.map((t) => [t, failing(t)])) as Record<Severity, number>;
}

/** Counts by status, severity and rule, one finding at a time; passes may come as counts only. */
export class FindingCounter {
  readonly counts: AuditCounts;

  constructor(ruleIds: readonly string[]) {
    this.counts = {
      byStatus: zeroStatuses(),
      failBySeverity: zeroSeverities(),
      byRule: Object.fromEntries(ruleIds.map((id) => [id, zeroStatuses()])),
      byZone: {},
    };
  }

  /** Counts `f`, `n` times. */
  add(f: Finding, n = 1): void {
    if (f.status === 'pass') return;
    this.counts.byStatus[f.status] += n;
    (this.counts.byRule[f.rule] ??= zeroStatuses())[f.status] += n;
    if (f.status === 'fail') this.counts.failBySeverity[f.severity] += n;
    if (f.status === 'fail' && f.zone) (this.counts.byZone![f.zone.id] ??= { pass: 0, fail: 0 }).fail += n;
  }

  addZonePasses(passes: Readonly<Record<string, number>>): void {
    for (const [zone, n] of Object.entries(passes)) (this.counts.byZone![zone] ??= { pass: 0, fail: 0 }).pass += n;
  }

  addPasses(passes: Readonly<Record<string, number>>): void {
    for (const [rule, n] of Object.entries(passes)) {
      this.counts.byStatus.pass += n;
      (this.counts.byRule[rule] ??= zeroStatuses()).pass += n;
    }
  }
}

export function finish(evaluation: Evaluation, findings: Finding[], waivers: WaiverSet, counter: FindingCounter): AuditResult {
  counter.addPasses(evaluation.passes);
  counter.addZonePasses(evaluation.passesByZone);
  const counts = counter.counts;
  return { ...evaluation, findings, waivers: waivers.report(), counts, failingAtOrAbove: failingAtOrAbove(counts.failBySeverity) };
}
