import { smallPageCache, type Db } from '../snapshot/db.js';
import type { SnapshotReader } from '../snapshot/reader.js';
import { evaluate, type EvaluateOptions, type Evaluation, type FindingSink } from './engine.js';
import { compareFindings, STATUSES, type Finding, type Status } from './findings.js';
import { readsOfRules, type ActiveRule } from './registry.js';
import { atOrAbove, SEVERITIES, type Severity } from './rule.js';
import { AuditRecorder, AuditSourcesChanged } from './store.js';
import type { AuditIdentity, StoredAs } from './audit-identity.js';
import { judgementOf } from './judgement.js';
import { TallyBook } from './tally-book.js';
import { addKeptVerdicts, addTally, dependencyName, emptyTally, encodeTally, findBase, judgedRow, keptZones, reusableRules, reuseKey, tallyVerdicts, type KeptZone, type ReuseBase, type ZoneTally } from './verdict-reuse.js';
import { confirmer } from './confirm-unchanged.js';
import { WaiverSet, type Waiver, type WaiverReport } from './waivers.js';
import { carryOver, expectedReads, replayer, ZoneReads } from './partial-rejudge.js';

/** An audit: the rules' verdicts on a scan with the waivers applied, and the numbers that sum it up. */

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
  /**
   * Verdicts kept from an earlier audit (recordAudit with reuse): its scan, the audit, the zones
   * kept (`unchanged` of them judged again in part and found to give the verdicts they had:
   * confirm-unchanged.ts), and the changed zones judged again in part and stored so (partial-rejudge.ts).
   */
  reused?: { fromScan: number; fromAudit: number; zones: number; inPart: number; unchanged: number };
  /** Where recordAudit stored it: the audit's id, and whether it is the scan's official audit or a trial. */
  stored?: StoredAs;
}

export interface RecordOptions {
  /**
   * Keep the verdicts of zones unchanged since the latest audit with the same rules, settings and
   * waivers (default true); false judges every zone again (--no-reuse).
   */
  reuse?: boolean;
  evaluatedAt?: Date;
  /**
   * What the audit was judged with and who stores it, which decide whether it replaces a stored
   * audit of the scan or is a trial beside it (src/policy/audit-identity.ts). Default: made by
   * `audit`, judged with these rules and waivers.
   */
  identity?: AuditIdentity;
  /** The most text of findings held in memory before they are staged in SQLite (default AuditRecorder's; tests lower it). */
  heldChars?: number;
}

const zeroStatuses = (): Record<Status, number> => Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>;

/** Counts by status, severity and rule, one finding at a time; passes may come as counts only. */
export class FindingCounter {
  readonly counts: AuditCounts;

  constructor(ruleIds: readonly string[]) {
    this.counts = {
      byStatus: zeroStatuses(),
      failBySeverity: Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>,
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

  failingAtOrAbove(): Record<Severity, number> {
    return Object.fromEntries(
      SEVERITIES.map((threshold) => [threshold, SEVERITIES.filter((s) => atOrAbove(s, threshold)).reduce((n, s) => n + this.counts.failBySeverity[s], 0)]),
    ) as Record<Severity, number>;
  }
}

function finish(evaluation: Evaluation, findings: Finding[], waivers: WaiverSet, counter: FindingCounter): AuditResult {
  counter.addPasses(evaluation.passes);
  counter.addZonePasses(evaluation.passesByZone);
  return { ...evaluation, findings, waivers: waivers.report(), counts: counter.counts, failingAtOrAbove: counter.failingAtOrAbove() };
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
 * An audit streamed into the database: each finding is staged as the rules produce it, so memory
 * stays flat however many there are. The rules read inside one read transaction (a consistent
 * view of the file, and no lock that would stop a scan writing it); the findings then replace
 * any earlier audit of the scan in one short write transaction. The result carries no findings:
 * read them back with storedFindings().
 */
export function recordAudit(db: Db, reader: SnapshotReader, rules: readonly ActiveRule[], waivers: readonly Waiver[] = [], options: RecordOptions | Date = {}): AuditResult {
  const o = options instanceof Date ? { evaluatedAt: options } : options;
  const restore = smallPageCache(db);
  const once = () => record(db, reader, rules, waivers, o.evaluatedAt ?? new Date(), o.reuse ?? true, o.identity ?? { judgement: judgementOf(rules, waivers, null), madeBy: 'audit' }, o.heldChars);
  try {
    try {
      return once();
    } catch (err) {
      // Another process re-audited or pruned what this audit kept verdicts from while it ran:
      // judged again on what is there now (rare; a second race in a row is reported).
      if (!(err instanceof AuditSourcesChanged)) throw err;
      return once();
    }
  } finally {
    restore();
  }
}

function record(db: Db, reader: SnapshotReader, rules: readonly ActiveRule[], waivers: readonly Waiver[], evaluatedAt: Date, reuse: boolean, identity: AuditIdentity, heldChars?: number): AuditResult {
  const recorder = new AuditRecorder(db, reader.scan.id, heldChars);
  const set = new WaiverSet(waivers, new Date(reader.scan.startedAt));
  const counter = new FindingCounter(rules.filter((r) => r.enabled).map((r) => r.rule.meta.id));
  const reusable = reusableRules(rules);
  const key = reuseKey(reader.scan.scope, rules, waivers);
  const order = [...reusable];
  const tallies = new TallyBook(order);
  const sink = new RecordingSink(recorder, set, counter, reusable, tallies);
  let base: ReuseBase | null = null;
  const evaluation = db
    .transaction(() => {
      const found = reuse ? findBase(db, reader, key, waivers, readsOfRules(rules)) : null;
      const keep =
        found === null
          ? undefined
          : (zones: Parameters<typeof keptZones>[4]) => {
              base = keptZones(db, reader, found, order, zones, new Date(reader.scan.startedAt));
              if (base === null) return null;
              const partial = new Map([...base.partial].map(([zoneId, p]) => [zoneId, p.replay]));
              return {
                zones: new Set(base.kept.keys()),
                rules: reusable,
                partial,
                replay: replayer(db, base.partial),
                expects: expectedReads(base.partial, order),
                confirm: confirmer(db, base, order),
              };
            };
      const evaluated = evaluate(reader, rules, { keepPasses: false, sink, reuse: keep });
      // The names the zones stored in part keep (carryOver), read in the same read transaction.
      for (const p of (base as ReuseBase | null)?.partial.values() ?? []) p.names();
      return evaluated;
    })
    .deferred();
  const used = base as ReuseBase | null;
  const kept = used?.kept ?? new Map<string, KeptZone>();
  if (used) addKeptVerdicts(used, counter, evaluation, set);
  // A zone where a rule could not run is judged again next time.
  for (const e of evaluation.errors) if (e.zone) tallies.of(e.zone.id).e = 1;
  // A zone judged in part keeps what its taken-over verdicts held on and read.
  for (const [zoneId, p] of used?.partial ?? []) {
    sink.reads.merge(zoneId, carryOver(tallies.of(zoneId), p, order));
  }
  const result = finish(evaluation, [], set, counter);
  if (used) result.reused = { fromScan: used.scanId, fromAudit: used.auditId, zones: kept.size, inPart: used.partial.size, unchanged: used.confirmed };
  // This audit's sum of tallies: the kept zones' sum and each judged zone's.
  const total = used?.total ?? emptyTally();
  const judged = evaluation.zoneIds
    .filter((z) => !kept.has(z))
    .map((z) => {
      const t = tallies.read(z);
      addTally(total, t);
      return { zoneId: z, ...judgedRow(t, order), reads: sink.reads.of(z) };
    });
  result.stored = recorder.finish(result, evaluatedAt, identity, {
    key,
    reusable: true,
    rules: order,
    judged,
    kept: [...kept],
    total: encodeTally(total, order),
    otherPasses: sink.otherPasses,
    accountPasses: sink.accountPasses,
    ...(used ? { sources: used.sources } : {}),
  });
  return result;
}

/**
 * Waivers applied and findings counted on their way to the recorder. The counts and the waivers'
 * matches of a unit (one rule on one zone) are held until it stands, like its findings.
 */
class RecordingSink implements FindingSink {
  /** The unit's findings as the counter sees them: one of each kind, and how many. */
  private readonly held = new Map<string, { finding: Finding; n: number }>();
  private matched: number[] = [];
  /** Per zone, passes of rules that are not tallied (not kept by a later audit): for views of some zones. */
  readonly otherPasses = new Map<string, Record<string, number>>();
  /** Per account, passes of verdicts on the account itself. */
  readonly accountPasses: Record<string, Record<string, number>> = {};
  /** Per zone, the endpoints each reusable rule read (partial-rejudge.ts). */
  readonly reads: ZoneReads;

  constructor(
    private readonly recorder: AuditRecorder,
    private readonly waivers: WaiverSet,
    private readonly counter: FindingCounter,
    /** Rules whose verdicts are counted per zone, for a later audit to keep. */
    private readonly reusable: ReadonlySet<string>,
    private readonly tallies: TallyBook,
  ) {
    this.reads = new ZoneReads([...reusable]);
  }

  private tally(zoneId: string): ZoneTally {
    return this.tallies.of(zoneId);
  }

  holds(zoneId: string, until: number): void {
    this.tally(zoneId).h = until;
  }

  dependsOn(zoneId: string, zoneIds: readonly string[], names: readonly string[]): void {
    const t = this.tally(zoneId);
    if (zoneIds.length) t.z = [...zoneIds];
    if (names.length) t.n = names.map(dependencyName);
  }

  read(zoneId: string, rule: string, endpoints: ReadonlySet<string>): void {
    this.reads.add(zoneId, rule, endpoints);
  }

  passed(rule: string, zoneId: string, n: number): void {
    if (this.reusable.has(rule)) return tallyVerdicts(this.tally(zoneId), rule, 'pass', 'info', n);
    const passes = this.otherPasses.get(zoneId) ?? this.otherPasses.set(zoneId, {}).get(zoneId)!;
    passes[rule] = (passes[rule] ?? 0) + n;
  }

  passedOnAccount(rule: string, accountId: string, n: number): void {
    const passes = (this.accountPasses[accountId] ??= {});
    passes[rule] = (passes[rule] ?? 0) + n;
  }

  add(f: Finding): void {
    const applied = this.waivers.apply(f, this.matched);
    const kind = `${applied.status}\u0000${applied.severity}\u0000${applied.rule}\u0000${applied.zone?.id ?? ''}`;
    const held = this.held.get(kind);
    if (held) held.n++;
    else this.held.set(kind, { finding: applied, n: 1 });
    this.recorder.add(applied);
  }

  commit(): void {
    this.recorder.commit();
    let unitZone: string | null = null;
    for (const { finding, n } of this.held.values()) {
      this.counter.add(finding, n);
      if (finding.zone && this.reusable.has(finding.rule)) {
        tallyVerdicts(this.tally(finding.zone.id), finding.rule, finding.status, finding.severity, n);
        unitZone = finding.zone.id;
      }
    }
    // The unit's waiver matches come from its failures, all on one zone: kept with its tally.
    if (unitZone !== null) {
      const w = this.tally(unitZone).w;
      for (const i of this.matched) w[i] = (w[i] ?? 0) + 1;
    }
    this.waivers.confirm(this.matched);
    this.held.clear();
    this.matched = [];
  }

  rollback(): void {
    this.recorder.rollback();
    this.held.clear();
    this.matched = [];
  }
}

/** Failures (not waived, not unknown) at or above the threshold: what `--fail-on` turns into exit 1. */
export function failuresAtOrAbove(findings: readonly Finding[], threshold: Severity): Finding[] {
  return findings.filter((f) => f.status === 'fail' && atOrAbove(f.severity, threshold));
}
