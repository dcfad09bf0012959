/**
 * Typed models of the client-side security answers: the zone's client-side security (Page Shield)
 * settings, its security.txt, and the account's notification policies. Parsed defensively like
 * security-models.ts: a missing or oddly typed field becomes null (or an empty list).
 */

import { bool, obj, parseJson, str, strings } from './json-fields.js';

/** `GET /zones/{id}/page_shield` (vendor API reference: Page Shield settings). */
export interface PageShieldSettings {
  enabled: boolean | null;
  useCloudflareReportingEndpoint: boolean | null;
  useConnectionUrlPath: boolean | null;
  updatedAt: string | null;
}

export function parsePageShield(raw: string): PageShieldSettings {
  const s = parseJson(raw);
  return {
    enabled: bool(s['enabled']),
    useCloudflareReportingEndpoint: bool(s['use_cloudflare_reporting_endpoint']),
    useConnectionUrlPath: bool(s['use_connection_url_path']),
    updatedAt: str(s['updated_at']),
  };
}

/** `GET /zones/{id}/security-center/securitytxt` (vendor API reference: Security TXT; RFC 9116 fields). */
export interface SecurityTxt {
  enabled: boolean | null;
  contact: string[];
  /** RFC 9116 2.5.5: when the file's content goes stale; null when absent or not a date. */
  expires: Date | null;
  /** The `expires` field as served, for messages (null when absent). */
  expiresText: string | null;
  encryption: string[];
  policy: string[];
}

export function parseSecurityTxt(raw: string): SecurityTxt {
  const s = parseJson(raw);
  const expiresText = str(s['expires']);
  const at = expiresText === null ? NaN : Date.parse(expiresText);
  return {
    enabled: bool(s['enabled']),
    contact: strings(s['contact']).filter((c) => c.trim() !== ''),
    expires: Number.isNaN(at) ? null : new Date(at),
    expiresText,
    encryption: strings(s['encryption']),
    policy: strings(s['policy']),
  };
}

/** One of `GET /accounts/{id}/alerting/v3/policies` (vendor API reference: Notification policies). */
export interface NotificationPolicy {
  id: string;
  name: string | null;
  alertType: string | null;
  enabled: boolean | null;
  /** `filters.zones`: the zones the policy is limited to; empty: every zone of the account. */
  zones: string[];
}

export function parseNotificationPolicy(id: string, raw: string): NotificationPolicy {
  const p = parseJson(raw);
  return { id, name: str(p['name']), alertType: str(p['alert_type']), enabled: bool(p['enabled']), zones: strings(obj(p['filters'])['zones']) };
}
