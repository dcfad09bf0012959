import { createHash } from 'node:crypto';
import type { ApiClient } from '../api/client.js';
import { ApiAuthError, ApiError } from '../api/errors.js';
import { normaliseExpression } from '../common/expression-text.js';
import { BYPASS_PRODUCTS, planProblem } from './firewall-entitlements.js';
import { checkExpressionText, FirewallCreateError } from './firewall-plan.js';
import type { ZoneTarget } from './zones.js';

/**
 * What `firewall create` checks and decides before it writes a WAF custom rule: the request, the
 * quota, the entry point's rules (404 code 10003: none yet), the position and the rule's `ref`.
 */

export const CUSTOM_PHASE = 'http_request_firewall_custom';
/** The custom rules' actions (vendor docs: custom rules, actions); `skip` names what it skips. */
export const CUSTOM_RULE_ACTIONS = ['block', 'managed_challenge', 'js_challenge', 'challenge', 'log', 'skip'] as const;
/** Phases a skip rule can skip (vendor docs: custom rules, available skip options). */
export const SKIP_PHASES = ['http_ratelimit', 'http_request_sbfm', 'http_request_firewall_managed'] as const;
/** `--skip current`: the remaining custom rules (`ruleset: "current"`). */
export const SKIP_CURRENT = 'current';
const NO_ENTRYPOINT = 10003;

export type PositionRequest = { kind: 'first' | 'last' } | { kind: 'before' | 'after'; rule: string };

export interface CustomRuleRequest {
  expression: string;
  action: string;
  description?: string;
  enabled: boolean;
  /** For skip: `current`, phases and products, as given. */
  skip?: string[];
  position?: PositionRequest;
}

export interface EntrypointRule {
  id?: unknown;
  ref?: unknown;
  action?: unknown;
  expression?: unknown;
  enabled?: unknown;
  description?: unknown;
  action_parameters?: unknown;
}

export interface Entrypoint {
  id: string;
  version?: unknown;
  rules: EntrypointRule[];
}

export interface CustomRulePlan {
  zone: ZoneTarget;
  request: CustomRuleRequest;
  /** The zone's custom rules entry point; null: none yet (created with the rule). */
  entrypoint: Entrypoint | null;
  /** The rule as it is sent (with its ref). */
  rule: Record<string, unknown>;
  /** `position` of the POST; undefined: the API's default (last). */
  position?: { before: string } | { after: string };
  /** A rule that already does exactly this: nothing to do. */
  existing: EntrypointRule | null;
  /** A disabled rule that would do this: it does not count, and is named. */
  disabled: EntrypointRule | null;
  rules: number;
  quota: number | null;
}

/** `--skip` values made into the skip action's parameters (vendor docs: available skip options). */
export function skipParameters(values: readonly string[]): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  if (values.includes(SKIP_CURRENT)) params['ruleset'] = 'current';
  const phases = SKIP_PHASES.filter((p) => values.includes(p));
  const products = BYPASS_PRODUCTS.filter((p) => values.includes(p));
  if (phases.length) params['phases'] = phases;
  if (products.length) params['products'] = products;
  return params;
}

const SKIP_VALUES: readonly string[] = [SKIP_CURRENT, ...SKIP_PHASES, ...BYPASS_PRODUCTS];

/** Why the request cannot be written as a custom rule, as a one-line message; null when it can. */
function requestProblem(zone: ZoneTarget, request: CustomRuleRequest): string | null {
  if (!(CUSTOM_RULE_ACTIONS as readonly string[]).includes(request.action)) {
    return `--action ${request.action} is not a custom rule action; use one of ${CUSTOM_RULE_ACTIONS.join(', ')} (allow and bypass are firewall rule actions: --legacy; a skip rule replaces them)`;
  }
  const skip = request.skip ?? [];
  if (request.action === 'skip' && skip.length === 0) return `--action skip needs --skip, what it skips: some of ${SKIP_VALUES.join(', ')} (e.g. --skip http_request_firewall_managed)`;
  if (request.action !== 'skip' && skip.length > 0) return `--skip applies to --action skip only; drop it for --action ${request.action}`;
  const unknown = skip.filter((s) => !SKIP_VALUES.includes(s));
  if (unknown.length) return `--skip ${unknown.join(', ')} is not something a skip rule can skip; use some of ${SKIP_VALUES.join(', ')}`;
  return planProblem(zone, request);
}

/** The rule's ref: the same inputs give the same ref, so a retry can find a rule whose answer was lost. */
export function ruleRef(zone: ZoneTarget, rule: Record<string, unknown>, taken: ReadonlySet<string>): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([zone.id, normaliseExpression(String(rule['expression'])), rule['action'], rule['action_parameters'] ?? null, rule['enabled']]))
    .digest('hex')
    .slice(0, 20);
  const base = `zonewarden-${digest}`;
  // A rule with this ref that does not count (disabled, or since edited) keeps it: the new rule takes the next free one.
  for (let n = 1; ; n++) {
    const ref = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(ref)) return ref;
  }
}

/** A JSON value as text whatever the order of its keys and list items: what a skip rule skips is a set. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).sort().join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Whether a rule of the entry point does what the request asks (same expression, action and skip parameters). */
function sameRule(rule: EntrypointRule, wanted: Record<string, unknown>): boolean {
  return (
    typeof rule.expression === 'string' &&
    normaliseExpression(rule.expression) === normaliseExpression(String(wanted['expression'])) &&
    rule.action === wanted['action'] &&
    canonical(rule.action_parameters ?? null) === canonical(wanted['action_parameters'] ?? null)
  );
}

/** The zone's custom rules entry point, or null when it has none (404 code 10003). */
export async function readEntrypoint(client: ApiClient, zoneId: string): Promise<Entrypoint | null> {
  try {
    const answer = await client.get<Entrypoint>(`/zones/${encodeURIComponent(zoneId)}/rulesets/phases/${CUSTOM_PHASE}/entrypoint`);
    const result = answer.result;
    if (typeof result?.id !== 'string') throw new FirewallCreateError(`the API answered the ${CUSTOM_PHASE} entry point of zone ${zoneId} without an id: nothing was written`);
    return { ...result, rules: Array.isArray(result.rules) ? result.rules : [] };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && err.hasCode(NO_ENTRYPOINT)) return null;
    throw err;
  }
}

function resolvePosition(zone: ZoneTarget, position: PositionRequest | undefined, entrypoint: Entrypoint | null): CustomRulePlan['position'] {
  if (position === undefined) return undefined;
  if (!('rule' in position)) return position.kind === 'first' ? { before: '' } : { after: '' };
  const rule = entrypoint?.rules.find((r) => r.id === position.rule || r.ref === position.rule);
  if (typeof rule?.id !== 'string') {
    throw new FirewallCreateError(
      `--position ${position.kind}:${position.rule}: ${zone.name} has no custom rule with that id or ref; list them with zonewarden api /zones/${zone.id}/rulesets/phases/${CUSTOM_PHASE}/entrypoint (nothing was written)`,
    );
  }
  return position.kind === 'before' ? { before: rule.id } : { after: rule.id };
}

export async function planCustomRule(client: ApiClient, zone: ZoneTarget, request: CustomRuleRequest, quotas: Readonly<Record<string, number>>): Promise<CustomRulePlan> {
  checkExpressionText(request.expression);
  const problem = requestProblem(zone, request);
  if (problem) throw new FirewallCreateError(problem);
  let entrypoint: Entrypoint | null;
  try {
    entrypoint = await readEntrypoint(client, zone.id);
  } catch (err) {
    if (!(err instanceof ApiAuthError)) throw err;
    throw new FirewallCreateError(`reading the custom rules of ${zone.name} was refused (${err.message}): writing custom rules needs a token with Zone · Zone WAF · Edit (nothing was written)`);
  }
  const rules = entrypoint?.rules ?? [];
  const wanted: Record<string, unknown> = {
    action: request.action,
    expression: request.expression,
    ...(request.action === 'skip' ? { action_parameters: skipParameters(request.skip ?? []) } : {}),
    ...(request.description !== undefined ? { description: request.description } : {}),
    enabled: request.enabled,
  };
  const same = rules.filter((r) => sameRule(r, wanted));
  // An enabled rule does the job; so does a disabled one when a disabled rule is what is asked for.
  const existing = same.find((r) => r.enabled !== false) ?? (request.enabled ? undefined : same[0]) ?? null;
  const disabled = existing ? null : (same.find((r) => r.enabled === false) ?? null);
  const quota = zone.plan === null ? null : (quotas[zone.plan] ?? null);
  if (!existing && quota !== null && rules.length >= quota) {
    throw new FirewallCreateError(`${zone.name} has ${rules.length} custom rules, the ${zone.plan} plan's quota of ${quota}: delete or merge a rule first (nothing was written)`);
  }
  const position = existing ? undefined : resolvePosition(zone, request.position, entrypoint);
  const taken = new Set(rules.map((r) => r.ref).filter((r): r is string => typeof r === 'string'));
  const rule = { ...wanted, ref: ruleRef(zone, wanted, taken) };
  return { zone, request, entrypoint, rule, ...(position ? { position } : {}), existing, disabled, rules: rules.length, quota };
}
