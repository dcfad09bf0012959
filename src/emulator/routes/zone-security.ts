import { param, type RequestContext } from '../http/context.js';
import { CODES, fail, ok } from '../http/envelope.js';
import type { Route } from '../http/router.js';
import { dnssecAnswer, offers, SETTING_IDS, type SettingId } from '../security.js';
import { zoneFor } from './lookup.js';

/**
 * The zone security reads, in the shapes of the vendor's API reference (docs/api-surface.md, Zone
 * security reads): settings one by one (`{id, value, editable, modified_on}`), DNSSEC, the
 * universal SSL switch (`{enabled}`) and the custom-rules entry point. A setting the plan does not
 * offer answers an error (vendor docs: zone settings); its code, and the answer for a setting that
 * does not exist, are the emulator's (CODES.settingUnavailable).
 */

function getSetting(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  const id = param(ctx, 'setting_id') as SettingId;
  if (!SETTING_IDS.includes(id)) throw fail(400, CODES.settingUnavailable, `Invalid setting: ${id.slice(0, 64)}`);
  if (!offers(zone.plan, id)) throw fail(400, CODES.settingUnavailable, `The ${id} setting is not available on the ${zone.plan} plan`);
  // The legacy switch is the previous managed rules' own (what the migration status calls old_waf_status).
  const value = id === 'waf' ? (zone.waf.enabled ? 'on' : 'off') : zone.security.settings[id];
  return ok({ id, value, editable: true, modified_on: zone.security.modified[id] ?? zone.created_on });
}

function getDnssec(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  return ok(dnssecAnswer(zone.name, zone.security.dnssec));
}

function getUniversalSsl(ctx: RequestContext) {
  return ok({ enabled: zoneFor(ctx).security.universalSsl });
}

/** vendor docs: rulesets: a phase entry point before its first rule answers 404 code 10003. */
function getCustomEntrypoint(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  if (!zone.security.customRules) throw fail(404, CODES.rulesetNotFound, 'could not find entrypoint ruleset in the http_request_firewall_custom phase');
  return ok(zone.security.customRules);
}

export const zoneSecurityRoutes: Route[] = [
  { method: 'GET', template: '/zones/{zone_id}/settings/{setting_id}', handler: getSetting },
  { method: 'GET', template: '/zones/{zone_id}/dnssec', handler: getDnssec },
  { method: 'GET', template: '/zones/{zone_id}/ssl/universal/settings', handler: getUniversalSsl },
  { method: 'GET', template: '/zones/{zone_id}/rulesets/phases/http_request_firewall_custom/entrypoint', handler: getCustomEntrypoint },
];
