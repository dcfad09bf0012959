import { formatApiTime } from './clock.js';
import { stableId } from './ids.js';
import { MANAGED_PHASE } from './security.js';
import type { DnsRecord, Organisation, Plan, Zone } from './state.js';
import { MANAGED_RULESET_ID } from './waf-mapping.js';

/**
 * A model of the vendor's scanner, Security Insights, with its documented method and limits (vendor
 * docs: how it works; known limitations), so zonewarden's side-by-side meets the differences of the
 * wild: scans on the plan's schedule (a setting changed since is seen as it was), the zone's own
 * managed-phase entry point only, an override to log counted as deployed, and no account view above
 * 10,000 zones (the emulator answers an empty list). Only the insight types the emulator's data can
 * produce; `issue_class` as in src/cloudflare/security-insights/insight-types.ts.
 */

export type InsightSeverity = 'Low' | 'Moderate' | 'Critical';

/** An issue as the API serves it (vendor's API reference: security center insights, list). */
export interface InsightIssue {
  id: string;
  dismissed: boolean;
  issue_class: string;
  issue_type: string;
  payload: { detection_method: string; zone_tag: string };
  resolve_link: string;
  resolve_text: string;
  severity: InsightSeverity;
  since: string;
  status: 'active' | 'resolved';
  subject: string;
  timestamp: string;
  user_classification: 'false_positive' | 'accept_risk' | 'other' | null;
}

const DAY_MS = 86_400_000;

/** vendor docs (api-facts): Security Insights scans every 7 days on Free, every 3 on Pro and Business, daily on Enterprise. */
export const VENDOR_SCAN_DAYS: Record<Plan, number> = { free: 7, pro: 3, business: 3, enterprise: 1 };

/** vendor docs: Security Insights, known limitations: no account-level view above 10,000 zones. */
export const ACCOUNT_VIEW_ZONE_LIMIT = 10_000;

/** When the vendor last scanned the zone: every interval of its plan from the zone's creation (the phase is the emulator's choice). */
export function lastVendorScan(zone: Zone, nowMs: number): number {
  const interval = VENDOR_SCAN_DAYS[zone.plan] * DAY_MS;
  const created = Date.parse(zone.created_on);
  if (!Number.isFinite(created) || created >= nowMs) return nowMs;
  return created + Math.floor((nowMs - created) / interval) * interval;
}

/** Ids of issues dismissed through the API (PUT .../dismiss), per organisation. */
const DISMISSED = new WeakMap<Organisation, Set<string>>();

export function dismissedOf(org: Organisation): Set<string> {
  let set = DISMISSED.get(org);
  if (!set) DISMISSED.set(org, (set = new Set()));
  return set;
}

/** Every issue of the account's zones as the vendor's last scans saw them; none above 10,000 zones. */
export function accountInsights(org: Organisation, accountId: string): InsightIssue[] {
  const now = org.clock.now().getTime();
  // Memoised per minute: a client paging through the list sees one scan, not one per page.
  const issues = org.memo(`security-insights:${accountId}:${Math.floor(now / 60_000)}`, () => {
    const zones = org.state.zones.filter((z) => z.accountId === accountId);
    if (zones.length > ACCOUNT_VIEW_ZONE_LIMIT || zones.length === 0) return [];
    const account = org.accountsById.get(accountId);
    const scannedAt = Math.max(...zones.map((z) => lastVendorScan(z, now)));
    return [...zones.flatMap((z) => zoneInsights(z, lastVendorScan(z, now))), ...(account ? accountLevel(account.id, account.name, scannedAt) : [])];
  });
  const dismissed = dismissedOf(org);
  return issues.map((i) => (dismissed.has(i.id) ? { ...i, dismissed: true } : i));
}

/**
 * The account's own insight: no Turnstile widget (the emulator models none), with an empty
 * `payload.zone_tag` (the emulator's guess) and the account's name as subject.
 */
function accountLevel(accountId: string, name: string, scannedAt: number): InsightIssue[] {
  const at = formatApiTime(new Date(scannedAt));
  const payload = { detection_method: 'Turnstile widgets of the account', zone_tag: '' };
  const resolve = { link: `/${accountId}/turnstile`, text: 'Add a Turnstile widget to protect your forms from bots.' };
  return [issue(stableId('insight', accountId, 'no_turnstile_enabled'), 'no_turnstile_enabled', 'configuration_suggestion', 'Low', name, at, at, payload, resolve)];
}

/** An active issue, neither dismissed nor classified by the user. */
function issue(id: string, issueClass: string, issueType: string, severity: InsightSeverity, subject: string, since: string, timestamp: string, payload: InsightIssue['payload'], resolve: { link: string; text: string }): InsightIssue {
  const [resolve_link, resolve_text] = [resolve.link, resolve.text];
  return { id, dismissed: false, issue_class: issueClass, issue_type: issueType, payload, resolve_link, resolve_text, severity, since, status: 'active', subject, timestamp, user_classification: null };
}

/** A setting as the vendor's scan at `scannedAt` saw it: an on/off switch changed since is seen as it was. */
function seenSetting(zone: Zone, id: 'always_use_https' | 'ssl' | 'min_tls_version', scannedAt: number): unknown {
  const value = zone.security.settings[id];
  const modified = Date.parse(zone.security.modified[id] ?? zone.created_on);
  if (!(modified > scannedAt) || id !== 'always_use_https') return value;
  return value === 'on' ? 'off' : 'on';
}

function hstsSeen(zone: Zone, scannedAt: number): boolean {
  const hsts = (zone.security.settings.security_header as { strict_transport_security?: { enabled?: boolean } } | undefined)?.strict_transport_security;
  const enabled = hsts?.enabled === true;
  const modified = Date.parse(zone.security.modified.security_header ?? zone.created_on);
  return modified > scannedAt ? !enabled : enabled;
}

/** What the vendor's scan of one zone at `scannedAt` found. */
export function zoneInsights(zone: Zone, scannedAt: number): InsightIssue[] {
  const found: InsightIssue[] = [];
  const at = formatApiTime(new Date(scannedAt));
  const sinceOf = (modified: string | undefined) => {
    const t = Date.parse(modified ?? zone.created_on);
    return formatApiTime(new Date(Number.isFinite(t) && t <= scannedAt ? t : scannedAt));
  };
  const add = (issueClass: string, issueType: string, severity: InsightSeverity, subject: string, since: string, resolve: { link: string; text: string }, how: string) => {
    const payload = { detection_method: how, zone_tag: zone.id };
    found.push(issue(stableId('insight', zone.id, issueClass, subject), issueClass, issueType, severity, subject, since, at, payload, { ...resolve, link: `/${zone.accountId}/${zone.name}/${resolve.link}` }));
  };
  // A zone that does not serve traffic through the vendor yet (pending, initializing) has nothing to scan.
  if (zone.status !== 'active') return found;
  const m = zone.security.modified;
  if (seenSetting(zone, 'ssl', scannedAt) === 'off') {
    add('tls_not_enabled', 'insecure_configuration', 'Critical', zone.name, sinceOf(m.ssl), { link: 'ssl-tls', text: 'Choose an SSL/TLS encryption mode other than Off.' }, 'zone setting ssl');
  }
  const tls = seenSetting(zone, 'min_tls_version', scannedAt);
  if (tls === '1.0' || tls === '1.1') {
    add('tls_version_old', 'insecure_configuration', 'Moderate', zone.name, sinceOf(m.min_tls_version), { link: 'ssl-tls/edge-certificates', text: 'Set the minimum TLS version to 1.2 or higher.' }, 'zone setting min_tls_version');
  }
  if (seenSetting(zone, 'always_use_https', scannedAt) === 'off') {
    add('always_https_not_enabled', 'insecure_configuration', 'Moderate', zone.name, sinceOf(m.always_use_https), { link: 'ssl-tls/edge-certificates', text: 'Turn on Always Use HTTPS.' }, 'zone setting always_use_https');
  }
  if (!hstsSeen(zone, scannedAt)) {
    add('hsts_not_enabled', 'insecure_configuration', 'Moderate', zone.name, sinceOf(m.security_header), { link: 'ssl-tls/edge-certificates', text: 'Enable HTTP Strict Transport Security (HSTS).' }, 'zone setting security_header');
  }
  const records = seenRecords(zone, scannedAt);
  if (!records.some((r) => r.type === 'TXT' && r.name === `_dmarc.${zone.name}` && /^"?v=DMARC1/i.test(r.content ?? ''))) {
    add('dmarc', 'email_security', 'Moderate', zone.name, sinceOf(undefined), { link: 'dns/records', text: 'Publish a DMARC record at _dmarc.' + zone.name + '.' }, 'DNS TXT lookup');
  }
  managedRules(zone, add, sinceOf);
  if (zone.plan === 'free' && !zone.security.bots.fight_mode) {
    add('manage_bot_fight_mode', 'configuration_suggestion', 'Low', zone.name, sinceOf(undefined), { link: 'security/bots', text: 'Turn on Bot Fight Mode.' }, 'bot management configuration');
  }
  const unproxied: Record<string, string> = { A: 'a_record_not_proxied', AAAA: 'aaaa_record_not_proxied', CNAME: 'cname_record_not_proxied' };
  for (const r of records) {
    const issueClass = unproxied[r.type];
    if (!issueClass || r.proxied || !r.proxiable) continue;
    add(issueClass, 'exposed_infrastructure', 'Low', r.name, sinceOf(r.modified_on), { link: 'dns/records', text: `Proxy the ${r.type} record ${r.name} through Cloudflare.` }, 'DNS record configuration');
  }
  return found;
}

/** The records the scan saw: those not created or changed since (what they were before is not known, so they wait for the next scan). */
function seenRecords(zone: Zone, scannedAt: number): DnsRecord[] {
  return Array.from({ length: zone.dns.size }, (_, i) => zone.dns.at(i)).filter((r) => !(Date.parse(r.modified_on) > scannedAt));
}

/**
 * Managed rules as the scan judges them: a paid zone on the new managed rules whose own entry point
 * does not execute the managed ruleset is `waf_not_enabled` (vendor docs: known limitations); one
 * still on the previous managed rules, `managed_rules_old`.
 */
function managedRules(zone: Zone, add: (c: string, t: string, s: InsightSeverity, subject: string, since: string, r: { link: string; text: string }, how: string) => void, sinceOf: (m: string | undefined) => string): void {
  if (zone.plan === 'free') return;
  const state = zone.migration.state;
  if (state === 'start' || state === 'default' || state === 'validation') {
    add('managed_rules_old', 'configuration_suggestion', 'Moderate', zone.name, sinceOf(zone.migration.since), { link: 'security/waf/managed-rules', text: 'Upgrade to the new Managed Rules.' }, 'WAF configuration');
    return;
  }
  const entrypoint = zone.migration.entrypoint;
  const deployed = (entrypoint?.phase === MANAGED_PHASE ? entrypoint.rules : []).some(
    (r) => r.enabled && r.action === 'execute' && (r.action_parameters as { id?: unknown } | undefined)?.id === MANAGED_RULESET_ID,
  );
  if (!deployed) {
    add('waf_not_enabled', 'insecure_configuration', 'Critical', zone.name, sinceOf(entrypoint?.last_updated), { link: 'security/waf/managed-rules', text: 'Deploy the Cloudflare Managed Ruleset.' }, 'WAF configuration');
  }
}
