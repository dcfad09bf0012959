import { bool, num, obj, parseJson, str } from '../fields.js';
import { offeredOnEveryPlan } from './availability.js';

/**
 * One setting as `GET /zones/{id}/settings/{setting}` answered (parsed defensively), or the plan not offering it.
 * `locked`: `editable: false` on a setting every plan offers: the value applies, the zone cannot change it.
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
  // offers (availability.ts), false means locked: the value is in force and judged.
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
