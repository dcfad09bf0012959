import { DECLARABLE_READS, isDeclaredRead, declaredReadsOf, type DeclaredReads } from '../api/endpoints.js';
import { ZonewardenError } from '../common/errors.js';
import { didYouMean } from '../common/did-you-mean.js';
import { controlProblems } from './compliance.js';
import { placeholders } from './findings.js';
import { parseOverrides, type ZoneOverride } from './zone-overrides.js';
import { CATEGORIES, optionSources, SEVERITIES, sourceName, type AnyRule, type OptionValue, type RuleOptions, type Severity } from './rule.js';

/** The catalogue: rules validated when loaded, and the config file's rule settings over their defaults. */

export class RuleDefinitionError extends ZonewardenError {
  constructor(message: string) {
    super('ZW_RULE_INVALID', message);
  }
}

/** A bad `rules` entry in the config file. */
export class RuleConfigError extends ZonewardenError {
  constructor(message: string) {
    super('ZW_RULE_CONFIG', message);
  }
}

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** What is wrong with a rule's definition, one phrase each; empty when nothing is. */
export function ruleProblems(rule: AnyRule): string[] {
  const m = rule.meta;
  const problems: string[] = [];
  if (typeof m.id !== 'string' || !KEBAB.test(m.id)) problems.push('meta.id must be kebab-case');
  for (const key of ['title', 'description', 'remediation', 'resource'] as const) {
    if (typeof m[key] !== 'string' || m[key].trim() === '') problems.push(`meta.${key} must be a non-empty string`);
  }
  if (!SEVERITIES.includes(m.severity)) problems.push(`meta.severity must be one of ${SEVERITIES.join(', ')}`);
  if (!CATEGORIES.includes(m.category)) problems.push(`meta.category must be one of ${CATEGORIES.join(', ')}`);
  if (m.scope !== 'zone' && m.scope !== 'organisation') problems.push('meta.scope must be zone or organisation');
  const messages = Object.entries(m.messages ?? {});
  if (messages.length === 0) problems.push('meta.messages must hold at least one message');
  for (const [id, template] of messages) {
    if (typeof template !== 'string' || template.trim() === '') problems.push(`meta.messages.${id} must be a non-empty string`);
    else placeholders(template);
  }
  if (!Array.isArray(m.references) || m.references.some((r) => typeof r !== 'string' || r === '')) problems.push('meta.references must be a list of strings');
  if (rule.defaultOptions === null || typeof rule.defaultOptions !== 'object' || Array.isArray(rule.defaultOptions)) problems.push('defaultOptions must be an object ({} for none)');
  for (const key of Object.keys(rule.defaultOptions ?? {})) {
    if (!m.optionHelp?.[key]) problems.push(`option "${key}" needs a line in meta.optionHelp`);
  }
  for (const key of Object.keys(m.optionHelp ?? {})) {
    if (!Object.hasOwn(rule.defaultOptions ?? {}, key)) problems.push(`meta.optionHelp documents "${key}", which is not an option`);
  }
  for (const [key, choices] of Object.entries(m.optionChoices ?? {})) {
    const def = (rule.defaultOptions as RuleOptions | undefined)?.[key];
    if ((!Array.isArray(def) && typeof def !== 'string') || !Array.isArray(choices)) problems.push(`meta.optionChoices.${key} must name a list option (or a text option) and list its allowed values`);
    else if (typeof def === 'string' && !choices.includes(def)) problems.push(`meta.optionChoices.${key} must include the option's default "${def}"`);
  }
  if (m.optionsFrom !== undefined) {
    const sources = optionSources(m);
    const taken = sources.flatMap((from) => (Array.isArray(from?.options) ? from.options : []));
    const malformed = sources.length === 0 || sources.some((from) => typeof from?.rule !== 'string' || !Array.isArray(from.options) || from.options.some((o) => typeof o !== 'string' || !Object.hasOwn(rule.defaultOptions ?? {}, o)));
    // An option follows one rule only: two sources of one value could disagree.
    if (malformed || new Set(taken).size !== taken.length) problems.push('meta.optionsFrom must name a rule and options this rule has (or a list of them, each option from one rule)');
  }
  if (m.reads !== undefined && (!Array.isArray(m.reads) || !m.reads.every(isDeclaredRead))) {
    problems.push(`meta.reads must list zone reads such as setting:ssl (any known setting id), ${DECLARABLE_READS.slice(0, -1).join(', ')} or ${DECLARABLE_READS.at(-1)}`);
  }
  problems.push(...controlProblems(m.controls));
  if (typeof rule.check !== 'function') problems.push('check must be a function');
  return problems;
}

/** Validates every rule and returns them by id, in catalogue order. */
export function loadCatalogue(rules: readonly AnyRule[]): ReadonlyMap<string, AnyRule> {
  const byId = new Map<string, AnyRule>();
  for (const rule of rules) {
    const problems = ruleProblems(rule);
    const id = typeof rule?.meta?.id === 'string' ? rule.meta.id : '(no id)';
    if (problems.length) throw new RuleDefinitionError(`rule ${id} is malformed: ${problems.join('; ')}`);
    if (byId.has(id)) throw new RuleDefinitionError(`rule ${id} is listed twice in rules/index.ts`);
    byId.set(id, rule);
  }
  return byId;
}

/** One rule's settings in the config file's `rules` object. */
export interface RuleSettings {
  enabled?: boolean;
  severity?: Severity;
  options?: Record<string, unknown>;
  /** Settings for some zones or accounts only (zone-overrides.ts). */
  overrides?: unknown;
}

/** A rule as it will run: its settings applied. */
export interface ActiveRule {
  rule: AnyRule;
  enabled: boolean;
  /** Set when the config overrides the severity of every finding of the rule. */
  severity: Severity | null;
  options: RuleOptions;
  /** Enabled or re-graded for some zones only, later ones winning. */
  overrides: readonly ZoneOverride[];
}

function sameShape(def: OptionValue, value: unknown): boolean {
  if (Array.isArray(def)) return Array.isArray(value) && value.every((v) => typeof v === 'string');
  if (typeof def === 'object') {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
    return Object.entries(value).every(([k, v]) => Object.hasOwn(def, k) && typeof v === 'number' && Number.isFinite(v) && v >= 0);
  }
  if (typeof def === 'number') return typeof value === 'number' && Number.isFinite(value) && value >= 0;
  return typeof value === typeof def;
}

function describeShape(def: OptionValue): string {
  if (Array.isArray(def)) return 'a list of strings';
  if (typeof def === 'object') return `an object of non-negative numbers with keys from ${Object.keys(def).join(', ')}`;
  if (typeof def === 'number') return 'a non-negative number';
  return `a ${typeof def}`;
}

const RULE_SETTINGS = ['enabled', 'severity', 'options', 'overrides'];

/** Applies the config file's rule settings, checking every id, setting and option so a typo is an error, not ignored. */
export function activeRules(catalogue: ReadonlyMap<string, AnyRule>, settings: Readonly<Record<string, RuleSettings>> = {}, source = 'config file'): ActiveRule[] {
  for (const id of Object.keys(settings)) {
    if (!catalogue.has(id)) throw new RuleConfigError(`${source}: rules.${id}: no such rule; zonewarden rules lists them${didYouMean(id, catalogue.keys())}`);
  }
  const active = [...catalogue.values()].map((rule) => {
    const s = settings[rule.meta.id] ?? {};
    const where = `${source}: rules.${rule.meta.id}`;
    for (const key of Object.keys(s)) {
      if (!RULE_SETTINGS.includes(key)) throw new RuleConfigError(`${where}: unknown setting "${key}"; use enabled, severity, options or overrides${didYouMean(key, RULE_SETTINGS)}`);
    }
    if (s.enabled !== undefined && typeof s.enabled !== 'boolean') throw new RuleConfigError(`${where}.enabled: expected true or false`);
    if (s.severity !== undefined && !SEVERITIES.includes(s.severity)) throw new RuleConfigError(`${where}.severity: expected one of ${SEVERITIES.join(', ')}`);
    const options: Record<string, OptionValue> = { ...(rule.defaultOptions as RuleOptions) };
    if (s.options !== undefined && (s.options === null || typeof s.options !== 'object' || Array.isArray(s.options))) {
      throw new RuleConfigError(`${where}.options: expected an object`);
    }
    for (const [key, value] of Object.entries(s.options ?? {})) {
      const def = (rule.defaultOptions as RuleOptions)[key];
      const from = optionSources(rule.meta).find((f) => f.options.includes(key));
      // Set on the rule it is taken from, when the catalogue has it (a rule tested alone takes it here).
      if (from && catalogue.has(from.rule)) throw new RuleConfigError(`${where}.options.${key}: set it on rules.${from.rule}${sourceName(from, key) === key ? '' : ` (as ${sourceName(from, key)})`}, which this rule follows (the two must agree)`);
      if (def === undefined) {
        const known = Object.keys(rule.defaultOptions);
        throw new RuleConfigError(`${where}.options: unknown option "${key}"; ${known.length ? `options: ${known.join(', ')}` : 'this rule has no options'}${didYouMean(key, known)}`);
      }
      if (!sameShape(def, value)) throw new RuleConfigError(`${where}.options.${key}: expected ${describeShape(def)}`);
      const choices = rule.meta.optionChoices?.[key];
      // A list option's entries, or a text option's value, come from the choices.
      const wrong = choices ? (typeof value === 'string' ? [value] : (value as string[])).find((v) => !choices.includes(v)) : undefined;
      if (wrong !== undefined) throw new RuleConfigError(`${where}.options.${key}: "${wrong}" is not one of ${choices!.join(', ')}`);
      // Objects (such as quotas by plan) merge over the default, so one key can be changed alone.
      options[key] = typeof def === 'object' && !Array.isArray(def) ? { ...(def as Record<string, number>), ...(value as Record<string, number>) } : (value as OptionValue);
    }
    const overrides = parseOverrides(s.overrides, `${where}.overrides`, (message) => {
      throw new RuleConfigError(message);
    });
    return { rule, enabled: s.enabled ?? true, severity: s.severity ?? null, options, overrides };
  });
  // Options taken from another rule (meta.optionsFrom) as that rule runs with them, enabled or not.
  const byId = new Map(active.map((a) => [a.rule.meta.id, a]));
  for (const a of active) {
    for (const from of optionSources(a.rule.meta)) {
      const source = byId.get(from.rule);
      if (!source) continue;
      for (const key of from.options) if (Object.hasOwn(source.options, sourceName(from, key))) (a.options as Record<string, OptionValue>)[key] = source.options[sourceName(from, key)]!;
    }
  }
  return active.map((a) => ({ ...a, options: Object.freeze(a.options) }));
}

/** Whether the rule runs on some zone: on by default, or where an override turns it on. */
export const runsAnywhere = (a: ActiveRule): boolean => a.enabled || a.overrides.some((o) => o.enabled === true);

/** What these rules need read beyond the lists: those enabled, for all zones or for some. */
export function readsOfRules(rules: readonly ActiveRule[]): DeclaredReads {
  return declaredReadsOf(rules.filter(runsAnywhere).map((a) => a.rule.meta.reads));
}
