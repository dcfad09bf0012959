import { zoneWrite } from '../audit-log.js';
import type { RequestContext } from '../http/context.js';
import type { Ruleset, Zone } from '../state.js';

/** Logs a write of a zone's phase entry point: created by the first, updated by the next; `why` ends the description. */
export function recordEntrypointWrite(ctx: RequestContext, zone: Zone, ruleset: Ruleset, created: boolean, request: unknown, why = ''): void {
  const resource = { product: 'rulesets', type: 'ruleset', what: `Ruleset ${ruleset.phase} entry point` };
  ctx.record(zoneWrite(zone, created ? 'create' : 'update', resource, ruleset.id, request, ruleset, why));
}
