import { smallPageCache, type Db } from '../snapshot/db.js';
import type { SnapshotReader } from '../snapshot/reader.js';
import { evaluate, type EvaluateOptions, type FindingSink } from '../policy/engine.js';
import { compareFindings, type Finding } from '../policy/findings.js';
import type { ActiveRule } from '../policy/registry.js';
import { AuditRecorder } from './store.js';
import type { AuditIdentity } from './audit-identity.js';
import { judgementOf } from '../policy/judgement.js';
import { FindingCounter, finish, type AuditResult } from './audit-result.js';
import { WaiverSet, type Waiver } from '../policy/waivers.js';

export type { AuditCounts, AuditResult } from './audit-result.js';

/**
 * An audit: the rules' verdicts on a scan with the waivers applied, and their counts. Every audit
 * judges every zone with every rule (issue 51), never reusing an earlier audit's verdicts.
 */

export interface RecordOptions {
  evaluatedAt?: Date;
  /** Decides whether it replaces a stored audit of the scan or is a trial beside it (audit-identity.ts). Default: made by `audit`. */
  identity?: AuditIdentity;
  /** The most text of findings kept in memory before they are staged in SQLite (default AuditRecorder's; tests lower it). */
  inMemoryChars?: number;
}

/** An audit held in memory, every finding sorted worst first: for tests and --passes. */
export function runAudit(reader: SnapshotReader, rules: readonly ActiveRule[], waivers: readonly Waiver[] = [], options: Omit<EvaluateOptions, 'sink'> = {}): AuditResult {
  const evaluation = evaluate(reader, rules, options);
  const set = new WaiverSet(waivers, evaluation.now);
  const counter = new FindingCounter(evaluation.rules.map((r) => r.rule.meta.id));
  const findings = evaluation.findings.map((f) => set.apply(f));
  for (const f of findings) counter.add(f);
  // Waived failures move down the list, after the ones still failing.
  findings.sort(compareFindings);
  return finish(evaluation, findings, set, counter);
}

/**
 * An audit streamed into the database, so memory stays flat however many findings there are. The
 * rules read inside one read transaction (a consistent view, and no lock that would stop a scan
 * writing the file); the findings are then stored in one short write transaction. The result
 * carries no findings: read them back with auditFindings().
 */
export function recordAudit(db: Db, reader: SnapshotReader, rules: readonly ActiveRule[], waivers: readonly Waiver[] = [], options: RecordOptions | Date = {}): AuditResult {
  const o = options instanceof Date ? { evaluatedAt: options } : options;
  const restore = smallPageCache(db);
  try {
    const recorder = new AuditRecorder(db, reader.scan.id, o.inMemoryChars);
    const set = new WaiverSet(waivers, new Date(reader.scan.startedAt));
    const counter = new FindingCounter(rules.filter((r) => r.enabled).map((r) => r.rule.meta.id));
    const sink = new RecordingSink(recorder, set, counter);
    const evaluation = db.transaction(() => evaluate(reader, rules, { keepPasses: false, sink })).deferred();
    const result = finish(evaluation, [], set, counter);
    const identity = o.identity ?? { judgement: judgementOf(rules, waivers, null), madeBy: 'audit' };
    const passes = { zoneIds: evaluation.zoneIds, zonePasses: sink.zonePasses, accountPasses: sink.accountPasses };
    result.stored = recorder.finish(result, o.evaluatedAt ?? new Date(), identity, passes);
    return result;
  } finally {
    restore();
  }
}

/**
 * Waivers applied and findings counted on their way to the recorder. The counts and the waivers'
 * matches of a unit (one rule on one zone) are pending until it stands, like its findings.
 */
class RecordingSink implements FindingSink {
  /** The unit's findings as the counter sees them: one of each kind, and how many. */
  private readonly pending = new Map<string, { finding: Finding; n: number }>();
  private matched: number[] = [];
  /** Per zone, passes by rule: for views of some zones (audit-view.ts). */
  readonly zonePasses = new Map<string, Record<string, number>>();
  /** Per account, passes of verdicts on the account itself. */
  readonly accountPasses: Record<string, Record<string, number>> = {};

  constructor(
    private readonly recorder: AuditRecorder,
    private readonly waivers: WaiverSet,
    private readonly counter: FindingCounter,
  ) {}

  passed(rule: string, zoneId: string, n: number): void {
    const passes = this.zonePasses.get(zoneId) ?? this.zonePasses.set(zoneId, {}).get(zoneId)!;
    passes[rule] = (passes[rule] ?? 0) + n;
  }

  passedOnAccount(rule: string, accountId: string, n: number): void {
    const passes = (this.accountPasses[accountId] ??= {});
    passes[rule] = (passes[rule] ?? 0) + n;
  }

  add(f: Finding): void {
    const applied = this.waivers.apply(f, this.matched);
    const kind = `${applied.status}\u0000${applied.severity}\u0000${applied.rule}\u0000${applied.zone?.id ?? ''}`;
    const seen = this.pending.get(kind);
    if (seen) seen.n++;
    else this.pending.set(kind, { finding: applied, n: 1 });
    this.recorder.add(applied);
  }

  commit(): void {
    this.recorder.commit();
    for (const { finding, n } of this.pending.values()) this.counter.add(finding, n);
    this.waivers.confirm(this.matched);
    this.pending.clear();
    this.matched = [];
  }

  rollback(): void {
    this.recorder.rollback();
    this.pending.clear();
    this.matched = [];
  }
}
