import { isBroadExpression, matchesEverything } from './broad-expression.js';
import type { Entrypoint, EntrypointRule } from './security-models.js';

/**
 * What a managed-phase entry point actually runs for one zone, judged the way the ruleset engine
 * runs it (vendor docs: "Deploy a managed ruleset", "Create an exception", "Override a managed
 * ruleset", "Account-level WAF configuration"):
 * - rules run in order; a skip rule (an exception) affects only the execute rules after it, and
 *   only in its own entry point (an account-level exception does not skip zone-level rules);
 * - `ruleset: "current"` skips every remaining rule of the entry point, `rulesets: [ids]` skips
 *   those managed rulesets, `rules: {id: [...]}` only the listed rules of a ruleset;
 * - a ruleset-level override (`overrides.enabled`, `overrides.action`) applies to every rule of the
 *   executed ruleset; tag (category) and rule overrides take precedence over it;
 * - account-level entry points run before the zone's, for the zones their expressions select.
 */

/** How much of a zone's traffic an expression selects, as far as its text tells. */
export type Coverage = 'all' | 'part' | 'none';

export interface ZoneIdentity {
  name: string;
  /** The plan's legacy id (free, pro, business, enterprise), or null. */
  plan: string | null;
}

export type Level = 'zone' | 'account';

/** What one execute rule of the ruleset does for the zone; `runs` protects every request. */
export type Outcome =
  | { kind: 'runs' }
  | { kind: 'narrow'; expression: string }
  /** Ruleset-level `action: log`; `acting`: category and rule overrides that set another action. */
  | { kind: 'logOnly'; acting: number }
  /** Ruleset-level `enabled: false`; `kept`: category and rule overrides that enable rules again. */
  | { kind: 'overriddenOff'; kept: number }
  | { kind: 'skipped'; skip: EntrypointRule; skipsWhat: string }
  | { kind: 'disabled' };

export interface Deployment {
  level: Level;
  rule: EntrypointRule;
  outcome: Outcome;
}

// From the most protection to none: what a zone gets from the best of its deployments.
const RANK: Record<Outcome['kind'], number> = { runs: 0, narrow: 1, logOnly: 2, overriddenOff: 3, skipped: 4, disabled: 5 };

/** A partial override (some rules still enabled or acting) protects more than a whole one. */
function rank(o: Outcome): number {
  if (o.kind === 'logOnly' && o.acting > 0) return RANK.narrow + 0.5;
  if (o.kind === 'overriddenOff' && o.kept > 0) return RANK.narrow + 0.5;
  return RANK[o.kind];
}

/** The deployment that protects the zone most; on a tie the earlier one (zone before account when listed so). */
export function best(deployments: readonly Deployment[]): Deployment | null {
  let found: Deployment | null = null;
  for (const d of deployments) if (!found || rank(d.outcome) < rank(found.outcome)) found = d;
  return found;
}

const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const list = (v: unknown): Array<Record<string, unknown>> => (Array.isArray(v) ? v.map(obj) : []);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/**
 * Every execute rule of `rulesetId` in the entry point that can apply to the zone, with what it
 * does there. Execute rules whose expression cannot select the zone (an account-level rule for
 * other zones) are left out.
 */
export function deploymentsOf(entrypoint: Entrypoint, rulesetId: string, zone: ZoneIdentity, level: Level): Deployment[] {
  let skipAll: EntrypointRule | null = null;
  const skippedRulesets = new Map<string, EntrypointRule>();
  const found: Deployment[] = [];
  for (const rule of entrypoint.rules) {
    if (rule.action === 'skip' && rule.enabled && skipsWholeZone(rule.expression, zone, level)) {
      if (rule.parameters['ruleset'] === 'current') skipAll ??= rule;
      for (const id of strings(rule.parameters['rulesets'])) if (!skippedRulesets.has(id)) skippedRulesets.set(id, rule);
      // `rules: {<ruleset>: [...]}` skips some rules of a ruleset, not the ruleset: an exception, not a switch-off.
      continue;
    }
    if (rule.action !== 'execute' || rule.parameters['id'] !== rulesetId) continue;
    const coverage = coverageOf(rule.expression, zone, level);
    if (coverage === 'none') continue;
    found.push({ level, rule, outcome: outcomeOf(rule, coverage, skipAll ? [skipAll, 'every later rule of the entry point'] : skippedRulesets.has(rulesetId) ? [skippedRulesets.get(rulesetId)!, 'the ruleset'] : null) });
  }
  return found;
}

function outcomeOf(rule: EntrypointRule, coverage: Coverage, skippedBy: [EntrypointRule, string] | null): Outcome {
  if (!rule.enabled) return { kind: 'disabled' };
  if (skippedBy) return { kind: 'skipped', skip: skippedBy[0], skipsWhat: skippedBy[1] };
  const overrides = obj(rule.parameters['overrides']);
  const specific = [...list(overrides['categories']), ...list(overrides['rules'])];
  if (overrides['enabled'] === false) return { kind: 'overriddenOff', kept: specific.filter((o) => o['enabled'] === true).length };
  if (overrides['action'] === 'log') {
    return { kind: 'logOnly', acting: specific.filter((o) => o['enabled'] !== false && typeof o['action'] === 'string' && o['action'] !== 'log').length };
  }
  if (coverage === 'part') return { kind: 'narrow', expression: rule.expression ?? '' };
  return { kind: 'runs' };
}

/**
 * A skip rule that exempts every request of the zone, or of a whole host of it (the same reading
 * as custom-rules-broad-skip). At the account level a host-only expression counts only when it
 * can select this zone's traffic.
 */
function skipsWholeZone(expression: string | null, zone: ZoneIdentity, level: Level): boolean {
  if (matchesEverything(expression)) return true;
  const coverage = coverageOf(expression, zone, level);
  return coverage === 'all' || (coverage !== 'none' && isBroadExpression(expression));
}

/** Shortened for a message. */
export function shorten(expression: string | null, max = 120): string {
  const e = (expression ?? '(none)').replace(/\s+/g, ' ').trim();
  return e.length > max ? `${e.slice(0, max - 3)}...` : e;
}

// ---- Reading an expression against one zone ------------------------------------------------

/**
 * Whether an expression selects all, part or none of a zone's requests. It understands `true`,
 * `and`/`or`/`not` and parentheses, and conditions on `cf.zone.name` (eq, ne, in) and
 * `cf.zone.plan` (the vendor's account-level examples select zones with
 * `cf.zone.name eq "example.com" and cf.zone.plan eq "ENT"`); at the account level also whether
 * a host condition can select this zone at all. Anything else selects part of the traffic.
 */
export function coverageOf(expression: string | null, zone: ZoneIdentity, level: Level): Coverage {
  if (expression === null || matchesEverything(expression)) return 'all';
  return evaluate(expression, zone, level);
}

function evaluate(text: string, zone: ZoneIdentity, level: Level): Coverage {
  const e = unwrap(text.trim());
  if (matchesEverything(e)) return 'all';
  const ors = splitTop(e, ['or', '||']);
  if (ors.length > 1) {
    const parts = ors.map((p) => evaluate(p, zone, level));
    return parts.includes('all') ? 'all' : parts.every((p) => p === 'none') ? 'none' : 'part';
  }
  if (splitTop(e, ['xor', '^^']).length > 1) return 'part';
  const ands = splitTop(e, ['and', '&&']);
  if (ands.length > 1) {
    const parts = ands.map((p) => evaluate(p, zone, level));
    return parts.includes('none') ? 'none' : parts.every((p) => p === 'all') ? 'all' : 'part';
  }
  const negated = /^(?:not\b|!(?!=))\s*([\s\S]+)$/.exec(e);
  if (negated) {
    const inner = evaluate(negated[1]!, zone, level);
    return inner === 'all' ? 'none' : inner === 'none' ? 'all' : 'part';
  }
  return condition(e, zone, level);
}

const QUOTED = /"((?:[^"\\]|\\.)*)"/g;
const quoted = (s: string): string[] => [...s.matchAll(QUOTED)].map((m) => m[1]!.toLowerCase());

/** One comparison. */
function condition(e: string, zone: ZoneIdentity, level: Level): Coverage {
  const m = /^([a-z][a-z0-9_.]*)\s+(eq|==|ne|!=|in)\s+([\s\S]+)$/i.exec(e);
  if (!m) return 'part';
  const field = m[1]!.toLowerCase();
  const op = m[2]!.toLowerCase();
  const values = quoted(m[3]!);
  if (op === 'in' && !/^\{[\s\S]*\}$/.test(m[3]!.trim())) return 'part'; // a named list ($list): not known here
  if (values.length === 0) return 'part';
  const holds = (matches: boolean): Coverage => ((op === 'ne' || op === '!=') !== matches ? 'all' : 'none');
  if (field === 'cf.zone.name') return holds(values.includes(zone.name.toLowerCase()));
  if (field === 'cf.zone.plan') {
    // The plan field names Enterprise `ENT`; other plan names are not documented, so only that one is read.
    if (zone.plan === null || !values.every((v) => v === 'ent')) return 'part';
    return holds(zone.plan === 'enterprise');
  }
  if (level === 'account' && (field === 'http.host' || field === 'http.request.host') && op !== 'ne' && op !== '!=') {
    // An account's rule on another zone's host names none of this zone's requests.
    const apex = zone.name.toLowerCase();
    return values.some((h) => h === apex || h.endsWith(`.${apex}`)) ? 'part' : 'none';
  }
  return 'part';
}

/** Drops parentheses that wrap the whole expression. */
function unwrap(e: string): string {
  let s = e;
  while (s.startsWith('(') && closingOf(s, 0) === s.length - 1) s = s.slice(1, -1).trim();
  return s;
}

/** The index of the bracket closing the one at `open`, skipping strings; -1 if none. */
function closingOf(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i]!;
    if (c === '"') i = endOfString(s, i);
    else if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function endOfString(s: string, start: number): number {
  for (let i = start + 1; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '"') return i;
  }
  return s.length;
}

/** Splits at the operators found outside strings and brackets; words only as whole words. */
function splitTop(s: string, operators: readonly string[]): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '"') {
      i = endOfString(s, i);
      continue;
    }
    if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') depth--;
    if (depth !== 0) continue;
    for (const op of operators) {
      if (!s.startsWith(op, i)) continue;
      const word = /^[a-z]+$/.test(op);
      if (word && (/[\w.]/.test(s[i - 1] ?? ' ') || /[\w.]/.test(s[i + op.length] ?? ' '))) continue;
      parts.push(s.slice(from, i).trim());
      from = i + op.length;
      i = from - 1;
      break;
    }
  }
  parts.push(s.slice(from).trim());
  return parts.filter((p) => p.length > 0);
}
