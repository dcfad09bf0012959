import type { Named, Status } from '../policy/findings.js';
import type { Category, Severity } from '../policy/rule.js';
import type { CoverageState, ScanScope } from '../snapshot/writer.js';
import type { FieldChange } from './fields.js';

/** What `diffScans` returns, for the diff command, reports and notifications. Every list is sorted, so two runs print the same. */

export interface DriftScan {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  status: 'complete' | 'incomplete';
  scope: ScanScope;
  /** The audit of the scan compared: its official one unless --from-audit or --to-audit named another (trial: why it is one). */
  audit: { id: number; trial: string | null };
}

export interface Baseline {
  id: number;
  scanId: number;
  acceptedAt: string;
  note: string | null;
}

/** How a finding moved between the scans; `still-*` are counted, not listed. */
export const FINDING_CHANGES = ['new', 'fixed', 'severity-changed', 'newly-waived', 'unwaived', 'newly-unknown', 'known-again'] as const;
export type FindingChangeKind = (typeof FINDING_CHANGES)[number];
export const FINDING_STEADY = ['still-failing', 'still-waived', 'still-unknown'] as const;
export type FindingSteadyKind = (typeof FINDING_STEADY)[number];
/** The steady count a status that did not move adds to. */
export const STEADY_OF = { fail: 'still-failing', waived: 'still-waived', unknown: 'still-unknown' } as const;

/** Every count of a finding drift, at 0. */
export const noFindingCounts = (): FindingDrift['counts'] =>
  Object.fromEntries([...FINDING_CHANGES, ...FINDING_STEADY].map((k) => [k, 0])) as FindingDrift['counts'];

/** A finding's status in one scan; null: no finding (the check passed, or the resource is gone). */
export type FindingState = Exclude<Status, 'pass'> | null;

export interface FindingChange {
  change: FindingChangeKind;
  fingerprint: string;
  rule: string;
  category: Category;
  /** The severity in the later scan; for a fixed finding, the one it had. */
  severity: Severity;
  previousSeverity: Severity | null;
  before: FindingState;
  after: FindingState;
  account: Named | null;
  zone: Named | null;
  resource: { type: string; id: string; name: string | null };
  /** The message of the later scan, or of the earlier one when the finding is gone. */
  message: string;
}

export interface FindingDrift {
  counts: Record<FindingChangeKind | FindingSteadyKind, number>;
  changes: FindingChange[];
  /** Rules that ran in only one of the two audits: their findings are not compared. */
  rulesNotCompared: string[];
}

export type ResourceChangeKind = 'added' | 'removed' | 'changed';

export interface ResourceChange {
  change: ResourceChangeKind;
  type: string;
  id: string;
  name: string | null;
  zone: Named | null;
  /** For a certificate: its pack. */
  parent?: { type: string; id: string };
  /** For a change: the fields that differ, beyond the ignored ones. */
  fields?: FieldChange[];
  /** For a zone added or removed: how many of each resource it held, by resource type. */
  contents?: Record<string, number>;
}

/** Data one of the scans could not read: its resources are unknown, neither removed nor unchanged. */
export interface UnreadPartition {
  change: 'unknown';
  type: string;
  zone: Named | null;
  /** The scan that could not read it. */
  scan: number;
  state: CoverageState | 'not-read';
  reason: string;
  /** What the other scan read there (none when neither did). */
  resources: Named[];
}

export interface ConfigurationDrift {
  counts: Record<string, { added: number; removed: number; changed: number; unknown: number }>;
  changes: ResourceChange[];
  unknown: UnreadPartition[];
  /** Resources whose only differences were ignored fields. */
  ignoredChanges: number;
  /** The ignore patterns in use. */
  ignore: string[];
  /** Zones outside the scope of one of the scans (a --zone or --account scan): not compared. */
  zonesOutsideScope: Named[];
}

export interface DriftResult {
  from: DriftScan;
  to: DriftScan;
  /** The baseline compared from, with --baseline. */
  baseline: Baseline | null;
  findings: FindingDrift;
  configuration: ConfigurationDrift;
  /** Anything added, removed or changed, in findings or configuration. */
  changed: boolean;
  /** Something could not be compared: a scan is incomplete, data was unread, or rules differ. */
  partial: boolean;
}
