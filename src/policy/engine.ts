import { HeapCeiling } from '../common/heap.js';
import type { SnapshotReader, ScanRow, ZoneRow } from '../snapshot/reader.js';
import type { ExpectedReads } from '../snapshot/read-ahead.js';
import { byText, compareFindings, fingerprint, renderMessage, type Finding, type Named } from './findings.js';
import type { ActiveRule } from './registry.js';
import type { ResourceRef, RuleOptions, Severity, ZoneContext } from './rule.js';
import { HoldingSink, type HeldUnit } from './held-zone.js';
import { SnapshotView } from './snapshot-view.js';
import { ZoneView } from './zone-view.js';
import { settingFor } from './zone-overrides.js';

/**
 * Runs the rules over one scan. Zone rules run zone by zone, all of them on one zone's data
 * before the next is read, so memory holds one zone at a time however large the organisation. A
 * rule that throws is reported as an error for that rule (and zone) and the others carry on; its
 * partial verdicts for that zone are discarded rather than half-kept.
 */

export interface RuleRunError {
  rule: string;
  zone: Named | null;
  message: string;
}

export interface Evaluation {
  scan: ScanRow;
  /** The instant the rules judged against: the scan's start. */
  now: Date;
  /** The rules that ran, in catalogue order. */
  rules: ActiveRule[];
  /** Every verdict, worst first; passes only when kept (see EvaluateOptions.keepPasses). */
  findings: Finding[];
  /** Passing verdicts by rule, kept or not. */
  passes: Record<string, number>;
  /** Passing verdicts by zone id, kept or not: the reports' pass rate per zone. */
  passesByZone: Record<string, number>;
  errors: RuleRunError[];
  zones: number;
  /** The zones of the scan, by id, in the order judged. */
  zoneIds: string[];
  /** What was not judged again (EvaluateOptions.reuse), or null. */
  kept: KeptVerdicts | null;
}

/** Verdicts an audit keeps rather than judges: these rules' verdicts on these zones. */
export interface KeptVerdicts {
  zones: ReadonlySet<string>;
  rules: ReadonlySet<string>;
  /**
   * Zones judged again by some rules only (src/policy/partial-rejudge.ts): per zone, the rules
   * whose verdicts are taken over from the audit that judged it (`replay`) rather than run.
   */
  partial?: ReadonlyMap<string, ReadonlySet<string>>;
  /** A rule's verdicts on a zone of `partial` as they were given, or null when they cannot be had (the rule then runs). */
  replay?: (zoneId: string, rule: string) => ReplayedVerdicts | null;
  /** The endpoints a zone judged is expected to read (null: any), so that the reader reads ahead only those (see ZoneReadAhead). */
  expects?: ExpectedReads;
  /**
   * Given what the rules run on a zone of `partial` gave (the kept rules among them, as they
   * stood), what those verdicts hold on, and the rules whose verdicts would be taken over, whether they are the verdicts the earlier audit holds:
   * the zone is then kept like an unchanged one, and nothing is taken over (see held-zone.ts).
   */
  confirm?: (zoneId: string, ran: readonly HeldUnit[], holds: ZoneHolds, takenOver: readonly string[]) => boolean;
}

/** What a zone's verdicts hold on: until when (ms; infinity: at any time), the other zones and the names they looked at. */
export interface ZoneHolds {
  horizon: number;
  zones: ReadonlySet<string>;
  names: ReadonlySet<string>;
}

/**
 * A rule's verdicts on one zone taken over from an earlier audit: its findings as the rule gave
 * them (before waivers), in order, and its passes. Reading the findings may throw (they do not
 * match what the earlier audit counted): the rule then runs.
 */
export interface ReplayedVerdicts {
  findings: Iterable<Finding>;
  passes: number;
}

/** Taken-over verdicts could not be read as the earlier audit counted them: the rule runs instead. */
export class ReplayMismatch extends Error {}

export interface EvaluateOptions {
  /** Overrides the scan's time (tests only). */
  now?: Date;
  /**
   * Whether passing verdicts are returned as findings (default true). A large organisation has
   * hundreds of thousands; when only failures are shown, they are counted instead of kept.
   */
  keepPasses?: boolean;
  /**
   * Receives the findings instead of the returned list, so that an audit of a large organisation
   * never holds them all; the returned list is then empty.
   */
  sink?: FindingSink;
  /**
   * Given the scan's zones, the verdicts kept from an earlier audit (verdict reuse): those rules
   * are not run on those zones, and a zone with nothing left to run is not read at all.
   */
  reuse?: (zones: readonly ZoneRow[]) => KeptVerdicts | null;
}

/**
 * Where findings go as the rules give them. A rule's verdicts on one zone (or, for an
 * organisation rule, on the organisation) are one unit: they stand once the rule returns
 * (`commit`) and are all forgotten when it throws (`rollback`), so a rule that fails half-way
 * leaves no half of its verdicts behind. Units come zone by zone, in the order of the zones'
 * names, and within a zone in catalogue order of the rules, but that a zone judged in part gives
 * its taken-over verdicts after those of the rules run.
 */
export interface FindingSink {
  add(finding: Finding): void;
  commit(): void;
  rollback(): void;
  /** Passing verdicts of the unit that just stood, on one zone (told after commit; passes may not be added). */
  passed?(rule: string, zoneId: string, n: number): void;
  /** Passing verdicts of the unit that just stood on an account itself, not on a zone (organisation rules). */
  passedOnAccount?(rule: string, accountId: string, n: number): void;
  /**
   * Once a zone is judged: until when the verdicts of its rules that declare a horizon hold on the
   * same data (ms since the epoch; absent when every such rule said "at any time").
   */
  holds?(zoneId: string, until: number): void;
  /** Once a zone is judged: the other zones and the names its verdicts depend on (ZoneContext.dependsOnZones). */
  dependsOn?(zoneId: string, zoneIds: readonly string[], names: readonly string[]): void;
  /** Once a zone rule stood on a zone: the endpoints of the zone it read (see ZoneView.readsOf). */
  read?(zoneId: string, rule: string, endpoints: ReadonlySet<string>): void;
}

/** A sink that holds every finding (each unit once it stands): the audit held in memory. */
class ListSink implements FindingSink {
  readonly findings: Finding[] = [];
  private unit: Finding[] = [];

  add(finding: Finding): void {
    this.unit.push(finding);
  }

  commit(): void {
    for (const f of this.unit) this.findings.push(f);
    this.unit = [];
  }

  rollback(): void {
    this.unit = [];
  }
}

const named = (id: string | null, name: string | null): Named | null => (id === null ? null : { id, name });

/** Verdicts.passes keys verdicts on an account (no zone) by this and the account id; zone ids never start with it. */
const ON_ACCOUNT = '\u0000';

/** The verdicts of one rule on one zone (or the organisation), on their way to the sink. */
class Verdicts {
  /** Verdicts the rule gave, kept or not (a zone's setting may turn some off). */
  given = 0;
  /** Passing verdicts kept, by zone id (ON_ACCOUNT and the account's id for an account's own, '' for neither): counted, and turned into findings only when asked for. */
  readonly passes = new Map<string, number>();
  private lastZone: Named | null | undefined;
  private lastSetting = { enabled: true, severity: null as Severity | null };

  constructor(
    private readonly active: ActiveRule,
    private readonly where: (resource: ResourceRef) => { account: Named | null; zone: Named | null },
    private readonly sink: FindingSink,
    private readonly keepPasses: boolean,
    private readonly heap: HeapCeiling,
  ) {}

  /** The rule's setting for a zone (its overrides); a zone rule asks about one zone, so the last answer is kept. */
  setting(zone: Named | null, account: Named | null): { enabled: boolean; severity: Severity | null } {
    if (zone !== this.lastZone || zone === null) {
      this.lastZone = zone;
      this.lastSetting = settingFor({ enabled: this.active.enabled, severity: this.active.severity }, this.active.overrides, zone, account) as { enabled: boolean; severity: Severity | null };
    }
    return this.lastSetting;
  }

  private add(resource: ResourceRef, status: Finding['status'], message: string, messageId: string | null, data: Record<string, unknown>, severity: Severity): void {
    const meta = this.active.rule.meta;
    if (!resource || typeof resource.id !== 'string' || typeof resource.type !== 'string') throw new Error('a finding needs a resource with a type and an id');
    const { account, zone } = this.where(resource);
    // Per-zone settings: a finding of a zone where the rule is off is not kept; re-grading wins.
    if (++this.given % 1000 === 0) this.heap.check();
    const setting = this.setting(zone, account);
    if (!setting.enabled) return;
    if (status === 'pass') {
      const key = zone?.id ?? (account ? ON_ACCOUNT + account.id : '');
      this.passes.set(key, (this.passes.get(key) ?? 0) + 1);
      if (!this.keepPasses) return;
    }
    this.sink.add({
      rule: meta.id,
      category: meta.category,
      severity: setting.severity ?? severity,
      status,
      account,
      zone,
      resource: { type: resource.type, id: resource.id, name: resource.name ?? null },
      message,
      messageId,
      data,
      fingerprint: fingerprint(meta.id, zone?.id ?? null, resource),
    });
  }

  /** A pass says the rule's title, or the note it carries. */
  pass(resource: ResourceRef, noteId?: string, data: Record<string, unknown> = {}): void {
    const message = noteId === undefined ? this.active.rule.meta.title : this.message(noteId, data);
    this.add(resource, 'pass', message, noteId ?? null, data, this.active.rule.meta.severity);
  }

  fail(resource: ResourceRef, messageId: string, data: Record<string, unknown>, severity?: Severity): void {
    this.add(resource, 'fail', this.message(messageId, data), messageId, data, severity ?? this.active.rule.meta.severity);
  }

  private message(messageId: string, data: Record<string, unknown>): string {
    const template = this.active.rule.meta.messages[messageId];
    if (template === undefined) throw new Error(`no message "${messageId}" in meta.messages`);
    return renderMessage(template, data);
  }

  unknown(resource: ResourceRef, reason: string): void {
    this.add(resource, 'unknown', `not judged: ${reason}`, null, { reason }, this.active.rule.meta.severity);
  }
}

export function evaluate(reader: SnapshotReader, rules: readonly ActiveRule[], options: EvaluateOptions = {}): Evaluation {
  const scan = reader.scan;
  const now = options.now ?? new Date(scan.startedAt);
  const snapshot = new SnapshotView(reader);
  // A rule off by default still runs where an override turns it on.
  const enabled = rules.filter((r) => r.enabled || r.overrides.some((o) => o.enabled === true));
  // Checked every zone and every 1,000 verdicts (the check costs a microsecond): one zone of 400,000
  // records leaves 100 MB of garbage, and a rule may give a verdict on each of them.
  const heap = new HeapCeiling(96, 1);
  const list = options.sink ? null : new ListSink();
  const sink: FindingSink = options.sink ?? list!;
  const passes: Record<string, number> = Object.fromEntries(enabled.map((r) => [r.rule.meta.id, 0]));
  const passesByZone: Record<string, number> = {};
  const keepPasses = options.keepPasses ?? true;
  const errors: RuleRunError[] = [];
  // In the order findings are listed (compareFindings): a sink can then keep each rule's findings in order as they come.
  const zones = [...snapshot.zones()].sort((a, b) => byText(a.name, b.name) || byText(a.id, b.id));

  const accountOf = (zone: ZoneRow): Named | null => {
    const account = snapshot.account(zone.accountId);
    return account ? { id: account.id, name: account.name } : named(zone.accountId, null);
  };

  /** The unit stood: its passes are counted and told to the sink. */
  const passed = (id: string, unitPasses: ReadonlyMap<string, number>): void => {
    for (const [zoneId, n] of unitPasses) {
      passes[id] = (passes[id] ?? 0) + n;
      if (zoneId.startsWith(ON_ACCOUNT)) sink.passedOnAccount?.(id, zoneId.slice(ON_ACCOUNT.length), n);
      else if (zoneId !== '') {
        passesByZone[zoneId] = (passesByZone[zoneId] ?? 0) + n;
        sink.passed?.(id, zoneId, n);
      }
    }
  };

  /**
   * Runs a rule as one unit; false when it threw (its verdicts are discarded and the error kept).
   * Its passes are told when its verdicts go to the sink itself, not when they are held.
   */
  const run = (active: ActiveRule, verdicts: Verdicts, ctx: object, zone: Named | null, target: FindingSink = sink): boolean => {
    const started = performance.now();
    let stood = true;
    try {
      active.rule.check(ctx as ZoneContext<RuleOptions>);
      if (verdicts.given === 0) throw new Error('the rule gave no verdict');
      target.commit();
      if (target === sink) passed(active.rule.meta.id, verdicts.passes);
    } catch (err) {
      target.rollback();
      errors.push({ rule: active.rule.meta.id, zone, message: err instanceof Error ? err.message : String(err) });
      stood = false;
    }
    // A rule that ran long on a huge zone (its records read, its maps built and dropped) leaves
    // garbage of 100 MB or more that the next rule would pile on: check now rather than at the next zone.
    if (performance.now() - started > 20) heap.check();
    return stood;
  };

  /**
   * A rule's verdicts on a zone taken over rather than run (KeptVerdicts.replay): one unit, as if
   * the rule had given them. False, and nothing kept, when they could not be read whole.
   */
  const replayed = (id: string, zone: Named, verdicts: ReplayedVerdicts): boolean => {
    try {
      let n = 0;
      for (const f of verdicts.findings) {
        sink.add(f);
        if (++n % 1000 === 0) heap.check();
      }
      sink.commit();
    } catch (err) {
      sink.rollback();
      if (err instanceof ReplayMismatch) return false;
      throw err;
    }
    passed(id, new Map(verdicts.passes > 0 ? [[zone.id, verdicts.passes]] : []));
    return true;
  };

  /** A held unit goes to the sink as if its rule had just run. */
  const emit = (zoneId: string, u: HeldUnit): void => {
    for (const f of u.findings) sink.add(f);
    sink.commit();
    passed(u.rule, u.passes);
    sink.read?.(zoneId, u.rule, u.reads);
  };

  // The earliest time a verdict of the zone being judged stops holding (see RuleMeta.declaresHorizon).
  let horizon = Number.POSITIVE_INFINITY;
  let declared: number | undefined;
  const otherZones = new Set<string>();
  const names = new Set<string>();
  const contextFor = (active: ActiveRule, verdicts: Verdicts, fallback: ResourceRef | null, zone?: ZoneView) => ({
    holdsUntil: (until: Date | null) => {
      // An invalid date holds for this audit only.
      const t = until === null ? Number.POSITIVE_INFINITY : Number.isNaN(until.getTime()) ? now.getTime() : until.getTime();
      declared = declared === undefined ? t : Math.min(declared, t);
    },
    dependsOnZones: (ids: Iterable<string>, held: Iterable<string> = []) => {
      for (const id of ids) otherZones.add(id);
      for (const n of held) names.add(n);
    },
    options: active.options,
    now,
    scan,
    snapshot,
    ...(zone ? { zone, runs: (ruleId: string) => runsOn(ruleId, zone) } : {}),
    pass: (resource?: ResourceRef, noteId?: string, data?: Record<string, unknown>) => {
      const target = resource ?? fallback;
      if (!target) throw new Error('pass() needs a resource in an organisation rule');
      verdicts.pass(target, noteId, data);
    },
    fail: (resource: ResourceRef, messageId: string, data: Record<string, unknown> = {}, severity?: Severity) => verdicts.fail(resource, messageId, data, severity),
    unknown: (resource: ResourceRef, reason: string) => verdicts.unknown(resource, reason),
  });

  // Whether a rule judges a zone, for a rule that leaves a problem to it (ZoneContext.runs).
  const activeById = new Map(rules.map((r) => [r.rule.meta.id, r]));
  const runsOn = (ruleId: string, zone: ZoneView): boolean => {
    const other = activeById.get(ruleId);
    return other !== undefined && settingFor({ enabled: other.enabled, severity: other.severity }, other.overrides, { id: zone.id, name: zone.name }, zone.account).enabled;
  };

  const zoneRules = enabled.filter((r) => r.rule.meta.scope === 'zone');
  const kept = options.reuse?.(zones) ?? null;
  const rulesFor = (zoneId: string): ActiveRule[] => (kept?.zones.has(zoneId) ? zoneRules.filter((r) => !kept.rules.has(r.rule.meta.id)) : zoneRules);
  const judged = kept ? zones.filter((z) => rulesFor(z.id).length > 0) : zones;
  // The zones' lists are read a run of zones at a time, in this order. A zone rule whose verdicts
  // are never kept runs on every zone judged, and what it reads is not known ahead: then every
  // zone is expected to read anything.
  const everyZone = kept !== null && zoneRules.some((r) => !kept.rules.has(r.rule.meta.id));
  reader.readAhead(
    judged.map((z) => z.id),
    everyZone ? undefined : kept?.expects,
  );
  let view: ZoneView | null = null;
  reader.observeZoneReads((zoneId, endpoint) => view?.noteRead(zoneId, endpoint));
  try {
    for (const zoneRow of judged) {
      heap.check();
      const account = accountOf(zoneRow);
      const zoneView = (view = new ZoneView(reader, zoneRow, account));
      const zone = { id: zoneRow.id, name: zoneRow.name };
      const where = () => ({ account, zone });
      horizon = Number.POSITIVE_INFINITY;
      otherZones.clear();
      names.clear();
      const replays = kept?.partial?.get(zoneRow.id);
      // A zone judged in part: the rules run are held, for the audit to see whether they changed anything.
      const heldUnits: HeldUnit[] = [];
      const hold = replays && kept?.confirm ? new HoldingSink(sink, () => heldUnits.splice(0).forEach((u) => emit(zoneRow.id, u))) : null;
      const takenOver: ActiveRule[] = [];
      let threw = false;
      const judge = (active: ActiveRule, verdicts: Verdicts): void => {
        const id = active.rule.meta.id;
        declared = undefined;
        let stood = false;
        const target = hold ?? sink;
        const reads = zoneView.readsOf(() => {
          stood = run(active, verdicts, contextFor(active, verdicts, zoneView.resource, zoneView), zone, target);
        });
        if (!stood) threw = true;
        else if (hold && !hold.letGo) heldUnits.push({ rule: id, findings: hold.take(), passes: new Map(verdicts.passes), reads });
        else {
          if (target !== sink) passed(id, verdicts.passes);
          sink.read?.(zoneRow.id, id, reads);
        }
        // A verdict given no horizon holds for this audit's time only.
        if (active.rule.meta.declaresHorizon === true) horizon = Math.min(horizon, declared ?? now.getTime());
      };
      for (const active of rulesFor(zoneRow.id)) {
        const id = active.rule.meta.id;
        const verdicts = new Verdicts(active, where, hold ?? sink, keepPasses, heap);
        // The setting is worked out once a rule and zone: the verdicts keep it for the findings.
        if (!verdicts.setting(zone, account).enabled) continue;
        if (replays?.has(id)) {
          // While the zone is held, its verdicts are taken over only once it turns out changed.
          if (hold) {
            takenOver.push(active);
            continue;
          }
          const earlier = kept!.replay?.(zoneRow.id, id);
          if (earlier && replayed(id, zone, earlier)) continue;
        }
        judge(active, verdicts);
      }
      if (hold && !hold.letGo) {
        const ran = heldUnits.filter((u) => kept!.rules.has(u.rule));
        const dependsOn = new Set([...otherZones].filter((z) => z !== zoneRow.id));
        const taken = takenOver.map((r) => r.rule.meta.id);
        if (!threw && kept!.confirm!(zoneRow.id, ran, { horizon, zones: dependsOn, names }, taken)) {
          // Unchanged after all: kept as the earlier audit stored it, with what it held on then.
          // The rules that are never kept (not tallied) give their verdicts as on any kept zone.
          for (const u of heldUnits) if (!kept!.rules.has(u.rule)) emit(zoneRow.id, u);
          continue;
        }
        hold.release();
      }
      for (const active of takenOver) {
        const id = active.rule.meta.id;
        const earlier = kept!.replay?.(zoneRow.id, id);
        if (earlier && replayed(id, zone, earlier)) continue;
        judge(active, new Verdicts(active, where, sink, keepPasses, heap));
      }
      if (horizon !== Number.POSITIVE_INFINITY) sink.holds?.(zoneRow.id, horizon);
      otherZones.delete(zoneRow.id);
      if (otherZones.size > 0 || names.size > 0) sink.dependsOn?.(zoneRow.id, [...otherZones].sort(), [...names].sort());
    }
  } finally {
    reader.readAhead(null);
    reader.observeZoneReads(null);
    view = null;
  }

  // Organisation rules: a finding about a zone or an account is filed under it.
  const zonesById = new Map(zones.map((z) => [z.id, z]));
  const whereInOrganisation = (resource: ResourceRef) => {
    if (resource.type === 'zone') {
      const z = zonesById.get(resource.id);
      return { account: z ? accountOf(z) : null, zone: { id: resource.id, name: z?.name ?? resource.name } };
    }
    if (resource.type === 'account') {
      const a = snapshot.account(resource.id);
      return { account: { id: resource.id, name: a?.name ?? resource.name }, zone: null };
    }
    return { account: null, zone: null };
  };
  for (const active of enabled.filter((r) => r.rule.meta.scope === 'organisation')) {
    const verdicts = new Verdicts(active, whereInOrganisation, sink, keepPasses, heap);
    run(active, verdicts, contextFor(active, verdicts, null), null);
  }

  const findings = list ? list.findings.sort(compareFindings) : [];
  return { scan, now, rules: enabled, findings, passes, passesByZone, errors, zones: zones.length, zoneIds: zones.map((z) => z.id), kept };
}
