import { zoneWrite } from '../audit-log.js';
import { param, queryList, type RequestContext } from '../http/context.js';
import { ApiFailure, CODES, fail, ok, type ErrorItem } from '../http/envelope.js';
import { indexed, LIMITS, paginate } from '../http/pagination.js';
import type { Handler, Route } from '../http/router.js';
import * as serialize from '../serialize.js';
import type { Filter, Zone } from '../state.js';
import { isObject, listFilter, notFoundError, readFilterInput, refuse, rejectDuplicates, toFilter } from './filter-input.js';
import { validationError, type FilterInput } from './filter-input.js';
import { notFound, zoneFor } from './lookup.js';

/** The filters interface: standalone filters that firewall rules (and other features) reference. */

function listFilters(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  const listed = listFilter(ctx.query);
  const expression = ctx.query.get('expression');
  const ref = ctx.query.get('ref');
  const filters = [...zone.filters.values()].filter(
    (f) => listed(f) && (expression === null || f.expression.includes(expression)) && (ref === null || f.ref === ref),
  );
  return paginate(ctx, indexed(filters), LIMITS.filters, serialize.filter);
}

function getFilter(ctx: RequestContext) {
  const id = param(ctx, 'filter_id');
  return ok(serialize.filter(zoneFor(ctx).filters.get(id) ?? notFound('filter', id)));
}

/**
 * The `retired` era refuses writes to filters and firewall rules (WAF, "Firewall rules upgrade": no
 * longer supported since 2025-06-15) with the code and message seen in the wild; the status, and the
 * filters API answering the same, are the emulator's guesses.
 */
export function legacyWrites(routes: Route[]): Route[] {
  return routes.map((route) =>
    route.method === 'GET'
      ? route
      : {
          ...route,
          handler: (ctx: RequestContext) => {
            if (ctx.apiEra === 'retired') {
              throw fail(400, CODES.notEntitled, 'firewallrules.api.maintenance_mode: this API no longer accepts changes since firewall rules were upgraded to WAF custom rules; write custom rules through the rulesets API (phase http_request_firewall_custom)');
            }
            return route.handler(ctx);
          },
        },
  );
}

export function bodyArray(ctx: RequestContext): unknown[] {
  const body = ctx.body();
  if (!Array.isArray(body) || body.length === 0) throw fail(400, CODES.validation, 'request body must be a non-empty JSON array');
  return body;
}

interface Collection {
  list: Handler;
  create: Handler;
  get: Handler;
  /** Items of a body in bulk, or the one of the path (`fixedId`). */
  update: (ctx: RequestContext, raws: unknown[], fixedId?: string) => unknown[];
  remove: (ctx: RequestContext, ids: string[]) => unknown[];
}

/**
 * The routes of a collection of the previous API (filters, firewall rules): list, create, update
 * and delete in bulk (ids in the query), and one item by its id; the writes as `legacyWrites` says.
 */
export function collectionRoutes(base: string, idParam: string, noun: string, c: Collection): Route[] {
  const item = `${base}/{${idParam}}`;
  const deleteMany = (ctx: RequestContext) => {
    const ids = queryList(ctx.query, 'id');
    if (!ids.length) throw fail(400, CODES.validation, `give the ${noun} to delete as id=...&id=...`);
    return ok(c.remove(ctx, ids));
  };
  return legacyWrites([
    { method: 'GET', template: base, handler: c.list },
    { method: 'POST', template: base, handler: c.create },
    { method: 'PUT', template: base, handler: (ctx) => ok(c.update(ctx, bodyArray(ctx))) },
    { method: 'DELETE', template: base, handler: deleteMany },
    { method: 'GET', template: item, handler: c.get },
    { method: 'PUT', template: item, handler: (ctx) => ok(c.update(ctx, [ctx.body()], param(ctx, idParam))[0]) },
    { method: 'DELETE', template: item, handler: (ctx) => ok(c.remove(ctx, [param(ctx, idParam)])[0]) },
  ]);
}

/** The audit log entry of a filter written through the filters or the firewall rules interface; answers `response`. */
export function recordFilter<T>(ctx: RequestContext, zone: Zone, type: 'create' | 'update' | 'delete', id: string, request: unknown, response: T): T {
  ctx.record(zoneWrite(zone, type, { product: 'filters', type: 'filter', what: 'Filter' }, id, request, response));
  return response;
}

function createFilters(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  const errors: ErrorItem[] = [];
  const raws = bodyArray(ctx);
  const inputs = raws.map((raw, i) => readFilterInput(raw, `/${i}`, errors));
  rejectDuplicates(zone, inputs.map((input) => input?.expression), errors, (i) => `/${i}/expression`);
  if (errors.length) throw new ApiFailure(400, errors);
  const created = (inputs as FilterInput[]).map((input, i) => {
    const f = toFilter(ctx.org.newId(), input);
    zone.filters.set(f.id, f);
    return recordFilter(ctx, zone, 'create', f.id, raws[i], serialize.filter(f));
  });
  return ok(created);
}

function applyUpdate(zone: Zone, raw: unknown, pointer: string, errors: ErrorItem[], fixedId?: string): Filter | null {
  const id = fixedId ?? (isObject(raw) && typeof raw['id'] === 'string' ? raw['id'] : undefined);
  if (!id) return refuse(errors, validationError(`${pointer}/id`, 'id is required'));
  if (!zone.filters.has(id)) return refuse(errors, notFoundError('filter', id, `${pointer}/id`));
  const input = readFilterInput(raw, pointer, errors);
  return input ? toFilter(id, input) : null;
}

function updateFilters(ctx: RequestContext, raws: unknown[], fixedId?: string) {
  const zone = zoneFor(ctx);
  if (fixedId !== undefined && !zone.filters.has(fixedId)) notFound('filter', fixedId);
  const errors: ErrorItem[] = [];
  const updated = raws.map((raw, i) => applyUpdate(zone, raw, fixedId ? '' : `/${i}`, errors, fixedId));
  rejectDuplicates(zone, updated.map((f) => f?.expression), errors, (i) => `/${i}/expression`, updated.map((f) => f?.id ?? ''));
  if (errors.length) throw new ApiFailure(400, errors);
  return (updated as Filter[]).map((f, i) => {
    zone.filters.set(f.id, f);
    return recordFilter(ctx, zone, 'update', f.id, raws[i], serialize.filter(f));
  });
}

function deleteFilters(ctx: RequestContext, ids: string[]) {
  const zone = zoneFor(ctx);
  for (const id of ids) if (!zone.filters.has(id)) notFound('filter', id);
  // Rules that referenced a deleted filter keep pointing at it and show `{id, deleted: true}`.
  for (const id of new Set(ids)) {
    zone.filters.delete(id);
    recordFilter(ctx, zone, 'delete', id, null, { id });
  }
  return ids.map((id) => ({ id }));
}

export const filterRoutes = collectionRoutes('/zones/{zone_id}/filters', 'filter_id', 'filters', { list: listFilters, create: createFilters, get: getFilter, update: updateFilters, remove: deleteFilters });
