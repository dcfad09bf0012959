/**
 * The demo organisation: Tailspin Toys, a fictional toy retailer, as its zones might look in late
 * 2026. Most zones run the new managed rules with custom rules and rate limiting; Wingtip Toys,
 * bought in 2025, still has two zones on the previous WAF and firewall rules. What a first audit of
 * such an organisation finds: one critical, a few highs, and the gaps every real organisation has
 * (rate limiting missing here and there, a campaign site set up in a hurry, a staging zone).
 * `zonewarden demo` scans, audits and reports it; docs and the tests of the demo refer to its zones
 * by name (test/emulator/demo-dataset.test.ts and test/policy/demo-audit.test.ts pin them down).
 * Every check's failing and passing cases, and the hostile strings reports must escape, are in the
 * tests' own organisation (test/support/case-dataset.ts), not here.
 *
 * The organisation, and what a first audit finds (`zonewarden demo`; test/policy/demo-audit.test.ts
 * holds the same list):
 *
 * | account                    | zone                          | plan       | managed rules  | failing (severity)                             |
 * |----------------------------|-------------------------------|------------|----------------|------------------------------------------------|
 * | Tailspin Toys (enterprise) | tailspintoys.example          | enterprise | migrated       | dns-record-not-proxied: the help desk's CNAME  |
 * |                            |                               |            |                | left DNS-only (low)                            |
 * |                            | tailspintoys-api.example      | enterprise | new            | custom-rules-broad-skip: managed rules skipped |
 * |                            |                               |            |                | for the whole v1 host (high);                  |
 * |                            |                               |            |                | ip-geolocation-off (info)                      |
 * |                            | tailspintoys-cdn.example      | enterprise | migrated       | none                                           |
 * |                            | tailspintoys-eu.example       | enterprise | new            | certificate-expiry: 5 days left, not renewed   |
 * |                            |                               |            |                | (high)                                         |
 * |                            | tailspintoys-status.example   | pro        | new            | dns-dangling-target: a CNAME to the status     |
 * |                            |                               |            |                | page given up (high)                           |
 * |                            | tailspin.example              | pro        | new            | redirects only: rate-limiting-missing (medium),|
 * |                            |                               |            |                | firewall-no-blocking-rules,                    |
 * |                            |                               |            |                | owasp-ruleset-not-deployed (low)               |
 * | Tailspin Toys Marketing    | tailspin-holiday.example      | pro        | new            | campaign launched in a hurry: under-attack-    |
 * |                            |                               |            |                | left-on, rate-limiting-missing, bot-fight-     |
 * |                            |                               |            |                | mode-off, email-dmarc-missing: p=none (medium);|
 * |                            |                               |            |                | owasp-ruleset-not-deployed, bot-ai-bots-not-   |
 * |                            |                               |            |                | blocked (low)                                  |
 * |                            | tailspintoys-blog.example     | pro        | new            | managed-ruleset-not-deployed: overridden to    |
 * |                            |                               |            |                | log (high); owasp-ruleset-not-deployed (low)   |
 * |                            | tailspin-rewards.example      | business   | new            | none                                           |
 * |                            | buildwithtailspin.example     | free       | new            | hsts-weak: off, caa-missing (medium);          |
 * |                            |                               |            |                | bot-fight-mode-off, hotlink-protection-off,    |
 * |                            |                               |            |                | bot-ai-bots-not-blocked (low)                  |
 * | Tailspin Toys Engineering  | tailspintoys-staging.example  | business   | new            | rate-limiting-missing (medium);                |
 * |                            |                               |            |                | development-mode-on, dns-wildcard-record: the  |
 * |                            |                               |            |                | previews (low)                                 |
 * |                            | tailspintoys-preview.example  | business   | new            | added 2 days ago: zone-not-active,             |
 * |                            |                               |            |                | certificate-pack-unhealthy (medium)            |
 * | Wingtip Toys (bought 2025) | wingtiptoys.example           | business   | previous WAF   | certificate-expiry: expired 2 days ago         |
 * |                            |                               |            |                | (critical); migration-pending, email-dkim-     |
 * |                            |                               |            |                | missing, dnssec-not-active,                    |
 * |                            |                               |            |                | rate-limiting-missing (medium);                |
 * |                            |                               |            |                | ssl-mode-insecure: full (low)                  |
 * |                            | wingtiptoys-wholesale.example | business   | previous WAF   | dns-origin-exposed: the EDI host (DNS-only:    |
 * |                            |                               |            |                | the one finding it gets), origin-pulls-off     |
 * |                            |                               |            |                | (high); migration-pending, rate-limiting-      |
 * |                            |                               |            |                | missing (medium); filter-orphaned (low)        |
 * |                            | wingtip.example               | pro        | migrated       | rate-limiting-missing (medium)                 |
 * | Tailspin Toys Japan        | tailspintoys-jp.example       | business   | new            | not a member yet: invite-pending (low)         |
 *
 * Members: Tailspin Toys Marketing's agency analyst (Analytics, read-only) signs in without
 * two-factor authentication: account-member-no-2fa (medium), named m***@brightwave-agency.example.
 * Client-side security and security.txt (withGroupStandard below): on and published everywhere but
 * wingtiptoys.example (client-side-security-off, medium) and tailspin-holiday.example
 * (security-txt-missing, low); Tailspin Toys Engineering has no notification policy for the
 * client-side alerts (client-side-script-alert-missing, medium), the other accounts send both.
 *
 * "migrated": moved from the previous WAF to the new managed rules (migration state complete);
 * "new": created on the new managed rules (state none). The second run of `zonewarden demo` renews
 * the EU certificate, edits a DNS record's TTL and pauses a firewall rule (demo-changes.ts).
 *
 * Its public addresses are in the documentation ranges (RFC 5737, RFC 3849), which the demo's rule
 * settings name as stand-ins for public ones (src/cli/commands/demo.ts). Its origins are in
 * 203.0.113.0/24, the range the example custom rule (docs/examples/rules) guards. Its mail is
 * hosted at mailhost.example.net, whose hosts the emulator's DNS world knows (src/emulator/dns/world.ts).
 *
 * Everything is deterministic: times are relative to the emulator's clock, ids are derived by the
 * loader from names, DKIM keys from the zone's name.
 */
import { createHash } from 'node:crypto';
import { ago, caaData, CA_DOMAIN, daysFromNow, dns, executeManaged, hardened, inline, using, type Ca, type Rec } from './compose.js';
import { certPack, universal } from './compose-certificates.js';
import { legacyWaf } from './compose-legacy-waf.js';
import type {
  DatasetAccount,
  DatasetCertificatePack,
  DatasetCustomRule,
  DatasetDnsRecord,
  DatasetFile,
  DatasetInvite,
  DatasetMember,
  DatasetRateLimitRule,
  DatasetSecurity,
  DatasetZone,
} from './format.js';
import { MANAGED_RULESET_ID, OWASP_RULESET_ID } from '../waf-mapping.js';

const NS = ['lara.ns.dnshost.example', 'otto.ns.dnshost.example'];
const MAIL_PROVIDER = 'mailhost.example.net';

// Mail

/** DER of a 2048-bit RSA SubjectPublicKeyInfo up to the modulus (RFC 5280 A.1, RFC 8017 A.1.1), and after it the exponent 65537. */
const RSA_2048_SPKI_HEAD = Buffer.from('30820122300d06092a864886f70d01010105000382010f003082010a0282010100', 'hex');
const RSA_EXPONENT_65537 = Buffer.from('0203010001', 'hex');

/**
 * A DKIM public key record's text: a 2048-bit RSA public key in a SubjectPublicKeyInfo, as mail
 * providers publish it (RFC 6376 3.6.1), its modulus derived from the zone's name (odd, top bit
 * set) so that every demo zone has a key of its own that parses as an RSA key.
 */
function dkimKey(zone: string): string {
  const modulus = Buffer.concat(Array.from({ length: 8 }, (_, i) => createHash('sha256').update(`${zone}/${i}`).digest()));
  modulus[0] = modulus[0]! | 0x80;
  modulus[255] = modulus[255]! | 0x01;
  return `v=DKIM1; k=rsa; p=${Buffer.concat([RSA_2048_SPKI_HEAD, modulus, RSA_EXPONENT_65537]).toString('base64')}`;
}

/** Mail at the organisation's provider: MX pair, SPF, an enforcing DMARC policy and a DKIM key. */
function sendsMail(zone: string, options: { dkim?: boolean; dmarc?: 'reject' | 'quarantine' | 'none' } = {}): Rec[] {
  return [
    ['MX', '@', `mx1.${MAIL_PROVIDER}`, { priority: 10 }],
    ['MX', '@', `mx2.${MAIL_PROVIDER}`, { priority: 20 }],
    ['TXT', '@', `v=spf1 include:_spf.${MAIL_PROVIDER} -all`],
    ['TXT', '_dmarc', `v=DMARC1; p=${options.dmarc ?? 'reject'}; rua=mailto:dmarc@tailspintoys.example`],
    ...(options.dkim === false ? [] : [['TXT', 'selector1._domainkey', dkimKey(zone)] as Rec]),
  ];
}

/** A domain that sends no mail says so: SPF allowing no sender, DMARC rejecting everything. */
function sendsNoMail(): Rec[] {
  return [
    ['TXT', '@', 'v=spf1 -all'],
    ['TXT', '_dmarc', 'v=DMARC1; p=reject; rua=mailto:dmarc@tailspintoys.example'],
  ];
}

/** CAA for the universal pack's CA and where to report refused requests. */
function caaFor(zone: string, ...cas: Ca[]): DatasetDnsRecord[] {
  return [...cas.map((ca) => caaData(zone, 0, 'issue', CA_DOMAIN[ca])), caaData(zone, 0, 'iodef', 'mailto:security@tailspintoys.example')];
}

// Security as the platform team sets it up

const OFFICE = '203.0.113.64/27';
const VPN = '198.51.100.0/26';
const SANCTIONS = 'ip.src.country in {"CU" "IR" "KP" "SY"}';

/** The custom rules every storefront starts from: sanctions, admin paths and config file probes. */
function baselineCustomRules(...extra: DatasetCustomRule[]): DatasetCustomRule[] {
  return [
    { action: 'block', expression: SANCTIONS, description: 'Sanctioned countries (legal, reviewed quarterly)' },
    { action: 'block', expression: `starts_with(http.request.uri.path, "/admin") and not ip.src in {${OFFICE} ${VPN}}`, description: 'Admin only from the office and the VPN' },
    { action: 'block', expression: 'http.request.uri.path contains "/.env" or http.request.uri.path contains "/.git/"', description: 'Config file probes' },
    ...extra,
  ];
}

const loginLimit = (path: string, requests: number): DatasetRateLimitRule => ({
  action: 'managed_challenge',
  expression: `http.request.uri.path eq "${path}" and http.request.method eq "POST"`,
  description: `Sign-in attempts (${path})`,
  ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: requests, mitigation_timeout: 600 },
});

/** The OWASP core ruleset after the managed ruleset, as the platform team deploys both. */
const MANAGED_AND_OWASP = [executeManaged(), { action: 'execute' as const, expression: 'true', description: 'Cloudflare OWASP Core Ruleset', action_parameters: { id: OWASP_RULESET_ID } }];

/**
 * Super Bot Fight Mode challenging likely bots and blocking definite ones (Pro: definite only), with
 * JavaScript detections on and AI bots blocked, as the platform team sets up every paid zone.
 */
const SBFM_BUSINESS = { sbfm_definitely_automated: 'block', sbfm_likely_automated: 'managed_challenge', sbfm_verified_bots: 'allow', enable_js: true, ai_bots_protection: 'block' } as const;
const SBFM_PRO = { sbfm_definitely_automated: 'block', sbfm_verified_bots: 'allow', enable_js: true, ai_bots_protection: 'block' } as const;

interface ZoneSpec {
  name: string;
  plan: 'free' | 'pro' | 'business' | 'enterprise';
  status?: DatasetZone['status'];
  /** Days since the zone was created. */
  age: number;
  /** Days since it was activated (default its age; null: not yet) and last modified (default its age, at most 12). */
  activated?: number | null;
  modified?: number;
  ca: Ca;
  /** Days since the universal certificate was issued. Default the zone's age, at most 29. */
  issued?: number;
  /** Days the universal certificate has left (it is a 90-day one). Default 61. */
  certificateDaysLeft?: number;
  security: DatasetSecurity;
  records: Rec[];
  /** Beyond the CAA records of the universal pack's CA. */
  extraRecords?: DatasetDnsRecord[];
  caa?: DatasetDnsRecord[];
  extraPacks?: DatasetCertificatePack[];
  /** Instead of the universal pack and the extra ones. */
  packs?: DatasetCertificatePack[];
  /** The previous API's objects: filters, firewall rules and the previous WAF. */
  legacy?: Pick<DatasetZone, 'filters' | 'firewall_rules' | 'waf'>;
  /** Default none: created since the new managed rules. */
  migration?: DatasetZone['migration'];
}

/** A zone of the organisation by name: `spec` says what is its own. */
function named(name: string, spec: (name: string) => Omit<ZoneSpec, 'name'>): () => DatasetZone {
  return () => zone({ name, ...spec(name) });
}

function zone(spec: ZoneSpec): DatasetZone {
  const { name, age } = spec;
  return {
    name,
    plan: spec.plan,
    ...(spec.status && { status: spec.status }),
    created_on: ago(age),
    activated_on: spec.activated === null ? null : ago(spec.activated ?? age),
    modified_on: ago(spec.modified ?? Math.min(age, 12)),
    name_servers: NS,
    security: spec.security,
    dns_records: [...dns(name, spec.records), ...(spec.caa ?? caaFor(name, spec.ca)), ...(spec.extraRecords ?? [])],
    certificate_packs: spec.packs ?? [universal(name, spec.ca, 90, spec.certificateDaysLeft ?? 61, ago(spec.issued ?? Math.min(age, 29))), ...(spec.extraPacks ?? [])],
    ...spec.legacy,
    migration: spec.migration ?? { state: 'none' },
  };
}

// Tailspin Toys: the storefronts, the API, assets and the status page

const tailspintoys = named('tailspintoys.example', (name) => ({
  plan: 'enterprise',
  age: 2550,
  activated: 2549,
  modified: 6,
  ca: 'lets_encrypt',
  security: hardened({
    settings: { security_header: { enabled: true, max_age: 63_072_000, include_subdomains: true, preload: true, nosniff: true } },
    custom_rules: baselineCustomRules(
      // The payment provider's webhooks from its published range only: a narrow skip.
      { action: 'skip', expression: `http.request.uri.path eq "/webhooks/payments" and ip.src in {198.51.100.96/28}`, description: 'Payment provider webhooks skip the managed rules', action_parameters: { phases: ['http_request_firewall_managed'] } },
      { action: 'managed_challenge', expression: 'http.request.uri.path eq "/checkout/gift-cards" and not cf.client.bot', description: 'Gift card balance checks (card testing)' },
    ),
    ratelimit_rules: [loginLimit('/account/sign-in', 10), loginLimit('/checkout/gift-cards', 5)],
    bot_management: SBFM_BUSINESS,
  }),
  records: [
    ['A', '@', '203.0.113.10', { proxied: true }],
    ['AAAA', '@', '2001:db8:10::10', { proxied: true }],
    ['CNAME', 'www', name, { proxied: true }],
    ['A', 'shop', '203.0.113.11', { proxied: true, comment: 'Storefront (k8s ingress)' }],
    ['A', 'checkout', '203.0.113.12', { proxied: true }],
    ['CNAME', 'images', 'tailspintoys-cdn.example', { proxied: true }],
    // The help desk's hosted portal, left DNS-only when it was set up.
    ['CNAME', 'help', 'tailspintoys.helpdesk.example.com', { comment: 'Hosted help desk' }],
    ['A', 'sftp', '203.0.113.40', { comment: 'Supplier price lists (SFTP)' }],
    ...sendsMail(name),
    ['TXT', '@', 'site-verification=3b9f1c7e42d05a86'],
  ],
  caa: caaFor(name, 'lets_encrypt', 'digicert'),
  extraPacks: [certPack({ type: 'advanced', hosts: [name, `www.${name}`, `shop.${name}`, `checkout.${name}`], ca: 'digicert', validityDays: 365, expiresIn: 204 })],
  legacy: {
    firewall_rules: [
      inline('block', SANCTIONS.replace('ip.src.country', 'ip.geoip.country'), 'Sanctioned countries', { priority: 1 }),
      inline('managed_challenge', 'http.request.uri.path contains "/account/sign-in"', 'Sign-in page', { priority: 2 }),
    ],
    // Migrated last year: the previous WAF it ran (its endpoints are gone now) was deployed as the new managed rules.
    waf: legacyWaf({ sensitivity: 'medium', actionMode: 'block' }),
  },
  migration: { state: 'complete', since: ago(420), source: 'dashboard' },
}));

const tailspintoysApi = named('tailspintoys-api.example', (name) => ({
  plan: 'enterprise',
  age: 1300,
  ca: 'google',
  security: hardened({
    managed_rules: MANAGED_AND_OWASP,
    custom_rules: [
      { action: 'block', expression: SANCTIONS, description: 'Sanctioned countries (legal, reviewed quarterly)' },
      { action: 'block', expression: 'not http.request.method in {"GET" "POST" "PUT" "PATCH" "DELETE" "OPTIONS"}', description: 'Methods the API does not take' },
      // Put in for an app release that the managed rules blocked, and never narrowed.
      { action: 'skip', expression: `http.host eq "v1.${name}"`, description: 'Mobile app 3.x false positives (SEC-412)', action_parameters: { phases: ['http_request_firewall_managed'] } },
    ],
    ratelimit_rules: [
      { action: 'block', expression: `http.host in {"v1.${name}" "v2.${name}"}`, description: 'API calls per client', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 600, mitigation_timeout: 60 } },
    ],
    // Bot Management for Enterprise: the API's custom rules use the bot score; the developer portal gets JavaScript detections.
    bot_management: { subscription: true, enable_js: true, ai_bots_protection: 'block' },
    // The API serves no country-specific content, so its origin is not told the visitor's country.
    settings: { ip_geolocation: 'off' },
  }),
  records: [
    ['A', '@', '203.0.113.20', { proxied: true, comment: 'Developer portal' }],
    ['A', 'v1', '203.0.113.21', { proxied: true }],
    ['A', 'v2', '203.0.113.22', { proxied: true }],
    ['CNAME', 'partners', `v2.${name}`, { proxied: true }],
    ...sendsNoMail(),
  ],
}));

const tailspintoysCdn = named('tailspintoys-cdn.example', (name) => ({
  plan: 'enterprise',
  age: 2200,
  modified: 40,
  ca: 'lets_encrypt',
  certificateDaysLeft: 44,
  issued: 46,
  security: hardened({
    custom_rules: [{ action: 'block', expression: 'not http.request.method in {"GET" "HEAD" "OPTIONS"}', description: 'Assets are read only' }],
    ratelimit_rules: [
      { action: 'block', expression: 'starts_with(http.request.uri.path, "/resize/")', description: 'Image resizing per client', ratelimit: { period: 10, requests_per_period: 200, mitigation_timeout: 60 } },
    ],
    bot_management: SBFM_BUSINESS,
  }),
  records: [
    ['A', '@', '203.0.113.30', { proxied: true, comment: 'Object storage gateway' }],
    ['AAAA', '@', '2001:db8:30::30', { proxied: true }],
    ['CNAME', 'static', name, { proxied: true }],
    ...sendsNoMail(),
  ],
  legacy: { waf: legacyWaf({ sensitivity: 'low', actionMode: 'challenge' }) },
  migration: { state: 'complete', since: ago(760), source: 'api' },
}));

const tailspintoysEu = named('tailspintoys-eu.example', (name) => ({
  plan: 'enterprise',
  age: 1100,
  ca: 'lets_encrypt',
  // Inside the 30-day renewal window of a 90-day certificate with 5 days left: the renewal has not happened.
  certificateDaysLeft: 5,
  security: hardened({
    managed_rules: MANAGED_AND_OWASP,
    custom_rules: baselineCustomRules(),
    ratelimit_rules: [loginLimit('/konto/anmelden', 10)],
    bot_management: SBFM_BUSINESS,
  }),
  records: [
    ['A', '@', '203.0.113.50', { proxied: true }],
    ['AAAA', '@', '2001:db8:50::50', { proxied: true }],
    ['CNAME', 'www', name, { proxied: true }],
    ['CNAME', 'images', 'tailspintoys-cdn.example', { proxied: true }],
    ...sendsMail(name),
  ],
}));

const tailspintoysStatus = named('tailspintoys-status.example', (name) => ({
  plan: 'pro',
  age: 900,
  ca: 'google',
  security: hardened({ managed_rules: MANAGED_AND_OWASP, bot_management: SBFM_PRO }),
  // The status page is hosted (DNS-only, so that it stays up when the proxy is the incident).
  records: [
    ['CNAME', 'www', 'tailspintoys.status-host.example.com', { comment: 'Hosted status page' }],
    // The provider before that, given up in 2024: the name there no longer exists, and anyone who
    // signs up for it there serves this host.
    ['CNAME', 'legacy', 'tailspintoys.oldstatus.example.com', { comment: 'Old status page, linked from 2023 incident reports' }],
    ...sendsNoMail(),
  ],
}));

const tailspin = named('tailspin.example', (name) => ({
  plan: 'pro',
  age: 1400,
  ca: 'google',
  // Redirects only (to tailspintoys.example): the apex points at the documentation address the
  // vendor suggests for an originless proxied hostname.
  security: hardened({ bot_management: SBFM_PRO }),
  records: [
    ['A', '@', '192.0.2.1', { proxied: true, comment: 'Redirect only' }],
    ['CNAME', 'www', name, { proxied: true }],
    ...sendsNoMail(),
  ],
}));

// Tailspin Toys Marketing: campaign and community sites

const tailspinHoliday = named('tailspin-holiday.example', (name) => ({
  plan: 'pro',
  age: 45,
  ca: 'google',
  certificateDaysLeft: 46,
  security: hardened({
    // Switched on for the bot wave of the launch weekend, three days ago, and still on.
    settings: { security_level: 'under_attack' },
    settings_modified_on: { security_level: ago(3) },
    custom_rules: [{ action: 'block', expression: SANCTIONS, description: 'Sanctioned countries (legal, reviewed quarterly)' }],
  }),
  records: [
    ['A', '@', '203.0.113.60', { proxied: true, comment: 'Campaign site (agency hosting)' }],
    ['CNAME', 'www', name, { proxied: true }],
    // Newsletters go out from the campaign tool, which signs them with its own key.
    ['TXT', '@', 'v=spf1 include:_spf.campaigns.example.com -all'],
    ['CNAME', 'cm._domainkey', 'cm.dkim.campaigns.example.com'],
    ['TXT', '_dmarc', 'v=DMARC1; p=none; rua=mailto:dmarc@tailspintoys.example'],
  ],
}));

const tailspintoysBlog = named('tailspintoys-blog.example', (name) => ({
  plan: 'pro',
  age: 1350,
  ca: 'lets_encrypt',
  security: hardened({
    // Set to log after the managed rules blocked an editor's post in the admin, and left there.
    managed_rules: [executeManaged({ action_parameters: { id: MANAGED_RULESET_ID, overrides: { action: 'log' } } })],
    custom_rules: [
      { action: 'block', expression: 'http.request.uri.path eq "/xmlrpc.php"', description: 'XML-RPC (pingback abuse)' },
      { action: 'managed_challenge', expression: 'http.request.uri.path eq "/wp-login.php"', description: 'WordPress sign-in' },
    ],
    ratelimit_rules: [loginLimit('/wp-login.php', 5)],
    bot_management: SBFM_PRO,
  }),
  records: [
    ['CNAME', '@', 'tailspintoys.wphost.example.net', { proxied: true, comment: 'Managed WordPress hosting' }],
    ['CNAME', 'www', name, { proxied: true }],
    ...sendsNoMail(),
  ],
}));

const tailspinRewards = named('tailspin-rewards.example', (name) => ({
  plan: 'business',
  age: 500,
  ca: 'google',
  security: hardened({
    managed_rules: MANAGED_AND_OWASP,
    custom_rules: baselineCustomRules({ action: 'managed_challenge', expression: 'http.request.uri.path eq "/redeem" and cf.client.bot', description: 'Points redemption by bots' }),
    ratelimit_rules: [loginLimit('/sign-in', 10)],
    bot_management: SBFM_BUSINESS,
  }),
  records: [
    ['A', '@', '203.0.113.70', { proxied: true }],
    ['AAAA', '@', '2001:db8:70::70', { proxied: true }],
    ['CNAME', 'www', name, { proxied: true }],
    ...sendsMail(name),
  ],
}));

const buildWithTailspin = named('buildwithtailspin.example', (name) => ({
  plan: 'free',
  age: 800,
  ca: 'lets_encrypt',
  // The community team's own zone: HTTPS enforced and TLS 1.2, the rest as the Free plan starts.
  security: {
    settings: { ssl: 'strict', min_tls_version: '1.2', always_use_https: 'on' },
    dnssec: 'active',
    dnssec_since: ago(790),
    custom_rules: [{ action: 'managed_challenge', expression: 'http.request.uri.path eq "/submit" and http.request.method eq "POST"', description: 'Project submissions' }],
    ratelimit_rules: [loginLimit('/login', 10)],
  },
  records: [
    ['A', '@', '198.51.100.80', { proxied: true, comment: 'Community forum' }],
    ['CNAME', 'www', name, { proxied: true }],
    ...sendsNoMail(),
  ],
  caa: [],
}));

// Tailspin Toys Engineering: staging and the zone being added

const tailspintoysStaging = named('tailspintoys-staging.example', (name) => ({
  plan: 'business',
  age: 1100,
  ca: 'google',
  security: hardened({
    // Entered an hour ago to try a stylesheet change: two of its three hours left.
    settings: { development_mode: 'on' },
    settings_modified_on: { development_mode: 'now-1h' },
    managed_rules: MANAGED_AND_OWASP,
    custom_rules: [{ action: 'block', expression: `not ip.src in {${OFFICE} ${VPN}}`, description: 'Staging only from the office and the VPN' }],
    bot_management: SBFM_BUSINESS,
  }),
  records: [
    ['A', '@', '203.0.113.90', { proxied: true }],
    ['CNAME', 'www', name, { proxied: true }],
    // One name per pull request, each a preview deployment.
    ['CNAME', '*', `previews.${name}`, { proxied: true, comment: 'Pull request previews' }],
    ['A', 'previews', '203.0.113.91', { proxied: true }],
    ...sendsNoMail(),
  ],
}));

const tailspintoysPreview = named('tailspintoys-preview.example', (name) => ({
  plan: 'business',
  status: 'pending',
  age: 2,
  activated: null,
  ca: 'google',
  // Set up from the platform team's template; DNSSEC waits for the zone to be active.
  security: hardened({ dnssec: 'disabled', managed_rules: MANAGED_AND_OWASP, custom_rules: baselineCustomRules(), ratelimit_rules: [loginLimit('/sign-in', 10)], bot_management: SBFM_BUSINESS }),
  // DNS only until the registrar points at the assigned name servers and the zone turns active.
  records: [
    ['A', '@', '203.0.113.95'],
    ['CNAME', 'www', name],
    ...sendsNoMail(),
  ],
  // Issued once the zone is active.
  packs: [certPack({ hosts: [name, `*.${name}`], ca: 'google', validityDays: 90, expiresIn: null, status: 'pending_validation', created: ago(2) })],
}));

// Wingtip Toys: bought in 2025, still on the previous WAF and firewall rules

const wingtiptoys = named('wingtiptoys.example', (name) => ({
  plan: 'business',
  age: 3200,
  modified: 15,
  ca: 'lets_encrypt',
  // The renewal failed two days ago; the pack still reads active.
  certificateDaysLeft: -2,
  issued: 3200,
  security: hardened({
    settings: { ssl: 'full' },
    dnssec: 'disabled',
    bot_management: SBFM_BUSINESS,
    // Its firewall rules as the vendor's upgrade made them custom rules (the previous API still lists them).
    custom_rules: [
      { action: 'block', expression: SANCTIONS, description: 'Sanctioned countries' },
      { action: 'managed_challenge', expression: 'http.request.uri.path contains "/wp-login.php" or http.request.uri.path contains "/xmlrpc.php"', description: 'WordPress probes' },
      { action: 'block', expression: 'http.user_agent contains "sqlmap" or http.user_agent contains "nikto"', description: 'Attack tools' },
    ],
  }),
  records: [
    ['A', '@', '192.0.2.20', { proxied: true }],
    ['CNAME', 'www', name, { proxied: true }],
    ['A', 'shop', '192.0.2.21', { proxied: true }],
    // Wingtip's own mail server, not yet moved to the group's provider.
    ['MX', '@', 'mail.wingtiptoys.example', { priority: 10 }],
    ['A', 'mail', '192.0.2.25'],
    ['TXT', '@', 'v=spf1 mx -all'],
    ['TXT', '_dmarc', 'v=DMARC1; p=quarantine; rua=mailto:postmaster@wingtiptoys.example'],
  ],
  legacy: {
    firewall_rules: [
      inline('block', 'ip.geoip.country in {"CU" "IR" "KP" "SY"}', 'Sanctioned countries', { priority: 1 }),
      inline('managed_challenge', 'http.request.uri.path contains "/wp-login.php" or http.request.uri.path contains "/xmlrpc.php"', 'WordPress probes', { priority: 2 }),
      inline('allow', 'ip.src in {192.0.2.128/26}', 'Wingtip office', { priority: 3 }),
      // The payment provider's notifications pass the WAF: migrated as a skip rule.
      inline('bypass', 'http.request.uri.path eq "/payment/notify" and ip.src in {198.51.100.96/28}', 'Payment notifications pass the WAF', { products: ['waf'], priority: 4 }),
      inline('block', 'http.user_agent contains "sqlmap" or http.user_agent contains "nikto"', 'Attack tools', { priority: 5 }),
    ],
    waf: legacyWaf({ sensitivity: 'medium', actionMode: 'block', groupOverrides: { 'Cloudflare WordPress': 'off' } }),
  },
  migration: { state: 'start', since: ago(1000) },
}));

const wingtiptoysWholesale = named('wingtiptoys-wholesale.example', (name) => ({
  plan: 'business',
  age: 2900,
  modified: 30,
  ca: 'lets_encrypt',
  certificateDaysLeft: 38,
  issued: 2900,
  security: hardened({
    bot_management: SBFM_BUSINESS,
    // Its firewall rules as the vendor's upgrade made them custom rules (the previous API still lists them).
    custom_rules: [
      { action: 'managed_challenge', expression: 'http.request.uri.path contains "/catalogue/export"', description: 'Catalogue export by scrapers' },
      { action: 'block', expression: SANCTIONS, description: 'Sanctioned countries' },
      { action: 'block', expression: 'http.request.uri.path contains "/.env"', description: 'Config file probes' },
    ],
  }),
  records: [
    ['A', '@', '192.0.2.40', { proxied: true, comment: 'Wholesale portal' }],
    ['CNAME', 'www', name, { proxied: true }],
    // For the EDI partners who connect straight to the portal: the same machine as the proxied apex.
    ['A', 'edi', '192.0.2.40', { comment: 'EDI partners (AS2)' }],
    ...sendsMail(name),
  ],
  legacy: {
    filters: [
      { ref: 'partners', expression: 'ip.src in {198.51.100.128/26}', description: 'EDI partners' },
      { ref: 'price-scrapers', expression: 'http.request.uri.path contains "/catalogue/export"', description: 'Catalogue export' },
      // Referenced by no rule: its rule was deleted when the trade show ended.
      { ref: 'trade-show', expression: 'http.request.uri.path eq "/fair-2025"', description: 'Trade show registrations' },
    ],
    firewall_rules: [
      using('allow', 'partners', 'EDI partners', { priority: 1 }),
      using('managed_challenge', 'price-scrapers', 'Catalogue export by scrapers', { priority: 2 }),
      inline('block', 'ip.geoip.country in {"CU" "IR" "KP" "SY"}', 'Sanctioned countries', { priority: 3 }),
      inline('block', 'http.request.uri.path contains "/.env"', 'Config file probes', { priority: 4 }),
    ],
    waf: legacyWaf({ sensitivity: 'low', actionMode: 'challenge' }),
  },
  migration: { state: 'start', since: ago(1000) },
}));

const wingtip = named('wingtip.example', (name) => ({
  plan: 'pro',
  age: 2600,
  modified: 30,
  ca: 'lets_encrypt',
  certificateDaysLeft: 70,
  issued: 2600,
  security: hardened({
    custom_rules: [{ action: 'block', expression: SANCTIONS, description: 'Sanctioned countries (legal, reviewed quarterly)' }],
    bot_management: SBFM_PRO,
  }),
  records: [
    ['A', '@', '192.0.2.60', { proxied: true, comment: 'Redirects to wingtiptoys.example' }],
    ['CNAME', 'www', name, { proxied: true }],
    ...sendsNoMail(),
  ],
  legacy: { waf: legacyWaf({ sensitivity: 'medium', actionMode: 'challenge' }) },
  // The first Wingtip zone moved to the new managed rules, last month.
  migration: { state: 'complete', since: ago(30), source: 'dashboard' },
}));

// Tailspin Toys Japan: a subsidiary whose account the group's team has been invited to

const tailspintoysJp = named('tailspintoys-jp.example', (name) => ({
  plan: 'business',
  age: 700,
  ca: 'google',
  security: hardened({ managed_rules: MANAGED_AND_OWASP, custom_rules: baselineCustomRules(), bot_management: SBFM_BUSINESS }),
  records: [
    ['A', '@', '203.0.113.110', { proxied: true }],
    ['CNAME', 'www', name, { proxied: true }],
    ...sendsMail(name),
  ],
}));

// The organisation

const TAILSPIN = 'Tailspin Toys';
const MARKETING = 'Tailspin Toys Marketing';
const ENGINEERING = 'Tailspin Toys Engineering';
const WINGTIP = 'Wingtip Toys';
const JAPAN = 'Tailspin Toys Japan';

// Members (vendor docs: List Members, Roles): the user is a Super Administrator of every account;
// Engineering has no one else. Marketing's agency analyst signs in without two-factor.
const SUPER = 'Super Administrator - All Privileges';
const YOU = { email: 'admin@example.com', roles: [SUPER] };
const TAILSPIN_MEMBERS: DatasetMember[] = [
  YOU,
  { email: 'priya.raman@tailspintoys.example', first_name: 'Priya', last_name: 'Raman', roles: [SUPER] },
  { email: 'web-ops@tailspintoys.example', roles: ['Administrator'] },
  { email: 'tomas.berg@tailspintoys.example', first_name: 'Tomas', last_name: 'Berg', roles: ['DNS'] },
];
const MARKETING_MEMBERS: DatasetMember[] = [
  YOU,
  { email: 'lena.fischer@tailspintoys.example', first_name: 'Lena', last_name: 'Fischer', roles: ['Administrator'] },
  { email: 'mia.cole@brightwave-agency.example', first_name: 'Mia', last_name: 'Cole', roles: ['Analytics'], two_factor: false },
  { email: 'freelance-waf@contoso-consulting.example', roles: ['Firewall'], two_factor: false, status: 'pending' },
];
const WINGTIP_MEMBERS: DatasetMember[] = [YOU, { email: 'it@wingtiptoys.example', roles: ['Administrator'] }];
/**
 * Client-side security and a security.txt are the group's standard on every zone (set up once for
 * all), except where the table above says otherwise: Wingtip Toys' shop, bought in 2025, is not
 * under the standard yet (client-side-security-off), and the holiday campaign went live without a
 * security.txt (security-txt-missing).
 */
const NO_CLIENT_SIDE_SECURITY = new Set(['wingtiptoys.example']);
const NO_SECURITY_TXT = new Set(['tailspin-holiday.example']);

function withGroupStandard(z: DatasetZone): DatasetZone {
  const security: DatasetSecurity = { ...z.security };
  if (!NO_CLIENT_SIDE_SECURITY.has(z.name)) security.page_shield = { enabled: true, updated_at: ago(300) };
  if (!NO_SECURITY_TXT.has(z.name)) {
    security.security_txt = { contact: ['mailto:security@tailspintoys.example', 'https://tailspintoys.example/security/report'], expires: daysFromNow(200), policy: ['https://tailspintoys.example/security/policy'] };
  }
  return { ...z, security };
}

/** Both client-side alerts, to the security team, for every zone of the account. */
const CLIENT_SIDE_ALERTS: NonNullable<DatasetAccount['notification_policies']> = [
  { name: 'Client-side: malicious script', alert_type: 'scriptmonitor_alert_new_malicious_scripts', email: 'security@tailspintoys.example' },
  { name: 'Client-side: script changed', alert_type: 'scriptmonitor_alert_new_code_change_detections', email: 'security@tailspintoys.example' },
];

export function demoDataset(): DatasetFile {
  const accounts: DatasetAccount[] = [
    {
      name: TAILSPIN,
      type: 'enterprise',
      created_on: ago(2600),
      members: TAILSPIN_MEMBERS,
      zones: [tailspintoys(), tailspintoysApi(), tailspintoysCdn(), tailspintoysEu(), tailspintoysStatus(), tailspin()].map(withGroupStandard),
      notification_policies: CLIENT_SIDE_ALERTS,
    },
    {
      name: MARKETING,
      created_on: ago(1500),
      members: MARKETING_MEMBERS,
      zones: [tailspinHoliday(), tailspintoysBlog(), tailspinRewards(), buildWithTailspin()].map(withGroupStandard),
      notification_policies: CLIENT_SIDE_ALERTS,
    },
    // No notification policy: nobody hears of a script changed on the staging site (client-side-script-alert-missing).
    { name: ENGINEERING, created_on: ago(1200), zones: [tailspintoysStaging(), tailspintoysPreview()].map(withGroupStandard) },
    {
      name: WINGTIP,
      created_on: ago(3300),
      members: WINGTIP_MEMBERS,
      zones: [wingtiptoys(), wingtiptoysWholesale(), wingtip()].map(withGroupStandard),
      notification_policies: CLIENT_SIDE_ALERTS,
    },
    // Listed only once the pending invite is accepted.
    { name: JAPAN, member: false, created_on: ago(720), zones: [tailspintoysJp()] },
  ];
  const invites: DatasetInvite[] = [
    {
      account: JAPAN,
      invited_by: 'kenji.sato@tailspintoys-jp.example',
      invited_on: ago(2),
      expires_on: daysFromNow(5),
      roles: [{ name: 'Administrator Read Only', description: 'Can access the full account in read-only mode.' }],
      status: 'pending',
    },
    {
      account: WINGTIP,
      invited_by: 'it@wingtiptoys.example',
      invited_on: ago(240),
      expires_on: ago(233),
      roles: [{ name: 'Administrator', description: 'Can access the full account, except for membership management and billing.' }],
      status: 'accepted',
    },
    {
      account: MARKETING,
      invited_by: 'web-team@tailspintoys.example',
      invited_on: ago(90),
      expires_on: ago(83),
      roles: [{ name: 'Firewall', description: 'Can edit WAF, IP Firewall, and Zone Lockdown settings.' }],
      status: 'expired',
    },
  ];
  return { version: 1, user: { email: 'admin@example.com' }, accounts, invites };
}
