/**
 * Typed models of the zone security answers (settings, DNSSEC, universal SSL, ruleset entry
 * points), parsed defensively like models.ts: a missing or oddly typed field becomes null and the
 * rule decides what that means.
 */

import { bool, num, obj, parseJson, str } from './json-fields.js';
import { offeredOnEveryPlan } from './setting-availability.js';

/**
 * One setting as `GET /zones/{id}/settings/{setting}` answered, or the plan not offering it.
 * `locked`: answered `editable: false` for a setting every plan offers: the value applies, but
 * the zone cannot change it (the plan or an account policy holds it). `timeRemaining`: the
 * answer's `time_remaining` (development_mode: seconds until it ends), when it carries one.
 */
export type ZoneSettingValue =
  | { offered: true; id: string; value: unknown; editable: boolean | null; locked: boolean; modifiedOn: string | null; timeRemaining: number | null }
  | { offered: false; id: string; reason: string };

export function parseZoneSetting(raw: string): ZoneSettingValue {
  const s = parseJson(raw);
  const id = str(s['id']) ?? '';
  // Earlier versions stored a setting the API refused as `{id, not_offered}`: kept readable.
  if (typeof s['not_offered'] === 'string') return { offered: false, id, reason: s['not_offered'] };
  const editable = bool(s['editable']);
  // vendor API reference, zone settings: `editable` says whether the setting can be modified for
  // the zone (based on its plan). For a setting some plans lack, false means this plan does not
  // offer it: its value is a default that is not the zone's choice to judge. For one every plan
  // offers (setting-availability.ts), false means locked: the value is in force and judged.
  if (editable === false && !offeredOnEveryPlan(id)) return { offered: false, id, reason: `the zone's plan does not offer the ${id} setting (the API answers it as not editable)` };
  return { offered: true, id, value: s['value'] ?? null, editable, locked: editable === false, modifiedOn: str(s['modified_on']), timeRemaining: num(s['time_remaining']) };
}

export interface Hsts {
  enabled: boolean | null;
  maxAge: number | null;
  includeSubdomains: boolean | null;
  preload: boolean | null;
  nosniff: boolean | null;
}

/** The HSTS part of the `security_header` setting's value. */
export function parseHsts(value: unknown): Hsts {
  const h = obj(obj(value)['strict_transport_security']);
  return {
    enabled: bool(h['enabled']),
    maxAge: num(h['max_age']),
    includeSubdomains: bool(h['include_subdomains']),
    preload: bool(h['preload']),
    nosniff: bool(h['nosniff']),
  };
}

export interface Dnssec {
  status: string | null;
  modifiedOn: Date | null;
}

export function parseDnssec(raw: string): Dnssec {
  const d = parseJson(raw);
  const modified = str(d['modified_on']);
  const at = modified ? new Date(modified) : null;
  return { status: str(d['status']), modifiedOn: at && !Number.isNaN(at.getTime()) ? at : null };
}

export function parseUniversalSsl(raw: string): { enabled: boolean | null } {
  return { enabled: bool(parseJson(raw)['enabled']) };
}

export interface EntrypointRule {
  id: string;
  action: string | null;
  expression: string | null;
  description: string;
  /** The API's `enabled` defaults to true when absent. */
  enabled: boolean;
  parameters: Record<string, unknown>;
  /** The rule's `ref` (kept across updates; may name the rule it was made from); null when absent. */
  ref?: string | null;
}

export interface Entrypoint {
  id: string | null;
  phase: string | null;
  rules: EntrypointRule[];
}

export function parseEntrypoint(raw: string): Entrypoint {
  const e = parseJson(raw);
  const rules = Array.isArray(e['rules']) ? e['rules'] : [];
  return {
    id: str(e['id']),
    phase: str(e['phase']),
    rules: rules.map((r, i) => {
      const rule = obj(r);
      return {
        id: str(rule['id']) ?? `#${i + 1}`,
        action: str(rule['action']),
        expression: str(rule['expression']),
        description: str(rule['description']) ?? '',
        enabled: bool(rule['enabled']) ?? true,
        parameters: obj(rule['action_parameters']),
        ref: str(rule['ref']),
      };
    }),
  };
}

/**
 * `GET /zones/{id}/bot_management`: one of four shapes by plan (vendor API reference, bot
 * management config): Bot Fight Mode (`fight_mode`, Free), Super Bot Fight Mode with definitely
 * automated traffic (Pro) and likely automated too (Business, Enterprise without Bot Management),
 * or the Bot Management subscription (`auto_update_model`, `suppress_session_score`). Fields of an
 * earlier plan can linger after a plan change, so the rule reads them by the zone's plan.
 */
export interface BotManagement {
  fightMode: boolean | null;
  /** `allow`, `block` or `managed_challenge`. */
  definitelyAutomated: string | null;
  likelyAutomated: string | null;
  verifiedBots: string | null;
  /** The answer carries the Bot Management subscription's own field (`auto_update_model`). */
  subscription: boolean;
  /** JavaScript detections (`enable_js`); null when the answer does not say. */
  enableJs: boolean | null;
  /** Block AI bots (`ai_bots_protection`: `block`, `disabled`, `only_on_ad_pages`); null where the answer does not carry it (not offered). */
  aiBotsProtection: string | null;
  /** Bot Management only: the zone follows the vendor's newest detection model (`auto_update_model`). */
  autoUpdateModel: boolean | null;
  /** Read-only: the zone runs the newest detection model (`using_latest_model`); null when the answer does not say. */
  usingLatestModel: boolean | null;
}

export function parseBotManagement(raw: string): BotManagement {
  const b = parseJson(raw);
  return {
    fightMode: bool(b['fight_mode']),
    definitelyAutomated: str(b['sbfm_definitely_automated']),
    likelyAutomated: str(b['sbfm_likely_automated']),
    verifiedBots: str(b['sbfm_verified_bots']),
    subscription: b['auto_update_model'] !== undefined && b['auto_update_model'] !== null,
    enableJs: bool(b['enable_js']),
    aiBotsProtection: str(b['ai_bots_protection']),
    autoUpdateModel: bool(b['auto_update_model']),
    usingLatestModel: bool(b['using_latest_model']),
  };
}

/** `GET /zones/{id}/origin_tls_client_auth/settings`: zone-level authenticated origin pulls (false by default). */
export function parseOriginPulls(raw: string): { enabled: boolean | null } {
  return { enabled: bool(parseJson(raw)['enabled']) };
}
