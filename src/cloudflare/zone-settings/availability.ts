/**
 * Which zone settings every plan offers. The API answers `editable: false` both when the plan does not offer a
 * setting and when its value is locked (by the plan or an account policy): for a setting every plan has, it can only
 * mean locked, and the value still applies, so it is judged. One entry per setting a rule may read (ZONE_SETTINGS;
 * its test holds the two lists equal), each citing the vendor page it was checked against.
 */
export const OFFERED_ON_EVERY_PLAN: Readonly<Record<string, boolean>> = {
  // Checked 2026-12. "Availability table": the page's table (Free, Pro, Business, Enterprise: Yes); "plan
  // availability": the API reference operation's free/pro/business/enterprise flags; else what was found.
  // vendor docs: "Cloudflare SSL/TLS" (available on all plans; the encryption modes page's table was not found).
  // Only the mode value "strict (SSL-only origin pull)" is Enterprise's; the setting is every zone's.
  ssl: true,
  // vendor docs: "Minimum TLS Version": availability table, Yes on all four plans.
  min_tls_version: true,
  // vendor docs: "TLS protocols" (every zone supports TLS 1.3) and "Minimum TLS Version" (TLS 1.3 "if enabled").
  tls_1_3: true,
  // vendor docs: "Enforce HTTPS connections" (Always Use HTTPS, no plan named); its page's table was not found.
  always_use_https: true,
  // vendor docs: "Automatic HTTPS Rewrites": availability table, Yes on all four plans.
  automatic_https_rewrites: true,
  // vendor docs: "HTTP Strict Transport Security (HSTS)": availability table, Yes on all four plans.
  security_header: true,
  // vendor docs: "Security Level": Medium by default on every zone; only the value "off" is Enterprise's. No table.
  security_level: true,
  // Browser Integrity Check: the vendor's page with an availability table was not found; not verified in this pass.
  browser_check: true,
  // vendor docs: WAF managed rules (previous version): Pro, Business and Enterprise only (not re-checked in this
  // pass). Not offered on every plan, so editable false there means not offered.
  waf: false,
  // Development Mode: no availability table found; the API reference (zones, development_mode) gives every zone it. Not verified.
  development_mode: true,
  // vendor docs: "Always Online": availability table, Yes on all four plans (the crawl interval differs).
  always_online: true,
  // vendor docs: "Email Address Obfuscation": turned on for every zone when it signs up; no availability table.
  email_obfuscation: true,
  // vendor's API reference: "Get Hotlink Protection setting": plan availability free, pro, business, enterprise.
  hotlink_protection: true,
  // vendor's API reference: "Get IP Geolocation setting": plan availability free, pro, business, enterprise.
  ip_geolocation: true,
  // vendor's API reference: "Get Challenge TTL setting": plan availability all four (vendor docs "Challenge Passage": no table).
  challenge_ttl: true,
};

/** Whether every plan offers the setting (an id no rule declares: not known to, so not assumed). */
export function offeredOnEveryPlan(id: string): boolean {
  return OFFERED_ON_EVERY_PLAN[id] === true;
}
