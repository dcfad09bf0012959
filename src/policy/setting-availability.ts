import type { ZoneSetting } from '../api/endpoints.js';

/**
 * Which zone settings every plan offers. The API answers a setting with `editable: false` both
 * when the zone's plan does not offer it and when its value is locked (by the plan, which holds
 * some values for lower plans, or by an account policy): for a setting every plan has, `false`
 * can only mean locked, and the value still applies to the zone's traffic, so it is judged (a
 * locked weak value still exposes the zone). Only a setting some plans lack is read as "not
 * offered" from `editable: false`. One entry per setting a rule may read (ZONE_SETTINGS); each
 * from the availability table of the vendor's page for it.
 */
export const OFFERED_ON_EVERY_PLAN: Readonly<Record<ZoneSetting, boolean>> = {
  // vendor docs: Encryption modes (SSL/TLS): availability Free, Pro, Business, Enterprise.
  ssl: true,
  // vendor docs: Minimum TLS Version: availability Free, Pro, Business, Enterprise.
  min_tls_version: true,
  // vendor docs: TLS 1.3: availability Free, Pro, Business, Enterprise.
  tls_1_3: true,
  // vendor docs: Always Use HTTPS: availability Free, Pro, Business, Enterprise.
  always_use_https: true,
  // vendor docs: Automatic HTTPS Rewrites: availability Free, Pro, Business, Enterprise.
  automatic_https_rewrites: true,
  // vendor docs: HTTP Strict Transport Security (HSTS): availability Free, Pro, Business, Enterprise.
  security_header: true,
  // vendor docs: Security Level: all plans.
  security_level: true,
  // vendor docs: Browser Integrity Check: all plans.
  browser_check: true,
  // vendor docs: WAF managed rules (previous version): Pro, Business and Enterprise only; Free zones never had the switch.
  waf: false,
  // vendor docs: Development Mode: all plans.
  development_mode: true,
  // vendor docs: Always Online: availability Free, Pro, Business, Enterprise.
  always_online: true,
  // vendor docs: Email Address Obfuscation: all plans.
  email_obfuscation: true,
  // vendor docs: Hotlink Protection: all plans.
  hotlink_protection: true,
  // vendor docs: IP geolocation (CF-IPCountry): all plans.
  ip_geolocation: true,
  // vendor docs: Challenge Passage: all plans.
  challenge_ttl: true,
};

/** Whether every plan offers the setting (an id no rule declares: not known to, so not assumed). */
export function offeredOnEveryPlan(id: string): boolean {
  return (OFFERED_ON_EVERY_PLAN as Readonly<Record<string, boolean>>)[id] === true;
}
