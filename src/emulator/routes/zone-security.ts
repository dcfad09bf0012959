import { param, type RequestContext } from '../http/context.js';
import { ApiFailure, CODES, fail, ok } from '../http/envelope.js';
import type { Route } from '../http/router.js';
import { botManagementAnswer, developmentModeAnswer, dnssecAnswer, NOT_OFFERED_VALUE, offers, SETTING_IDS, type SettingId, type ZoneSecurity } from '../security.js';
import type { Ruleset } from '../state.js';
import { zoneFor } from './lookup.js';

/**
 * The zone security reads, in the shapes of the vendor's API reference (docs/api-surface.md, Zone
 * security reads): settings one by one (`{id, value, editable, modified_on}`), DNSSEC, the
 * universal SSL switch and CA, the custom-rules and rate limiting (`http_ratelimit`) entry points, bot
 * management and zone-level authenticated origin pulls. A setting the plan does not offer
 * answers 200 with its default value and `editable: false` (vendor's API reference: zone settings,
 * `editable`), and a setting whose value is locked answers its value with `editable: false`; a
 * setting id that does not exist is a path the API cannot route: 404 with code 7003 and 7000 (the
 * status is the emulator's guess; the codes are the API's routing errors).
 */

function getSetting(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  const id = param(ctx, 'setting_id') as SettingId;
  if (!SETTING_IDS.includes(id)) {
    throw new ApiFailure(404, [
      { code: CODES.noRoute, message: `Could not route to /zones/${zone.id}/settings/${id.slice(0, 64)}, perhaps your object identifier is invalid?` },
      { code: CODES.noRouteChain, message: 'No route for that URI' },
    ]);
  }
  const modified_on = zone.security.modified[id] ?? zone.created_on;
  if (!offers(zone.plan, id)) return ok({ id, value: NOT_OFFERED_VALUE[id], editable: false, modified_on });
  // The legacy switch is the previous managed rules' own (what the migration status calls old_waf_status).
  const value = id === 'waf' ? (zone.waf.enabled ? 'on' : 'off') : zone.security.settings[id];
  // A locked value is served as it is, with editable false (vendor's API reference: zone settings, editable).
  const editable = !zone.security.locked.includes(id);
  // vendor's API reference (development_mode): the answer also carries time_remaining, in seconds.
  if (id === 'development_mode') return ok({ id, editable, ...developmentModeAnswer(value, modified_on, ctx.org.clock.now()) });
  return ok({ id, value, editable, modified_on });
}

function getDnssec(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  return ok(dnssecAnswer(zone.name, zone.security.dnssec));
}

/**
 * vendor's API reference: universal SSL settings details `{enabled}`; `certificate_authority` is
 * not in the reference but is in the answers seen in the wild (`lets_encrypt`, `google`, ...).
 */
function getUniversalSsl(ctx: RequestContext) {
  const { security } = zoneFor(ctx);
  return ok({ enabled: security.universalSsl, certificate_authority: security.universalSslCa });
}

/**
 * vendor docs: rulesets: a phase entry point before its first rule answers 404 code 10003 (rate
 * limiting rules live in the `http_ratelimit` phase).
 */
function entrypointRoute(phase: string, of: (security: ZoneSecurity) => Ruleset | null): Route {
  const handler = (ctx: RequestContext) => {
    const ruleset = of(zoneFor(ctx).security);
    if (!ruleset) throw fail(404, CODES.rulesetNotFound, `could not find entrypoint ruleset in the ${phase} phase`);
    return ok(ruleset);
  };
  return { method: 'GET', template: `/zones/{zone_id}/rulesets/phases/${phase}/entrypoint`, handler };
}

/** vendor's API reference: bot management, get zone config: the fields of the plan's bot product (security.ts). */
function getBotManagement(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  return ok(botManagementAnswer(zone.plan, zone.security.bots));
}

/** vendor's API reference: zone-level authenticated origin pulls, get enablement: `{enabled}`. */
function getOriginPulls(ctx: RequestContext) {
  return ok({ enabled: zoneFor(ctx).security.originPulls });
}

/** vendor's API reference: Page Shield settings, get: `{enabled, updated_at, use_cloudflare_reporting_endpoint, use_connection_url_path}`. */
function getPageShield(ctx: RequestContext) {
  return ok({ ...zoneFor(ctx).security.pageShield });
}

/** vendor's API reference: Security TXT, get: the file's fields; `result` is optional, null where none was set up. */
function getSecurityTxt(ctx: RequestContext) {
  const txt = zoneFor(ctx).security.securityTxt;
  if (!txt) return ok(null);
  const { expires, ...rest } = txt;
  return ok(expires === null ? rest : { ...rest, expires });
}

export const zoneSecurityRoutes: Route[] = [
  { method: 'GET', template: '/zones/{zone_id}/settings/{setting_id}', handler: getSetting },
  { method: 'GET', template: '/zones/{zone_id}/dnssec', handler: getDnssec },
  { method: 'GET', template: '/zones/{zone_id}/ssl/universal/settings', handler: getUniversalSsl },
  entrypointRoute('http_request_firewall_custom', (security) => security.customRules),
  entrypointRoute('http_ratelimit', (security) => security.rateLimitRules),
  { method: 'GET', template: '/zones/{zone_id}/bot_management', handler: getBotManagement },
  { method: 'GET', template: '/zones/{zone_id}/origin_tls_client_auth/settings', handler: getOriginPulls },
  { method: 'GET', template: '/zones/{zone_id}/page_shield', handler: getPageShield },
  { method: 'GET', template: '/zones/{zone_id}/security-center/securitytxt', handler: getSecurityTxt },
];
