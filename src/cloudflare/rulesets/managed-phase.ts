import {
  ALL,
  fieldArg,
  HOST_FIELDS,
  NONE,
  PART,
  parseExpression,
  presentField,
  stringArg,
  stringValues,
  walk,
  type HostReader,
  type TestNode,
  type Verdict,
} from './broad-expression.js';
import type { Entrypoint, EntrypointRule } from './entrypoint.js';
import { obj, objects, strings } from '../fields.js';

/**
 * What a managed-phase entry point runs for one zone, as the ruleset engine runs it (vendor docs: "Deploy a managed
 * ruleset", "Create an exception", "Override a managed ruleset", "Account-level WAF configuration"): rules run in
 * order; a skip rule affects only the later execute rules of its own entry point, for the requests it matches
 * (`ruleset: "current"` every remaining rule, `rulesets: [ids]` those rulesets, `rules: {id: [...]}` listed rules
 * only); a ruleset-level override applies to every rule, tag and rule overrides take precedence; account-level
 * entry points run before the zone's, for the zones their expressions select.
 */

/** How much of a zone's traffic an expression selects, as far as its text tells. */
export type Coverage = 'all' | 'part' | 'none';

export interface ZoneIdentity {
  name: string;
  /** The plan's legacy id (free, pro, business, enterprise), or null. */
  plan: string | null;
}

export type Level = 'zone' | 'account';

/** What a skip rule skips: every later rule of its entry point, or the executed ruleset itself. */
export type SkipScope = 'rest' | 'ruleset';

/** What one execute rule of the ruleset does for the zone; `runs` protects every request. */
export type Outcome =
  | { kind: 'runs' }
  /** The execute rule's expression selects part of the zone's traffic (null: it came back without one). */
  | { kind: 'narrow'; expression: string | null }
  /** A skip rule before it exempts the requests to some of the zone's hosts; `hosts` names them when the expression does. */
  | { kind: 'hostSkipped'; skip: EntrypointRule; skips: SkipScope; hosts: string[] | null }
  /** Ruleset-level `action: log`; `acting`: category and rule overrides that set another action. */
  | { kind: 'logOnly'; acting: number }
  /**
   * Ruleset-level `enabled: false`; `kept`: category and rule overrides that enable rules again
   * with an action that acts; `logging`: those that enable rules again only to log.
   */
  | { kind: 'overriddenOff'; kept: number; logging?: number }
  /** A skip rule before it exempts every request of the zone. */
  | { kind: 'skipped'; skip: EntrypointRule; skips: SkipScope }
  | { kind: 'disabled' };

export interface Deployment {
  level: Level;
  rule: EntrypointRule;
  outcome: Outcome;
}

// From the most protection to none: what a zone gets from the best of its deployments. A skip of
// some hosts leaves the rest of the zone protected, like an execute rule narrowed to part of it.
const RANK: Record<Outcome['kind'], number> = { runs: 0, narrow: 1, hostSkipped: 1, logOnly: 2, overriddenOff: 3, skipped: 4, disabled: 5 };

/** A partial override (some rules still enabled or acting) protects more than a whole one. */
function rank(o: Outcome): number {
  return (o.kind === 'logOnly' && o.acting > 0) || (o.kind === 'overriddenOff' && o.kept > 0) ? RANK.narrow + 0.5 : RANK[o.kind];
}

/** The deployment that protects the zone most; on a tie the earlier one (zone before account when listed so). */
export function best(deployments: readonly Deployment[]): Deployment | null {
  return deployments.reduce<Deployment | null>((found, d) => (!found || rank(d.outcome) < rank(found.outcome) ? d : found), null);
}

interface SkipFound {
  rule: EntrypointRule;
  reading: Reading;
}
type SkipsByScope = Partial<Record<SkipScope, SkipFound>>;

/**
 * Every execute rule of `rulesetId` in the entry point that can apply to the zone, with what it
 * does there. Execute rules whose expression cannot select the zone (an account-level rule for
 * other zones) are left out.
 */
export function deploymentsOf(entrypoint: Entrypoint, rulesetId: string, zone: ZoneIdentity, level: Level): Deployment[] {
  // The first skip of each scope that reaches the zone: of every request, or of some of its hosts.
  const skips: Record<'all' | 'hosts', SkipsByScope> = { all: {}, hosts: {} };
  // A skip of the rest of the entry point is named before one of the ruleset.
  const first = (of: SkipsByScope) => (of.rest ? ([of.rest, 'rest'] as const) : of.ruleset ? ([of.ruleset, 'ruleset'] as const) : null);
  const found: Deployment[] = [];
  for (const rule of entrypoint.rules) {
    if (rule.action === 'skip') {
      if (!rule.enabled) continue;
      const skipsRest = rule.parameters['ruleset'] === 'current';
      const skipsRuleset = strings(rule.parameters['rulesets']).includes(rulesetId);
      // `rules: {<ruleset>: [...]}` skips some rules of a ruleset, not the ruleset: an exception, not a switch-off.
      if (!skipsRest && !skipsRuleset) continue;
      // Decision (docs silent): a skip without an expression is read as matching every request, the worst case for a skip.
      const reading = readExpression(rule.expression, zone, ALL);
      if (reading.kind === 'all' || reading.kind === 'hosts') skips[reading.kind][skipsRest ? 'rest' : 'ruleset'] ??= { rule, reading };
      continue;
    }
    if (rule.action !== 'execute' || rule.parameters['id'] !== rulesetId) continue;
    // An execute rule without an expression is read as running for part of the traffic, the worst case for it.
    const coverage = coverageOf(rule.expression, zone);
    if (coverage === 'none') continue;
    found.push({ level, rule, outcome: outcomeOf(rule, coverage, first(skips.all), first(skips.hosts)) });
  }
  return found;
}

function outcomeOf(rule: EntrypointRule, coverage: Coverage, all: readonly [SkipFound, SkipScope] | null, hosts: readonly [SkipFound, SkipScope] | null): Outcome {
  if (!rule.enabled) return { kind: 'disabled' };
  if (all) return { kind: 'skipped', skip: all[0].rule, skips: all[1] };
  const overrides = obj(rule.parameters['overrides']);
  const specific = [...objects(overrides['categories']), ...objects(overrides['rules'])];
  // vendor docs: "Override a managed ruleset": specific overrides take precedence; a property they
  // leave out comes from the ruleset override. "Deploy a managed ruleset with ruleset, tag, and
  // rule overrides": rules enabled again with `action: log` only log, they do not protect.
  const rulesetAction = typeof overrides['action'] === 'string' ? overrides['action'] : null;
  const actionOf = (o: Record<string, unknown>) => (typeof o['action'] === 'string' ? o['action'] : rulesetAction);
  if (overrides['enabled'] === false) {
    const enabledAgain = specific.filter((o) => o['enabled'] === true);
    const logging = enabledAgain.filter((o) => actionOf(o) === 'log').length;
    return { kind: 'overriddenOff', kept: enabledAgain.length - logging, ...(logging > 0 ? { logging } : {}) };
  }
  if (rulesetAction === 'log') {
    return { kind: 'logOnly', acting: specific.filter((o) => o['enabled'] !== false && typeof o['action'] === 'string' && o['action'] !== 'log').length };
  }
  if (hosts && hosts[0].reading.kind === 'hosts') return { kind: 'hostSkipped', skip: hosts[0].rule, skips: hosts[1], hosts: hostNames(hosts[0].reading.set) };
  if (coverage === 'part') return { kind: 'narrow', expression: rule.expression };
  return { kind: 'runs' };
}

/** Shortened for a message. */
export function shorten(expression: string | null, max = 120): string {
  const e = (expression ?? '(none)').replace(/\s+/g, ' ').trim();
  return e.length > max ? `${e.slice(0, max - 3)}...` : e;
}

// ---- Reading an expression against one zone ------------------------------------------------

/**
 * The hosts of the zone a host condition selects: its apex, every subdomain, and subdomains named
 * one by one. vendor docs: a zone is a domain and its subdomains; a request to a host outside it
 * is not one of the zone's.
 */
interface HostSet {
  apex: string;
  hasApex: boolean;
  everySubdomain: boolean;
  subdomains: ReadonlySet<string>;
}

/** `set`: the zone's hosts a condition decided by the host name alone selects (null when not known which). */
type HostsRead = { kind: 'hosts'; set: HostSet | null };
type Reading = Verdict<HostsRead>;

const SOME_HOSTS: HostsRead = { kind: 'hosts', set: null };

/** The hosts a skip names, for a message; null when its condition names none outright (a negation, a pattern). */
function hostNames(set: HostSet | null): string[] | null {
  if (set === null) return null;
  const names = [...(set.hasApex ? [set.apex] : []), ...(set.everySubdomain ? [`every subdomain of ${set.apex}`] : []), ...set.subdomains];
  return names.length ? names : null;
}

function hostsReading(set: HostSet): Reading {
  if (set.hasApex && set.everySubdomain) return ALL;
  if (!set.hasApex && !set.everySubdomain && set.subdomains.size === 0) return NONE;
  return { kind: 'hosts', set };
}

/**
 * Whether an expression selects all, part or none of a zone's requests: tautologies, `cf.zone.name`, `cf.zone.plan`
 * and host conditions are judged for this zone; anything else, an unreadable or a missing expression is part.
 */
export function coverageOf(expression: string | null, zone: ZoneIdentity): Coverage {
  const reading = readExpression(expression, zone, PART);
  return reading.kind === 'hosts' ? 'part' : reading.kind;
}

function readExpression(expression: string | null, zone: ZoneIdentity, missing: Reading): Reading {
  if (expression === null) return missing;
  const node = parseExpression(expression);
  return node ? walk(node, readerFor(zone)) : PART;
}

function readerFor(zone: ZoneIdentity): HostReader<HostsRead> {
  return {
    zoneName: zone.name,
    test: (node) => readTest(node, zone),
    not: complement,
    and: (hosts) => hosts.slice(1).reduce<Reading>(intersect, hosts[0]!),
    or: (hosts) => hosts.slice(1).reduce<Reading>(union, hosts[0]!),
    someHosts: SOME_HOSTS,
  };
}

function complement(r: Reading): Reading {
  if (r.kind === 'all') return NONE;
  if (r.kind === 'none') return ALL;
  if (r.kind === 'part' || r.set === null) return r;
  const s = r.set;
  // Every subdomain but those named is not a list: known only when none or all were.
  if (s.everySubdomain) return hostsReading({ apex: s.apex, hasApex: !s.hasApex, everySubdomain: false, subdomains: new Set() });
  if (s.subdomains.size === 0) return hostsReading({ apex: s.apex, hasApex: !s.hasApex, everySubdomain: true, subdomains: new Set() });
  return SOME_HOSTS;
}

/** Two readings combined by `sets` when both are known host sets: part when either is not a host condition. */
const combining = (sets: (x: HostSet, y: HostSet) => Reading) => (a: Reading, b: Reading): Reading => {
  if (a.kind !== 'hosts' || b.kind !== 'hosts') return PART;
  return a.set && b.set ? sets(a.set, b.set) : SOME_HOSTS;
};

const intersect = combining((x, y) => {
  const subdomains = new Set([...x.subdomains].filter((h) => y.everySubdomain || y.subdomains.has(h)));
  if (x.everySubdomain) for (const h of y.subdomains) subdomains.add(h);
  return hostsReading({ apex: x.apex, hasApex: x.hasApex && y.hasApex, everySubdomain: x.everySubdomain && y.everySubdomain, subdomains });
});

const union = combining((x, y) => {
  const everySubdomain = x.everySubdomain || y.everySubdomain;
  return hostsReading({ apex: x.apex, hasApex: x.hasApex || y.hasApex, everySubdomain, subdomains: everySubdomain ? new Set() : new Set([...x.subdomains, ...y.subdomains]) });
});

/** One comparison or function call, for this zone (walk has judged the forms every reader shares). */
function readTest(node: TestNode, zone: ZoneIdentity): Reading {
  const fields = node.left.fields;
  if (presentField(node.left) === 'cf.zone.plan') return readPlan(node, zone);
  if (fields.length > 0 && fields.every((f) => HOST_FIELDS.has(f))) return readHost(node, zone.name.toLowerCase());
  return PART;
}

/**
 * `cf.zone.plan`: the vendor's account-level examples select Enterprise zones with
 * `cf.zone.plan eq "ENT"`; other plan names are not documented, so only that one is read.
 */
function readPlan(node: TestNode, zone: ZoneIdentity): Reading {
  const values = stringValues(node.right);
  if (zone.plan === null || values === null || values.length === 0 || !values.every((v) => v.toLowerCase() === 'ent')) return PART;
  if (node.op !== 'eq' && node.op !== 'ne' && node.op !== 'in') return PART;
  const named = zone.plan === 'enterprise';
  return (node.op === 'ne' ? !named : named) ? ALL : NONE;
}

/** A condition on the host name, for the zone `apex`: the hosts of the zone it selects. */
function readHost(node: TestNode, apex: string): Reading {
  const inZone = (h: string) => h === apex || h.endsWith(`.${apex}`);
  const named = (hosts: string[]) => {
    const mine = hosts.map((h) => h.toLowerCase()).filter(inZone);
    return hostsReading({ apex, hasApex: mine.includes(apex), everySubdomain: false, subdomains: new Set(mine.filter((h) => h !== apex)) });
  };
  const values = stringValues(node.right);
  if (presentField(node.left) !== null && values !== null) {
    if (node.op === 'eq' || node.op === 'in') return named(values);
    if (node.op === 'ne') return complement(named(values));
    // vendor docs: operators: wildcard: `*` is zero or more characters; `*<suffix>` is a suffix.
    if ((node.op === 'wildcard' || node.op === 'strict wildcard') && values.length === 1 && /^\*[^*]*$/.test(values[0]!)) return suffix(values[0]!.slice(1).toLowerCase(), apex);
  }
  // vendor docs: functions: ends_with(field, suffix).
  const call = node.op === null ? node.left.call : null;
  if (call?.name === 'ends_with' && call.args.length === 2) {
    const field = fieldArg(call.args[0]!);
    const text = stringArg(call.args[1]);
    if (field !== null && HOST_FIELDS.has(field) && text !== null) return suffix(text.toLowerCase(), apex);
  }
  return SOME_HOSTS;
}

/** The zone's hosts ending with `s`: each of them ends with the apex, so all, every subdomain, some, or none. */
function suffix(s: string, apex: string): Reading {
  if (apex.endsWith(s)) return ALL;
  if (s === `.${apex}`) return hostsReading({ apex, hasApex: false, everySubdomain: true, subdomains: new Set() });
  if (s.endsWith(`.${apex}`)) return SOME_HOSTS;
  return NONE;
}
