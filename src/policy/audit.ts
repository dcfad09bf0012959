import type { SnapshotReader } from '../snapshot/reader.js';
import { evaluate, type Evaluation } from './engine.js';
import { compareFindings, STATUSES, type Finding, type Status } from './findings.js';
import type { ActiveRule } from './registry.js';
import { atOrAbove, SEVERITIES, type Severity } from './rule.js';
import { applyWaivers, type Waiver, type WaiverReport } from './waivers.js';

/** An audit: the rules' verdicts on a scan with the waivers applied, and the numbers that sum it up. */

export interface AuditCounts {
  byStatus: Record<Status, number>;
  /** Failures (not waived) by severity. */
  failBySeverity: Record<Severity, number>;
  byRule: Record<string, Record<Status, number>>;
}

export interface AuditResult extends Evaluation {
  waivers: WaiverReport;
  counts: AuditCounts;
}

const zeroStatuses = (): Record<Status, number> => Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>;

export function countFindings(findings: readonly Finding[], ruleIds: readonly string[]): AuditCounts {
  const counts: AuditCounts = {
    byStatus: zeroStatuses(),
    failBySeverity: Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>,
    byRule: Object.fromEntries(ruleIds.map((id) => [id, zeroStatuses()])),
  };
  for (const f of findings) {
    counts.byStatus[f.status]++;
    (counts.byRule[f.rule] ??= zeroStatuses())[f.status]++;
    if (f.status === 'fail') counts.failBySeverity[f.severity]++;
  }
  return counts;
}

export function runAudit(reader: SnapshotReader, rules: readonly ActiveRule[], waivers: readonly Waiver[] = [], options: { now?: Date } = {}): AuditResult {
  const evaluation = evaluate(reader, rules, options);
  const { findings, report } = applyWaivers(evaluation.findings, waivers, evaluation.now);
  // Waived failures move down the list, after the ones still failing.
  findings.sort(compareFindings);
  return { ...evaluation, findings, waivers: report, counts: countFindings(findings, evaluation.rules.map((r) => r.rule.meta.id)) };
}

/** Failures (not waived, not unknown) at or above the threshold: what `--fail-on` turns into exit 1. */
export function failuresAtOrAbove(findings: readonly Finding[], threshold: Severity): Finding[] {
  return findings.filter((f) => f.status === 'fail' && atOrAbove(f.severity, threshold));
}
