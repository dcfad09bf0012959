import { param, type RequestContext } from '../http/context.js';
import { noRoute, ok } from '../http/envelope.js';
import type { Route } from '../http/router.js';
import { botManagementAnswer, developmentModeAnswer, dnssecAnswer, NOT_OFFERED_VALUE, offers, SETTING_IDS, type SettingId, type ZoneSecurity } from '../security.js';
import type { Ruleset, Zone } from '../state.js';
import { entrypointOrMissing, zoneFor } from './lookup.js';

/**
 * The zone security reads, in the shapes of the vendor's API reference (docs/api-surface.md, Zone
 * security reads). An unknown setting id is a path the API cannot route: codes 7003 and 7000, with
 * 404 (the status is the emulator's guess).
 */

function getSetting(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  const id = param(ctx, 'setting_id') as SettingId;
  if (!SETTING_IDS.includes(id)) throw noRoute(404, `/zones/${zone.id}/settings/${id.slice(0, 64)}`);
  const modified_on = zone.security.modified[id] ?? zone.created_on;
  // vendor's API reference: zone settings, `editable`: false for a setting the plan does not offer (its default) or a locked one.
  if (!offers(zone.plan, id)) return ok({ id, value: NOT_OFFERED_VALUE[id], editable: false, modified_on });
  // The legacy switch is the previous managed rules' own (what the migration status calls old_waf_status).
  const value = id === 'waf' ? (zone.waf.enabled ? 'on' : 'off') : zone.security.settings[id];
  const editable = !zone.security.locked.includes(id);
  // vendor's API reference (development_mode): the answer also carries time_remaining, in seconds.
  if (id === 'development_mode') return ok({ id, editable, ...developmentModeAnswer(value, modified_on, ctx.org.clock.now()) });
  return ok({ id, value, editable, modified_on });
}

/** A GET of a zone's object: `answer` of the zone the path names. */
function zoneRead(path: string, answer: (zone: Zone) => unknown): Route {
  return { method: 'GET', template: `/zones/{zone_id}${path}`, handler: (ctx) => ok(answer(zoneFor(ctx))) };
}

/** vendor docs: rulesets: a phase entry point before its first rule answers 404 code 10003. */
function entrypointRoute(phase: string, of: (security: ZoneSecurity) => Ruleset | null): Route {
  return zoneRead(`/rulesets/phases/${phase}/entrypoint`, (zone) => entrypointOrMissing(of(zone.security), phase));
}

/** vendor's API reference: Security TXT: the file's fields; `result` null where none was set up. */
function securityTxt(zone: Zone) {
  const txt = zone.security.securityTxt;
  if (!txt) return null;
  const { expires, ...rest } = txt;
  return expires === null ? rest : { ...rest, expires };
}

export const zoneSecurityRoutes: Route[] = [
  { method: 'GET', template: '/zones/{zone_id}/settings/{setting_id}', handler: getSetting },
  zoneRead('/dnssec', (zone) => dnssecAnswer(zone.name, zone.security.dnssec)),
  // vendor's API reference: `{enabled}`; `certificate_authority` is not in it but in the answers seen in the wild.
  zoneRead('/ssl/universal/settings', ({ security }) => ({
    enabled: security.universalSsl,
    certificate_authority: security.universalSslCa,
  })),
  entrypointRoute('http_request_firewall_custom', (security) => security.customRules),
  entrypointRoute('http_ratelimit', (security) => security.rateLimitRules),
  // vendor's API reference: bot management, get zone config: the fields of the plan's bot product.
  zoneRead('/bot_management', (zone) => botManagementAnswer(zone.plan, zone.security.bots)),
  // vendor's API reference: zone-level authenticated origin pulls, get enablement.
  zoneRead('/origin_tls_client_auth/settings', (zone) => ({ enabled: zone.security.originPulls })),
  // vendor's API reference: Page Shield settings, get.
  zoneRead('/page_shield', (zone) => ({ ...zone.security.pageShield })),
  zoneRead('/security-center/securitytxt', securityTxt),
];
