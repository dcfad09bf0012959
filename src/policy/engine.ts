import { HeapCeiling } from '../common/heap.js';
import type { SnapshotReader, ScanRow, ZoneRow } from '../snapshot/reader.js';
import { byText, compareFindings, fingerprint, renderMessage, type Finding, type Named } from './findings.js';
import { runsAnywhere, type ActiveRule } from './registry.js';
import type { ResourceRef, RuleOptions, Severity, ZoneContext } from './rule.js';
import { SnapshotView } from './snapshot-view.js';
import { ZoneView } from './zone-view.js';
import { settingFor } from './zone-overrides.js';

/** Runs the rules over one scan zone by zone; a rule that throws is an error, its partial verdicts discarded. */

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
}

export interface EvaluateOptions {
  /** Overrides the scan's time (tests only). */
  now?: Date;
  /** Whether passing verdicts are returned as findings (default true); otherwise they are only counted. */
  keepPasses?: boolean;
  /** Receives the findings instead of the returned list (then empty), so a large audit never holds them all. */
  sink?: FindingSink;
}

/**
 * Where findings go. A rule's verdicts on one zone (or the organisation) are one unit: they stand
 * on `commit` and are forgotten on `rollback` (the rule threw). Units come in zone-name order,
 * within a zone in catalogue order.
 */
export interface FindingSink {
  add(finding: Finding): void;
  commit(): void;
  rollback(): void;
  /** Passing verdicts of the unit that just stood, on one zone (told after commit; passes may not be added). */
  passed?(rule: string, zoneId: string, n: number): void;
  /** Passing verdicts of the unit that just stood on an account itself, not on a zone (organisation rules). */
  passedOnAccount?(rule: string, accountId: string, n: number): void;
}

/** A sink that holds every finding (each unit once it stands): the audit kept in memory. */
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

/** What rules written for verdict reuse (before issue 51) called: no-ops, so such custom rules still run. */
const DEPRECATED_NO_OPS = Object.freeze({ holdsUntil: () => {}, dependsOnZones: () => {} });

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
  const enabled = rules.filter(runsAnywhere);
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

  /** Runs a rule as one unit: when it throws, its verdicts are discarded and the error kept. */
  const run = (active: ActiveRule, verdicts: Verdicts, ctx: object, zone: Named | null): void => {
    const started = performance.now();
    try {
      active.rule.check(ctx as ZoneContext<RuleOptions>);
      if (verdicts.given === 0) throw new Error('the rule gave no verdict');
      sink.commit();
      passed(active.rule.meta.id, verdicts.passes);
    } catch (err) {
      sink.rollback();
      errors.push({ rule: active.rule.meta.id, zone, message: err instanceof Error ? err.message : String(err) });
    }
    // A rule that ran long on a huge zone (its records read, its maps built and dropped) leaves
    // garbage of 100 MB or more that the next rule would pile on: check now rather than at the next zone.
    if (performance.now() - started > 20) heap.check();
  };

  const contextFor = (active: ActiveRule, verdicts: Verdicts, fallback: ResourceRef | null, zone?: ZoneView) => ({
    ...DEPRECATED_NO_OPS,
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
  const pageShieldOf = (zoneId: string) => snapshot.pageShieldOf(zoneId);
  // The zones' lists are read a run of zones at a time, in this order.
  reader.readAhead(zones.map((z) => z.id));
  try {
    for (const zoneRow of zones) {
      heap.check();
      const account = accountOf(zoneRow);
      const zoneView = new ZoneView(reader, zoneRow, account, pageShieldOf);
      const zone = { id: zoneRow.id, name: zoneRow.name };
      const where = () => ({ account, zone });
      for (const active of zoneRules) {
        const verdicts = new Verdicts(active, where, sink, keepPasses, heap);
        // The setting is worked out once a rule and zone: the verdicts keep it for the findings.
        if (!verdicts.setting(zone, account).enabled) continue;
        run(active, verdicts, contextFor(active, verdicts, zoneView.resource, zoneView), zone);
      }
    }
  } finally {
    reader.readAhead(null);
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
  return { scan, now, rules: enabled, findings, passes, passesByZone, errors, zones: zones.length, zoneIds: zones.map((z) => z.id) };
}
