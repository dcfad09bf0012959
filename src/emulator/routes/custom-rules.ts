import { checkExpression } from '../expression.js';
import { param, type RequestContext } from '../http/context.js';
import { ApiFailure, CODES, fail, ok, type ErrorItem } from '../http/envelope.js';
import type { Route } from '../http/router.js';
import { stableId } from '../ids.js';
import { FIREWALL_RULE_QUOTA, type Ruleset, type RulesetRule, type Zone } from '../state.js';
import { KNOWN_PRODUCTS } from '../vocabulary.js';
import { isObject, missingFeature, refuse } from './filter-input.js';
import { zoneEntrypoints } from './rulesets-list.js';
import { recordEntrypointWrite, zoneFor } from './lookup.js';

/**
 * Writes to a zone's custom rules entry point (vendor docs: WAF, "Create custom rules via API";
 * ruleset engine, "Add a rule to a ruleset", "Change the order of a rule in a ruleset"): the PUT
 * replaces the rules, the create refuses while the entry point exists, and a rule is added where
 * `position` says. Each answers the whole ruleset, one version higher. Checked as the vendor's
 * availability table says (quota, `log` on Enterprise, `matches` on Business up) and the skip
 * options (vendor docs: custom rules, available skip options). Refusals take the form of the
 * rulesets API's validation answers seen in the wild (400, code 20217, with `source.pointer`); that
 * each of them uses it is the emulator's guess. Only this phase takes rule writes here.
 */

export const CUSTOM_PHASE = 'http_request_firewall_custom';
export const CUSTOM_ACTIONS = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log', 'skip'] as const;
/** What a custom rule's skip action can skip by phase (vendor docs: available skip options). */
export const SKIPPABLE_PHASES = ['http_ratelimit', 'http_request_sbfm', 'http_request_firewall_managed'] as const;
const MAX_DESCRIPTION = 500;

type RuleInput = Pick<RulesetRule, 'action' | 'expression' | 'description' | 'enabled'> & { id?: string; ref?: string; action_parameters?: Record<string, unknown> };

function invalid(pointer: string, value: unknown, field: string, reason: string): ErrorItem {
  const shown = typeof value === 'string' ? value.slice(0, 80) : JSON.stringify(value)?.slice(0, 80);
  return { code: CODES.rulesetValidation, message: `'${shown}' is not a valid value for ${field} because ${reason}`, source: { pointer } };
}

function skipProblem(params: unknown): string | null {
  if (!isObject(params)) return 'a skip rule names what it skips in action_parameters: ruleset "current", phase "current", phases or products';
  const { ruleset, phase, phases, products } = params;
  if (ruleset === undefined && phase === undefined && phases === undefined && products === undefined) return 'a skip rule needs ruleset, phase, phases or products';
  if (ruleset !== undefined && ruleset !== 'current') return 'ruleset can only be "current" in a custom rule';
  if (phase !== undefined && phase !== 'current') return 'phase can only be "current" in a custom rule';
  if (phases !== undefined && (!Array.isArray(phases) || phases.length === 0 || phases.some((p) => !(SKIPPABLE_PHASES as readonly string[]).includes(p as string)))) {
    return `phases must be some of ${SKIPPABLE_PHASES.join(', ')}`;
  }
  if (products !== undefined && (!Array.isArray(products) || products.length === 0 || products.some((p) => !KNOWN_PRODUCTS.includes(p as string)))) {
    return `products must be some of ${KNOWN_PRODUCTS.join(', ')}`;
  }
  return null;
}

/** One rule of a request, checked against the language and the zone's plan; null when refused (errors say why). */
function readRule(zone: Zone, raw: unknown, pointer: string, errors: ErrorItem[]): RuleInput | null {
  if (!isObject(raw)) return refuse(errors, invalid(pointer, raw, 'rule', 'a rule must be an object'));
  const before = errors.length;
  const { id, action, expression, description, enabled, ref, action_parameters } = raw;
  if (typeof action !== 'string' || !(CUSTOM_ACTIONS as readonly string[]).includes(action)) {
    errors.push(invalid(`${pointer}/action`, action, 'action', `the ${CUSTOM_PHASE} phase takes ${CUSTOM_ACTIONS.join(', ')}`));
  } else if (action === 'log' && zone.plan !== 'enterprise') {
    errors.push(invalid(`${pointer}/action`, action, 'action', `the log action needs an Enterprise plan; ${zone.name} is on ${zone.plan}`));
  }
  if (typeof expression !== 'string') errors.push(invalid(`${pointer}/expression`, expression, 'expression', 'an expression is required'));
  else {
    const check = checkExpression(expression);
    const missing = check.ok ? missingFeature(zone, check) : null;
    if (!check.ok) errors.push(invalid(`${pointer}/expression`, expression, 'expression', `the expression is invalid: ${check.message}`));
    else if (missing) errors.push(invalid(`${pointer}/expression`, expression, 'expression', `the zone is not entitled to it: ${missing}`));
  }
  if (description !== undefined && (typeof description !== 'string' || [...description].length > MAX_DESCRIPTION)) {
    errors.push(invalid(`${pointer}/description`, description, 'description', `a description is a string of at most ${MAX_DESCRIPTION} characters`));
  }
  if (enabled !== undefined && typeof enabled !== 'boolean') errors.push(invalid(`${pointer}/enabled`, enabled, 'enabled', 'enabled is true or false'));
  if (ref !== undefined && (typeof ref !== 'string' || ref === '')) errors.push(invalid(`${pointer}/ref`, ref, 'ref', 'a ref is a non-empty string'));
  if (id !== undefined && typeof id !== 'string') errors.push(invalid(`${pointer}/id`, id, 'id', 'an id is a string'));
  if (action === 'skip') {
    const problem = skipProblem(action_parameters);
    if (problem) errors.push(invalid(`${pointer}/action_parameters`, action_parameters ?? null, 'action_parameters', problem));
  } else if (action_parameters !== undefined && !isObject(action_parameters)) {
    errors.push(invalid(`${pointer}/action_parameters`, action_parameters, 'action_parameters', 'action_parameters is an object'));
  }
  if (errors.length > before) return null;
  const rule: RuleInput = { action: action as string, expression: expression as string, description: (description as string | undefined) ?? '', enabled: (enabled as boolean | undefined) ?? true };
  if (typeof id === 'string') rule.id = id;
  if (typeof ref === 'string') rule.ref = ref;
  if (isObject(action_parameters)) rule.action_parameters = action_parameters;
  return rule;
}

function refuseOverQuota(zone: Zone, count: number, pointer: string): void {
  const quota = FIREWALL_RULE_QUOTA[zone.plan];
  if (count > quota) {
    throw new ApiFailure(400, [invalid(pointer, count, 'rules', `exceeded maximum number of rules in the phase ${CUSTOM_PHASE}: ${count} out of ${quota} (the ${zone.plan} plan)`)]);
  }
}

function refuseDuplicateRefs(rules: Array<{ ref: string }>, pointer: (i: number) => string): void {
  const seen = new Set<string>();
  const errors: ErrorItem[] = [];
  rules.forEach((r, i) => {
    if (seen.has(r.ref)) errors.push(invalid(pointer(i), r.ref, 'ref', 'another rule of the ruleset has this ref'));
    seen.add(r.ref);
  });
  if (errors.length) throw new ApiFailure(400, errors);
}

/** A stored rule from a checked input: a new one gets its id (and ref) and version 1. */
function toRule(ctx: RequestContext, input: RuleInput, now: string, previous?: RulesetRule): RulesetRule {
  const id = previous?.id ?? ctx.org.newId();
  const same =
    previous &&
    previous.action === input.action &&
    previous.expression === input.expression &&
    previous.description === input.description &&
    previous.enabled === input.enabled &&
    (input.ref === undefined || input.ref === previous.ref) &&
    JSON.stringify(previous.action_parameters ?? null) === JSON.stringify(input.action_parameters ?? null);
  if (previous && same) return previous;
  const rule: RulesetRule = {
    id,
    version: previous ? String(Number(previous.version) + 1) : '1',
    action: input.action,
    expression: input.expression,
    description: input.description,
    ref: input.ref ?? previous?.ref ?? id,
    enabled: input.enabled,
    last_updated: now,
  };
  if (input.action_parameters) rule.action_parameters = input.action_parameters;
  return rule;
}

/** Stores the new rules as the entry point's next version, and notes the write for the audit log; `meta`'s name and description are checked. */
function save(ctx: RequestContext, zone: Zone, rules: RulesetRule[], now: string, request: unknown, meta: { name?: unknown; description?: unknown } = {}): Ruleset {
  const previous = zone.security.customRules;
  const ruleset: Ruleset = {
    id: previous?.id ?? stableId('custom-entrypoint', zone.name),
    name: (meta.name as string | undefined) ?? previous?.name ?? 'default',
    description: (meta.description as string | undefined) ?? previous?.description ?? '',
    phase: CUSTOM_PHASE,
    kind: 'zone',
    version: String(Number(previous?.version ?? '0') + 1),
    last_updated: now,
    rules,
  };
  zone.security.customRules = ruleset;
  recordEntrypointWrite(ctx, zone, ruleset, !previous, request);
  return ruleset;
}

/** The checked rules of a PUT or a create: refused whole (400, one item per problem) when any is wrong. */
function checkedRules(ctx: RequestContext, zone: Zone, body: Record<string, unknown>, now: string): RulesetRule[] {
  const errors: ErrorItem[] = [];
  for (const key of ['name', 'description'] as const) {
    if (body[key] !== undefined && typeof body[key] !== 'string') errors.push(invalid(`/${key}`, body[key], key, `${key} is a string`));
  }
  const raws = body['rules'] as unknown[];
  const inputs = raws.map((raw, i) => readRule(zone, raw, `/rules/${i}`, errors));
  const current = new Map((zone.security.customRules?.rules ?? []).map((r) => [r.id, r]));
  inputs.forEach((input, i) => {
    if (input?.id !== undefined && !current.has(input.id)) errors.push(invalid(`/rules/${i}/id`, input.id, 'id', 'no rule of this ruleset has this id (leave it out for a new rule)'));
  });
  if (errors.length) throw new ApiFailure(400, errors);
  refuseOverQuota(zone, raws.length, '/rules');
  const rules = (inputs as RuleInput[]).map((input) => toRule(ctx, input, now, input.id === undefined ? undefined : current.get(input.id)));
  refuseDuplicateRefs(rules, (i) => `/rules/${i}/ref`);
  return rules;
}

function putEntrypoint(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  const body = ctx.body();
  if (!isObject(body) || !Array.isArray(body['rules'])) throw new ApiFailure(400, [invalid('/rules', body === null ? null : typeof body, 'rules', 'the body is a ruleset object with a rules array')]);
  const now = ctx.org.clock.iso();
  return ok(save(ctx, zone, checkedRules(ctx, zone, body, now), now, body, body));
}

/**
 * `POST /zones/{zone_id}/rulesets` (ruleset engine, "Create a ruleset"): a phase has one entry point
 * ("About phases"), so while it exists the create is refused as in the wild. Never replaces rules.
 */
function createRuleset(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  const body = ctx.body();
  if (!isObject(body)) throw new ApiFailure(400, [invalid('', body === null ? null : typeof body, 'ruleset', 'the body is a ruleset object')]);
  const errors: ErrorItem[] = [];
  if (typeof body['name'] !== 'string' || body['name'] === '') errors.push(invalid('/name', body['name'] ?? null, 'name', 'a ruleset needs a name'));
  if (body['rules'] !== undefined && !Array.isArray(body['rules'])) errors.push(invalid('/rules', body['rules'], 'rules', 'rules is a list'));
  if (errors.length) throw new ApiFailure(400, errors);
  if (body['kind'] !== 'zone' || body['phase'] !== CUSTOM_PHASE) {
    throw fail(400, CODES.validation, `the emulator creates the ${CUSTOM_PHASE} entry point only (kind zone, phase ${CUSTOM_PHASE})`);
  }
  if (zone.security.customRules) {
    throw new ApiFailure(400, [invalid('/kind', 'zone', 'kind', `exceeded maximum number of zone rulesets for phase ${CUSTOM_PHASE}`)]);
  }
  const now = ctx.org.clock.iso();
  return ok(save(ctx, zone, checkedRules(ctx, zone, { ...body, rules: body['rules'] ?? [] }, now), now, body, body));
}

/** Where `position` puts a rule among `rules` (vendor docs: change the order of a rule in a ruleset), as an index from 0. */
function placement(position: unknown, rules: RulesetRule[]): number {
  if (position === undefined) return rules.length;
  const keys = isObject(position) ? Object.keys(position) : [];
  if (!isObject(position) || keys.length !== 1 || !['index', 'before', 'after'].includes(keys[0]!)) {
    throw new ApiFailure(400, [invalid('/position', position, 'position', 'a position is one of {index}, {before} or {after}')]);
  }
  const { index, before, after } = position;
  if (index !== undefined) {
    if (!Number.isInteger(index) || (index as number) < 1) throw new ApiFailure(400, [invalid('/position/index', index, 'index', 'an index is a whole number from 1')]);
    return Math.min((index as number) - 1, rules.length);
  }
  const target = before ?? after;
  if (typeof target !== 'string') throw new ApiFailure(400, [invalid(`/position/${before !== undefined ? 'before' : 'after'}`, target, 'position', 'a rule id is a string')]);
  if (target === '') return before !== undefined ? 0 : rules.length;
  const at = rules.findIndex((r) => r.id === target);
  if (at < 0) throw new ApiFailure(400, [invalid(`/position/${before !== undefined ? 'before' : 'after'}`, target, 'position', 'no rule of this ruleset has this id')]);
  return before !== undefined ? at : at + 1;
}

function addRule(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  const id = param(ctx, 'ruleset_id');
  const current = zone.security.customRules;
  if (!current || current.id !== id) {
    const other = zoneEntrypoints(zone).find((r) => r.id === id);
    if (other) throw fail(400, CODES.validation, `the emulator takes rule writes for the ${CUSTOM_PHASE} phase only; ruleset ${id} is the ${other.phase} entry point`);
    throw fail(404, CODES.rulesetNotFound, `could not find ruleset ${id.slice(0, 64)}`);
  }
  const body = ctx.body();
  const errors: ErrorItem[] = [];
  const input = readRule(zone, body, '', errors);
  if (input?.id !== undefined) errors.push(invalid('/id', input.id, 'id', 'a new rule gets its id from the API'));
  if (errors.length || !input) throw new ApiFailure(400, errors);
  refuseOverQuota(zone, current.rules.length + 1, '');
  const at = placement((body as Record<string, unknown>)['position'], current.rules);
  const now = ctx.org.clock.iso();
  const rule = toRule(ctx, input, now);
  const rules = [...current.rules.slice(0, at), rule, ...current.rules.slice(at)];
  refuseDuplicateRefs(rules, () => '/ref');
  return ok(save(ctx, zone, rules, now, body));
}

export const customRuleRoutes: Route[] = [
  { method: 'PUT', template: `/zones/{zone_id}/rulesets/phases/${CUSTOM_PHASE}/entrypoint`, handler: putEntrypoint },
  { method: 'POST', template: '/zones/{zone_id}/rulesets/{ruleset_id}/rules', handler: addRule },
  { method: 'POST', template: '/zones/{zone_id}/rulesets', handler: createRuleset },
];
