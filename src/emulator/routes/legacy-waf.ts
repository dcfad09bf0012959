import { zoneWrite } from '../audit-log.js';
import { param, queryList, type RequestContext } from '../http/context.js';
import { ApiFailure, CODES, fail, ok } from '../http/envelope.js';
import { compareValues, direction, indexed, LIMITS, orderField, paginate } from '../http/pagination.js';
import type { Route } from '../http/router.js';
import * as serialize from '../serialize.js';
import type { WafGroup, WafOverride, WafPackage, WafRule, Zone } from '../state.js';
import { isObject } from './filter-input.js';
import { notFound } from './lookup.js';
import { settledZone } from './migration.js';

/** The previous managed rules (legacy WAF), gone for a migrated zone (spec, States rule 2). */

/**
 * The `retired` era's answer: the vendor's SDK documents the overrides list as "deprecated and
 * returns 410 Gone" (a message, no code); the others answering the same is the emulator's guess.
 */
function retired(): ApiFailure {
  return new ApiFailure(410, [{ message: 'This endpoint has been retired and answers 410 Gone; use the rulesets API instead.' }]);
}

function legacyZone(ctx: RequestContext): Zone {
  if (ctx.apiEra === 'retired') throw retired();
  const zone = settledZone(ctx);
  // A zone that never had the previous WAF (state none) answers as a migrated one.
  if (zone.migration.state === 'complete' || zone.migration.state === 'none') {
    const why = zone.migration.state === 'none' ? 'was created with the new managed rules' : 'has migrated to the new managed rules';
    throw fail(400, CODES.legacyWafGone, `${zone.name} ${why}; the previous WAF API no longer applies: use the rulesets API`);
  }
  return zone;
}

function packageOf(ctx: RequestContext): WafPackage {
  const id = param(ctx, 'package_id');
  return legacyZone(ctx).waf.packages.find((p) => p.id === id) ?? notFound('WAF package', id);
}

function groupOf(ctx: RequestContext): WafGroup {
  const id = param(ctx, 'group_id');
  return packageOf(ctx).groups.find((g) => g.id === id) ?? notFound('WAF rule group', id);
}

function ruleOf(ctx: RequestContext): [WafRule, WafPackage] {
  const id = param(ctx, 'rule_id');
  const pkg = packageOf(ctx);
  const rule = pkg.groups.flatMap((g) => g.rules).find((r) => r.id === id);
  return rule ? [rule, pkg] : notFound('WAF rule', id);
}

/** Logs a write to the previous managed rules (`waf_package`, `waf_group`, ...) and answers `response`. */
type WafResource = 'package' | 'group' | 'rule' | 'override';

function recordWaf(ctx: RequestContext, type: 'update' | 'delete', resource: WafResource, id: string, response: unknown) {
  const zone = ctx.org.visibleZone(param(ctx, 'zone_id'))!;
  const what = { package: 'WAF package', group: 'WAF rule group', rule: 'WAF rule', override: 'WAF override' }[resource];
  ctx.record(zoneWrite(zone, type, { product: 'waf', type: `waf_${resource}`, what }, id, type === 'update' ? ctx.body() : null, response));
  return ok(response);
}

function bodyField(ctx: RequestContext, key: string, allowed: readonly string[]): string {
  const body = ctx.body();
  const value = isObject(body) ? body[key] : undefined;
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw fail(400, CODES.validation, `${key} must be one of ${allowed.join(', ')}`, { source: { pointer: `/${key}` } });
  }
  return value;
}

function listPackages(ctx: RequestContext) {
  const zone = legacyZone(ctx);
  orderField(ctx, ['name']);
  const dir = direction(ctx);
  const name = ctx.query.get('name');
  const packages = zone.waf.packages.filter((p) => name === null || p.name === name).sort((a, b) => dir * compareValues(a.name, b.name));
  return paginate(ctx, indexed(packages), LIMITS.legacyWaf, serialize.wafPackage);
}

function patchPackage(ctx: RequestContext) {
  const pkg = packageOf(ctx);
  if (pkg.detection_mode !== 'anomaly') throw fail(400, CODES.validation, 'only the anomaly (OWASP) package has a sensitivity and an action mode');
  const body = ctx.body();
  // Validate both fields before changing either, so a failed PATCH leaves the package as it was.
  const sensitivity = isObject(body) && body['sensitivity'] !== undefined ? (bodyField(ctx, 'sensitivity', ['high', 'medium', 'low', 'off']) as WafPackage['sensitivity']) : undefined;
  const actionMode = isObject(body) && body['action_mode'] !== undefined ? (bodyField(ctx, 'action_mode', ['simulate', 'block', 'challenge']) as WafPackage['action_mode']) : undefined;
  if (sensitivity !== undefined) pkg.sensitivity = sensitivity;
  if (actionMode !== undefined) pkg.action_mode = actionMode;
  return recordWaf(ctx, 'update', 'package', pkg.id, serialize.wafPackage(pkg));
}

function listGroups(ctx: RequestContext) {
  const mode = ctx.query.get('mode');
  const groups = packageOf(ctx).groups.filter((g) => mode === null || g.mode === mode);
  return paginate(ctx, indexed(groups), LIMITS.legacyWaf, serialize.wafGroup);
}

function listRules(ctx: RequestContext) {
  const mode = ctx.query.get('mode');
  const groupIds = queryList(ctx.query, 'group_id');
  const pkg = packageOf(ctx);
  const rules = pkg.groups.flatMap((g) => g.rules).filter((r) => (mode === null || r.mode === mode) && (!groupIds.length || groupIds.includes(r.group.id)));
  return paginate(ctx, indexed(rules), LIMITS.legacyWaf, (r) => serialize.wafRule(r, pkg));
}

function overridesZone(ctx: RequestContext): Zone {
  const zone = legacyZone(ctx);
  if (zone.plan !== 'enterprise') {
    throw fail(403, CODES.overridesNotEntitled, `URI-based WAF overrides are available on Enterprise zones only; ${zone.name} is on the ${zone.plan} plan`);
  }
  return zone;
}

function overrideOf(ctx: RequestContext): { overrides: WafOverride[]; override: WafOverride } {
  const overrides = overridesZone(ctx).waf.overrides;
  const id = param(ctx, 'override_id');
  return { overrides, override: overrides.find((o) => o.id === id) ?? notFound('WAF override', id) };
}

function deleteOverride(ctx: RequestContext) {
  const { overrides, override } = overrideOf(ctx);
  overrides.splice(overrides.indexOf(override), 1);
  return recordWaf(ctx, 'delete', 'override', override.id, { id: override.id });
}

function patchGroup(ctx: RequestContext) {
  const group = groupOf(ctx);
  group.mode = bodyField(ctx, 'mode', group.allowed_modes) as WafGroup['mode'];
  return recordWaf(ctx, 'update', 'group', group.id, serialize.wafGroup(group));
}

function patchRule(ctx: RequestContext) {
  const [rule, pkg] = ruleOf(ctx);
  rule.mode = bodyField(ctx, 'mode', rule.allowed_modes);
  return recordWaf(ctx, 'update', 'rule', rule.id, serialize.wafRule(rule, pkg));
}

const PACKAGES = '/zones/{zone_id}/firewall/waf/packages';
const OVERRIDES = '/zones/{zone_id}/firewall/waf/overrides';

export const legacyWafRoutes: Route[] = [
  { method: 'GET', template: PACKAGES, handler: listPackages },
  { method: 'GET', template: `${PACKAGES}/{package_id}`, handler: (ctx) => ok(serialize.wafPackage(packageOf(ctx))) },
  { method: 'PATCH', template: `${PACKAGES}/{package_id}`, handler: patchPackage },
  { method: 'GET', template: `${PACKAGES}/{package_id}/groups`, handler: listGroups },
  { method: 'GET', template: `${PACKAGES}/{package_id}/groups/{group_id}`, handler: (ctx) => ok(serialize.wafGroup(groupOf(ctx))) },
  { method: 'PATCH', template: `${PACKAGES}/{package_id}/groups/{group_id}`, handler: patchGroup },
  { method: 'GET', template: `${PACKAGES}/{package_id}/rules`, handler: listRules },
  { method: 'GET', template: `${PACKAGES}/{package_id}/rules/{rule_id}`, handler: (ctx) => ok(serialize.wafRule(...ruleOf(ctx))) },
  { method: 'PATCH', template: `${PACKAGES}/{package_id}/rules/{rule_id}`, handler: patchRule },
  { method: 'GET', template: OVERRIDES, handler: (ctx) => paginate(ctx, indexed(overridesZone(ctx).waf.overrides), LIMITS.legacyWaf, (o) => o) },
  { method: 'GET', template: `${OVERRIDES}/{override_id}`, handler: (ctx) => ok(overrideOf(ctx).override) },
  { method: 'DELETE', template: `${OVERRIDES}/{override_id}`, handler: deleteOverride },
];
