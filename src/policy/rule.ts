import type { DeclaredRead } from '../api/endpoints.js';
import type { ScanRow } from '../snapshot/reader.js';
import type { Control } from './compliance.js';
import type { ResourceRef } from './resource-ref.js';
import type { SnapshotView } from './snapshot-view.js';
import type { ZoneView } from './zone-view.js';

/**
 * The rule contract (design.md, "A rule"): metadata plus one synchronous, pure `check` that sees
 * the scan through read-only views and `ctx.now`, never the API or the wall clock.
 */

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const CATEGORIES = ['migration', 'tls', 'firewall', 'dns', 'zone', 'scan', 'account'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Zone rules run once per zone of the scan; organisation rules once per scan. */
export type RuleScope = 'zone' | 'organisation';

// Rules and their authors have always found ResourceRef here, with the rest of the contract.
export type { ResourceRef };

export type OptionValue = number | string | boolean | readonly string[] | Readonly<Record<string, number>>;
export type RuleOptions = Readonly<Record<string, OptionValue>>;

export interface RuleMeta<S extends RuleScope = RuleScope> {
  /** Kebab-case, and the rule's file name. */
  id: string;
  /** The compliant state, e.g. "Certificates are renewed before they expire". */
  title: string;
  /** Why it matters. */
  description: string;
  severity: Severity;
  category: Category;
  scope: S;
  /** The kind of resource its failures point at, e.g. `certificate`. */
  resource: string;
  /** Message templates by id; `{{name}}` is replaced with `data.name`. */
  messages: Readonly<Record<string, string>>;
  remediation: string;
  references: readonly string[];
  /** The compliance controls a custom rule gives evidence for (built-in rules: src/policy/compliance.ts). */
  controls?: readonly Control[];
  /** What each option means, by option name (every default option is documented). */
  optionHelp?: Readonly<Record<string, string>>;
  /**
   * Options copied from the rule this one leaves a problem to (one problem, one finding), so both
   * judge with the same values; set on that rule only (here only when the catalogue lacks it).
   */
  optionsFrom?: OptionsSource | readonly OptionsSource[];
  /** For list options whose entries, or text options whose value, come from a fixed set: the values allowed, checked when the config file sets the option. */
  optionChoices?: Readonly<Record<string, readonly string[]>>;
  /**
   * What the rule needs read beyond the lists every scan reads: zone settings (`setting:ssl`),
   * single objects (`dnssec`...), `dns_targets`, account reads (`account_members`...). A scan reads
   * the union over the enabled rules, and nothing no enabled rule declares.
   */
  reads?: readonly DeclaredRead[];
}

interface BaseContext<O extends RuleOptions> {
  readonly options: O;
  /** The scan's start: what "now" means for this scan. */
  readonly now: Date;
  readonly scan: ScanRow;
  readonly snapshot: SnapshotView;
  /** The resource is compliant; `noteId` (a message of meta.messages) adds a note that fails nothing. */
  pass(resource?: ResourceRef, noteId?: string, data?: Record<string, unknown>): void;
  /** The resource is not; `data` fills the message's placeholders and is kept with the finding. */
  fail(resource: ResourceRef, messageId: string, data?: Record<string, unknown>, severity?: Severity): void;
  /** The data needed to judge the resource was not read. */
  unknown(resource: ResourceRef, reason: string): void;
}

export interface ZoneContext<O extends RuleOptions> extends BaseContext<O> {
  readonly zone: ZoneView;
  /** Whether that rule judges this zone in this audit: a rule leaving a problem to it reports it itself otherwise. */
  runs(ruleId: string): boolean;
  /** @deprecated Does nothing: every audit now judges every zone (verdict reuse is gone). */
  holdsUntil(until: Date | null): void;
  /** @deprecated Does nothing: every audit now judges every zone (verdict reuse is gone). */
  dependsOnZones(zoneIds: Iterable<string>, names?: Iterable<string>): void;
}

/** A rule and the options another rule takes from it (meta.optionsFrom). */
export interface OptionsSource {
  rule: string;
  /** This rule's options, each a copy of that rule's option of the same name (or as `named` maps it). */
  options: readonly string[];
  /** Where that rule calls an option otherwise: this rule's name -> that rule's name. */
  named?: Readonly<Record<string, string>>;
}

/** The name the source rule gives one of the options this rule takes from it. */
export const sourceName = (from: OptionsSource, option: string): string => from.named?.[option] ?? option;

/** meta.optionsFrom as a list, whichever way the rule states it. */
export function optionSources(meta: Pick<RuleMeta<RuleScope>, 'optionsFrom'>): readonly OptionsSource[] {
  const from = meta.optionsFrom;
  return from === undefined ? [] : Array.isArray(from) ? (from as readonly OptionsSource[]) : [from as OptionsSource];
}

export type OrganisationContext<O extends RuleOptions> = BaseContext<O>;

export type ContextFor<S extends RuleScope, O extends RuleOptions> = S extends 'zone' ? ZoneContext<O> : OrganisationContext<O>;

export interface RuleDefinition<O extends RuleOptions = RuleOptions, S extends RuleScope = RuleScope> {
  meta: RuleMeta<S>;
  defaultOptions: O;
  check(ctx: ContextFor<S, O>): void;
}

/** A rule of any options and scope, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRule = RuleDefinition<any, RuleScope>;

export function defineRule<O extends RuleOptions, S extends RuleScope>(rule: RuleDefinition<O, S>): RuleDefinition<O, S> {
  return rule;
}

export function severityRank(severity: Severity): number {
  return SEVERITIES.length - SEVERITIES.indexOf(severity);
}

/** Whether `severity` is at or above `threshold`. */
export function atOrAbove(severity: Severity, threshold: Severity): boolean {
  return severityRank(severity) >= severityRank(threshold);
}
