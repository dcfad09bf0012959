import { zoneWrite } from '../audit-log.js';
import { checkExpression } from '../expression.js';
import { param, queryBool, type RequestContext } from '../http/context.js';
import { ApiFailure, CODES, fail, ok, type ErrorItem } from '../http/envelope.js';
import { indexed, LIMITS, paginate } from '../http/pagination.js';
import * as serialize from '../serialize.js';
import { FIREWALL_RULE_QUOTA, type FirewallRule, type Zone } from '../state.js';
import { KNOWN_ACTIONS, KNOWN_PRODUCTS } from '../vocabulary.js';
import {
  checkPausedAndDescription,
  isObject,
  listFilter,
  missingFeature,
  notFoundError,
  readFilterInput,
  refuse,
  rejectDuplicates,
  toFilter,
  validationError,
  type FilterInput,
} from './filter-input.js';
import { bodyArray, collectionRoutes, recordFilter } from './filters.js';
import { notFound, zoneFor } from './lookup.js';

const MAX_PRIORITY = 2_147_483_647;

function listRules(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  const action = ctx.query.get('action');
  const listed = listFilter(ctx.query);
  const rules = [...zone.firewallRules.values()].filter((r) => listed(r) && (action === null || r.action === action));
  return paginate(ctx, indexed(rules), LIMITS.firewallRules, (r) => serialize.firewallRule(r, zone));
}

/** A validated rule of a request: its own fields, and either a new inline filter or an existing one. */
interface RuleInput {
  action: string;
  priority: number | null;
  paused: boolean;
  description: string;
  ref?: string;
  products?: string[];
  inline?: FilterInput;
  filterId?: string;
}

function readRuleFields(raw: Record<string, unknown>, pointer: string, errors: ErrorItem[]): Omit<RuleInput, 'inline' | 'filterId'> | null {
  const before = errors.length;
  const { action, priority, paused, description, ref, products } = raw;
  if (typeof action !== 'string' || !(KNOWN_ACTIONS as readonly string[]).includes(action)) {
    errors.push(validationError(`${pointer}/action`, `action must be one of ${KNOWN_ACTIONS.join(', ')}`));
  }
  if (priority !== undefined && priority !== null && (!Number.isInteger(priority) || (priority as number) < 0 || (priority as number) > MAX_PRIORITY)) {
    errors.push(validationError(`${pointer}/priority`, `priority must be null or a whole number from 0 to ${MAX_PRIORITY}`));
  }
  checkPausedAndDescription(paused, description, pointer, errors);
  if (ref !== undefined && typeof ref !== 'string') errors.push(validationError(`${pointer}/ref`, 'ref must be a string'));
  if (products !== undefined && (!Array.isArray(products) || products.some((p) => !KNOWN_PRODUCTS.includes(p as string)))) {
    errors.push(validationError(`${pointer}/products`, `products must be some of ${KNOWN_PRODUCTS.join(', ')}`));
  }
  if (action === 'bypass' && (!Array.isArray(products) || products.length === 0)) {
    errors.push(validationError(`${pointer}/products`, 'a bypass rule needs the products it bypasses'));
  }
  if (errors.length > before) return null;
  const fields: Omit<RuleInput, 'inline' | 'filterId'> = {
    action: action as string,
    priority: (priority as number | null | undefined) ?? null,
    paused: (paused as boolean | undefined) ?? false,
    description: (description as string | undefined) ?? '',
  };
  if (typeof ref === 'string') fields.ref = ref;
  if (Array.isArray(products) && products.length) fields.products = products as string[];
  return fields;
}

function readRule(zone: Zone, raw: unknown, pointer: string, errors: ErrorItem[]): RuleInput | null {
  if (!isObject(raw)) return refuse(errors, validationError(pointer, 'each firewall rule must be an object'));
  const fields = readRuleFields(raw, pointer, errors);
  const filter = raw['filter'];
  if (!isObject(filter)) {
    return refuse(errors, validationError(`${pointer}/filter`, 'filter is required: {expression} inline or {id} of an existing filter'));
  }
  if (filter['id'] !== undefined && filter['expression'] !== undefined) {
    const message = 'give the filter either inline as {expression} or by reference as {id}, not both';
    return refuse(errors, validationError(`${pointer}/filter`, message));
  }
  if (typeof filter['id'] === 'string') {
    if (!zone.filters.has(filter['id'])) return refuse(errors, notFoundError('filter', filter['id'], `${pointer}/filter/id`));
    return fields && { ...fields, filterId: filter['id'] };
  }
  const inline = readFilterInput(filter, `${pointer}/filter`, errors);
  return fields && inline && { ...fields, inline };
}

/** Logs a rule's write; answers `response`. */
function recordRule<T>(ctx: RequestContext, zone: Zone, type: 'create' | 'update' | 'delete', id: string, request: unknown, response: T): T {
  ctx.record(zoneWrite(zone, type, { product: 'firewall_rules', type: 'firewall_rule', what: 'Firewall rule' }, id, request, response));
  return response;
}

/**
 * POST validates its array all or nothing (spec, Errors 4), then creates the inline filters before
 * the quota and plan checks, so those refusals leave the filters behind (spec, Errors 5).
 */
function createRules(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  const errors: ErrorItem[] = [];
  const raws = bodyArray(ctx);
  const inputs = raws.map((raw, i) => readRule(zone, raw, `/${i}`, errors));
  rejectDuplicates(zone, inputs.map((input) => input?.inline?.expression), errors, (i) => `/${i}/filter/expression`);
  if (errors.length) throw new ApiFailure(400, errors);

  const rules = inputs as RuleInput[];
  rules.forEach((input, i) => {
    if (!input.inline) return;
    const f = toFilter(ctx.org.newId(), input.inline);
    zone.filters.set(f.id, f);
    input.filterId = f.id;
    // Logged even when the quota or a plan feature refuses the rules next: the filter stays.
    recordFilter(ctx, zone, 'create', f.id, (raws[i] as Record<string, unknown>)['filter'], serialize.filter(f));
  });
  const quota = FIREWALL_RULE_QUOTA[zone.plan];
  if (zone.firewallRules.size + rules.length > quota) {
    throw fail(
      400,
      CODES.quotaExceeded,
      `firewallrules.api.quota_exceeded: the ${zone.plan} plan allows ${quota} firewall rules per zone; ${zone.name} has ${zone.firewallRules.size} and this request adds ${rules.length}`,
    );
  }
  for (const input of rules) {
    const filter = zone.filters.get(input.filterId!)!;
    const check = checkExpression(filter.expression);
    // vendor docs, firewall rules actions: log is available on Enterprise plans only.
    const missing = input.action === 'log' && zone.plan !== 'enterprise' ? `the log action needs an Enterprise plan; ${zone.name} is on ${zone.plan}` : check.ok ? missingFeature(zone, check) : null;
    if (missing) throw fail(400, CODES.notEntitled, `firewallrules.api.not_entitled: ${missing}`);
  }
  const now = ctx.org.clock.iso();
  const created = rules.map((input, i) => {
    const rule = toRule(ctx.org.newId(), input, now, now);
    zone.firewallRules.set(rule.id, rule);
    return recordRule(ctx, zone, 'create', rule.id, raws[i], serialize.firewallRule(rule, zone));
  });
  return ok(created);
}

function toRule(id: string, input: RuleInput, created_on: string, modified_on: string): FirewallRule {
  const rule: FirewallRule = {
    id,
    action: input.action,
    priority: input.priority,
    paused: input.paused,
    description: input.description,
    filterId: input.filterId!,
    created_on,
    modified_on,
  };
  if (input.ref !== undefined) rule.ref = input.ref;
  if (input.products !== undefined) rule.products = input.products;
  return rule;
}

/**
 * Updates may re-point a rule to another existing filter, but never change a filter: filters are
 * changed through the filters interface only (spec, Firewall rules 2).
 */
function updateRules(ctx: RequestContext, raws: unknown[], fixedId?: string) {
  const zone = zoneFor(ctx);
  if (fixedId !== undefined && !zone.firewallRules.has(fixedId)) notFound('firewall rule', fixedId);
  const errors: ErrorItem[] = [];
  const updates = raws.map((raw, i) => {
    const pointer = fixedId ? '' : `/${i}`;
    const id = fixedId ?? (isObject(raw) && typeof raw['id'] === 'string' ? raw['id'] : undefined);
    const existing = id ? zone.firewallRules.get(id) : undefined;
    if (!existing) return refuse(errors, notFoundError('firewall rule', String(id), `${pointer}/id`));
    if (!isObject(raw)) return refuse(errors, validationError(pointer, 'a firewall rule must be an object'));
    const fields = readRuleFields(raw, pointer, errors);
    const filter = raw['filter'];
    if (!isObject(filter) || typeof filter['id'] !== 'string') {
      return refuse(errors, validationError(`${pointer}/filter`, 'filter must reference an existing filter as {id}'));
    }
    const current = zone.filters.get(filter['id']);
    if (!current) return refuse(errors, notFoundError('filter', filter['id'], `${pointer}/filter/id`));
    if ((filter['expression'] !== undefined && filter['expression'] !== current.expression) || (filter['paused'] !== undefined && filter['paused'] !== current.paused)) {
      const message = 'filters cannot be changed through the firewall rules endpoint; use PUT /zones/{zone_id}/filters/{id}';
      return refuse(errors, validationError(`${pointer}/filter`, message));
    }
    return fields && toRule(existing.id, { ...fields, filterId: current.id }, existing.created_on, ctx.org.clock.iso());
  });
  if (errors.length) throw new ApiFailure(400, errors);
  for (const rule of updates as FirewallRule[]) zone.firewallRules.set(rule.id, rule);
  return (updates as FirewallRule[]).map((r, i) => recordRule(ctx, zone, 'update', r.id, raws[i], serialize.firewallRule(r, zone)));
}

/** Deleting a rule leaves its filter unless `delete_filter_if_unused=true`. */
function deleteRules(ctx: RequestContext, ids: string[]) {
  const zone = zoneFor(ctx);
  for (const id of ids) if (!zone.firewallRules.has(id)) notFound('firewall rule', id);
  const dropUnused = queryBool(ctx.query, 'delete_filter_if_unused') ?? false;
  // A Set: an id given twice must not be looked up again after its rule is gone.
  for (const id of new Set(ids)) {
    const rule = zone.firewallRules.get(id)!;
    zone.firewallRules.delete(id);
    recordRule(ctx, zone, 'delete', id, null, { id });
    if (dropUnused && zone.filters.has(rule.filterId) && ![...zone.firewallRules.values()].some((r) => r.filterId === rule.filterId)) {
      zone.filters.delete(rule.filterId);
      recordFilter(ctx, zone, 'delete', rule.filterId, null, { id: rule.filterId });
    }
  }
  return ids.map((id) => ({ id }));
}

function getRule(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  const id = param(ctx, 'rule_id');
  return ok(serialize.firewallRule(zone.firewallRules.get(id) ?? notFound('firewall rule', id), zone));
}

export const firewallRuleRoutes = collectionRoutes('/zones/{zone_id}/firewall/rules', 'rule_id', 'rules', { list: listRules, create: createRules, get: getRule, update: updateRules, remove: deleteRules });
