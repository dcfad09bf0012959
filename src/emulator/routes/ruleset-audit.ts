import { zoneWrite } from '../audit-log.js';
import type { RequestContext } from '../http/context.js';
import type { Ruleset, Zone } from '../state.js';

/**
 * The account audit log entry of a write to one of a zone's phase entry points (product
 * `rulesets`, type `ruleset`): created by its first write, updated by the next ones. `why` ends
 * the description (the migration names itself there).
 */
export function recordEntrypointWrite(ctx: RequestContext, zone: Zone, ruleset: Ruleset, created: boolean, request: unknown, why = ''): void {
  const resource = { product: 'rulesets', type: 'ruleset', what: `Ruleset ${ruleset.phase} entry point` };
  ctx.record(zoneWrite(zone, created ? 'create' : 'update', resource, ruleset.id, request, ruleset, why));
}
