import { param, type RequestContext } from '../http/context.js';
import { CODES, fail, ok } from '../http/envelope.js';
import { indexed, LIMITS, paginate } from '../http/pagination.js';
import type { Route } from '../http/router.js';
import { notFound, zoneFor } from './lookup.js';

/**
 * Without a filter only active packs are listed. `status=all` (current API) and `ssl_status=all`
 * (the spec's older form) list every status; a named status lists packs in that status.
 */
function listPacks(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  const raw = ctx.query.get('status') ?? ctx.query.get('ssl_status');
  if (raw !== null && !/^[a-z_]+$/.test(raw)) throw fail(400, CODES.validation, 'status must be all or a certificate pack status');
  const wanted = raw ?? 'active';
  const packs = wanted === 'all' ? zone.certificatePacks : zone.certificatePacks.filter((p) => p.status === wanted);
  return paginate(ctx, indexed(packs), LIMITS.certificatePacks, (p) => p);
}

function getPack(ctx: RequestContext) {
  const id = param(ctx, 'pack_id');
  return ok(zoneFor(ctx).certificatePacks.find((p) => p.id === id) ?? notFound('certificate pack', id));
}

export const certificatePackRoutes: Route[] = [
  { method: 'GET', template: '/zones/{zone_id}/ssl/certificate_packs', handler: listPacks },
  { method: 'GET', template: '/zones/{zone_id}/ssl/certificate_packs/{pack_id}', handler: getPack },
];
