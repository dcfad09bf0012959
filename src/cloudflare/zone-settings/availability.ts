/**
 * Which zone settings every plan offers. The API answers a setting with `editable: false` both
 * when the zone's plan does not offer it and when its value is locked (by the plan, which holds
 * some values for lower plans, or by an account policy): for a setting every plan has, `false`
 * can only mean locked, and the value still applies to the zone's traffic, so it is judged (a
 * locked weak value still exposes the zone). Only a setting some plans lack is read as "not
 * offered" from `editable: false`. One entry per setting a rule may read (ZONE_SETTINGS; its test
 * holds the two lists equal); each cites the vendor page it was checked against.
 */
export const OFFERED_ON_EVERY_PLAN: Readonly<Record<string, boolean>> = {
  // Checked 2026-12 against the vendor's pages named below. "Availability table" is the page's table
  // (Free, Pro, Business, Enterprise: Yes); "plan availability" is the API reference operation's
  // free/pro/business/enterprise flags. Where neither was found, the comment says what was.
  // vendor docs: "Cloudflare SSL/TLS" (the product overview: available on all plans); the page of the
  // encryption modes was not found with its availability table. Only the mode value
  // "strict (SSL-only origin pull)" is Enterprise's; the setting is every zone's.
  ssl: true,
  // vendor docs: "Minimum TLS Version": availability table, Yes on all four plans.
  min_tls_version: true,
  // vendor docs: "TLS protocols" (every zone supports TLS 1.3) and "Minimum TLS Version" (TLS 1.3 "if
  // enabled", the tls_1_3 setting); the TLS 1.3 page's availability table was not found.
  tls_1_3: true,
  // vendor docs: "Enforce HTTPS connections" (Always Use HTTPS, with no plan named); the Always Use
  // HTTPS page's availability table was not found.
  always_use_https: true,
  // vendor docs: "Automatic HTTPS Rewrites": availability table, Yes on all four plans.
  automatic_https_rewrites: true,
  // vendor docs: "HTTP Strict Transport Security (HSTS)": availability table, Yes on all four plans.
  security_header: true,
  // vendor docs: "Security Level": set to Medium by default on every zone; only the value "off" is
  // Enterprise's (a value, not the setting). No availability table on the page.
  security_level: true,
  // Browser Integrity Check: the vendor's page with an availability table was not found; not
  // verified in this pass.
  browser_check: true,
  // vendor docs: WAF managed rules (previous version): Pro, Business and Enterprise only; Free zones
  // never had the switch (not re-checked in this pass). Not offered on every plan, so editable
  // false there means not offered.
  waf: false,
  // Development Mode: the vendor's page with an availability table was not found; the API reference
  // (zones, development_mode) gives every zone the field. Not verified in this pass.
  development_mode: true,
  // vendor docs: "Always Online": availability table, Yes on all four plans (the crawl interval differs).
  always_online: true,
  // vendor docs: "Email Address Obfuscation": turned on for every zone when it signs up; no
  // availability table on the page.
  email_obfuscation: true,
  // vendor's API reference: "Get Hotlink Protection setting": plan availability free, pro, business, enterprise.
  hotlink_protection: true,
  // vendor's API reference: "Get IP Geolocation setting": plan availability free, pro, business, enterprise.
  ip_geolocation: true,
  // vendor's API reference: "Get Challenge TTL setting": plan availability free, pro, business,
  // enterprise (vendor docs "Challenge Passage" has no table).
  challenge_ttl: true,
};

/** Whether every plan offers the setting (an id no rule declares: not known to, so not assumed). */
export function offeredOnEveryPlan(id: string): boolean {
  return OFFERED_ON_EVERY_PLAN[id] === true;
}
