import type { DeclaredRead } from '../api/endpoints.js';
import type { ScanRow } from '../snapshot/reader.js';
import type { Control } from './compliance.js';
import type { ResourceRef } from './resource-ref.js';
import type { SnapshotView } from './snapshot-view.js';
import type { ZoneView } from './zone-view.js';

/**
 * The rule contract (design.md, "A rule"): a rule is data about itself plus one synchronous, pure
 * `check`. It sees the scan only through typed read-only views, may use the scan's time
 * (`ctx.now`: every audit judges every zone, so a verdict on the time is always current), and
 * reports each verdict through its context. It never calls the API and never reads the wall clock.
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
  /**
   * The controls of compliance frameworks (PCI DSS 4.0, NIST SP 800-53 r5) the rule gives evidence
   * for. For a rule of your own; the built-in rules' controls are in one table
   * (src/policy/compliance.ts), where each mapping says why.
   */
  controls?: readonly Control[];
  /** What each option means, by option name (every default option is documented). */
  optionHelp?: Readonly<Record<string, string>>;
  /**
   * Options this rule takes from another: the rule that reports what this one leaves to it (one
   * problem, one finding). They are set on that rule only (here only when the catalogue lacks it,
   * as when this rule is tested alone) and copied here, so both judge with the
   * same values; e.g. which documentation addresses stand in for public ones (dns-private-address's
   * `documentation` and `standIns`), so that an address is either published or not public, never both.
   * A list when the rule leaves problems to several rules, each option taken from one of them.
   */
  optionsFrom?: OptionsSource | readonly OptionsSource[];
  /** For list options whose entries, or text options whose value, come from a fixed set: the values allowed, checked when the config file sets the option. */
  optionChoices?: Readonly<Record<string, readonly string[]>>;
  /**
   * What the rule needs read beyond the lists every scan reads: zone settings (`setting:ssl`),
   * single objects (`dnssec`, `universal_ssl`, `custom_entrypoint`, `ratelimit_entrypoint`,
   * `bot_management`, `origin_pulls`, `page_shield`, `security_txt`), and `dns_targets` (the names
   * CNAME, MX, NS and SRV records point at, resolved through DNS by the scan: no API call), and the
   * account reads `account_members` and `notification_policies` (read once per account of the
   * scan). A scan reads the union over the enabled rules, one call each per zone (a list's pages per
   * account for account reads), and nothing no enabled rule declares.
   */
  reads?: readonly DeclaredRead[];
}

interface BaseContext<O extends RuleOptions> {
  readonly options: O;
  /** The scan's start: what "now" means for this scan. */
  readonly now: Date;
  readonly scan: ScanRow;
  readonly snapshot: SnapshotView;
  /**
   * The resource is compliant. With `noteId` (a message of meta.messages, filled from `data`) the
   * pass carries a note: something worth knowing that fails nothing. It shows wherever passes are
   * listed (`--passes`: text, JSON, OCSF), and like every pass it is not counted among failures,
   * is never a new finding and never fails `--fail-on`.
   */
  pass(resource?: ResourceRef, noteId?: string, data?: Record<string, unknown>): void;
  /** The resource is not; `data` fills the message's placeholders and is kept with the finding. */
  fail(resource: ResourceRef, messageId: string, data?: Record<string, unknown>, severity?: Severity): void;
  /** The data needed to judge the resource was not read. */
  unknown(resource: ResourceRef, reason: string): void;
}

export interface ZoneContext<O extends RuleOptions> extends BaseContext<O> {
  readonly zone: ZoneView;
  /**
   * Whether that rule (by id) judges this zone in this audit: it is in the catalogue and enabled
   * for the zone. A rule that leaves a problem to another (one problem, one finding) reports it
   * itself where the other does not run, so the problem is never lost.
   */
  runs(ruleId: string): boolean;
  /**
   * @deprecated Does nothing. Rules written for verdict reuse said until when their verdicts held;
   * every audit now judges every zone, so a rule that still calls it runs as before.
   */
  holdsUntil(until: Date | null): void;
  /**
   * @deprecated Does nothing. Rules written for verdict reuse named the other zones their verdicts
   * depended on; every audit now judges every zone, so a rule that still calls it runs as before.
   */
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
