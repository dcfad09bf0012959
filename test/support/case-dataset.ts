/**
 * The tests' organisation: a fictional one whose zones exercise every audit check, each with at
 * least one failing and one passing case, with hostile strings wherever the API gives text. It was
 * the demo organisation until the demo became a realistic one (src/emulator/datasets/demo.ts);
 * the tests that pin down cases, limits and escaping use this one. Tests refer to its zones by
 * name, so renaming a zone or moving a case is a change to announce
 * (test/emulator/case-dataset.test.ts pins the cases down).
 *
 * The organisation:
 *
 * - "Acme Bank Group" (enterprise account, Enterprise zones): the bank's main site with a legacy
 *   WAF full of overrides, two zones whose firewall rule counts straddle the migration limit of
 *   200, two zones in validation mode (one stalled), and a careers site that has migrated.
 * - "Northwind Retail | EU `prod` |" (Business and Pro zones): a shop, the corporate site near its
 *   Pro rule quota, a paused blog and a staging zone still waiting for its name servers.
 * - "Sam's hobby projects" (Free zones): a few small sites, one at the free rule quota and one whose
 *   DNS publishes private addresses.
 * - "Fabrikam Outdoor" (Business, Pro and Free zones created since 2022-09, so never on the previous
 *   WAF: migration state none): the managed phase entry point written every way that matters.
 * - "Contoso Health" (enterprise account, Enterprise zones, state none): an account-level managed
 *   entry point deploying managed rules to some of its zones, and a partial (CNAME setup) zone.
 * - "Globex Partners <img ...>" (the user is not a member yet): reached through a pending invite.
 *
 * Case map (zone -> cases that fail there; every other zone passes the check):
 *
 * | zone                      | plan       | failing cases                                                       |
 * |---------------------------|------------|---------------------------------------------------------------------|
 * | acme-bank.example         | enterprise | migration-incompatible (URI overrides), migration-pending (high,    |
 * |                           |            | block), migration-overrides-lost (one OWASP rule; the vendor rule   |
 * |                           |            | overrides are carried), certificate-expiry                          |
 * |                           |            | (+5d), hostname-not-covered (v1.api: two labels under the wildcard),|
 * |                           |            | firewall-rule-inactive (paused rule, paused filter, deleted filter),|
 * |                           |            | filter-orphaned, dns-origin-exposed (A), dns-private-address        |
 * |                           |            | (10.0.0.5), bypass rule for the legacy WAF                          |
 * | acme-payments.example     | enterprise | migration-too-many-firewall-rules (201 bypass rules among 300),     |
 * |                           |            | migration-expression-too-long (a bypass rule of 4,097 bytes),       |
 * |                           |            | migration-incompatible passes (limits left to those two),           |
 * |                           |            | migration-pending (high); its 99 block rules are not counted        |
 * | acme-cards.example        | enterprise | migration-pending (medium, simulate), overrides-lost (one OWASP     |
 * |                           |            | rule); passes: bypass rules of 4,095 bytes and 4,096 characters     |
 * |                           |            | and certificate-expiry (a 30-day certificate with 25 days left)     |
 * | acme-loans.example        | enterprise | migration-validation-stalled (since now-20d); passes the limits: a  |
 * |                           |            | bypass rule of 4,097 bytes, but the zone is past the check          |
 * | acme-invest.example       | enterprise | firewall-expression-too-long (4,097 characters; in validation mode, |
 * |                           |            | so past the migration's check), certificate-pack-unhealthy          |
 * |                           |            | (validation_timed_out),                                             |
 * |                           |            | hostname-not-covered (portal: only the timed-out pack names it);    |
 * |                           |            | passes migration-validation-stalled (since now-3d)                  |
 * | acme-careers.example      | enterprise | none: migrated (complete), the clean reference zone                 |
 * | northwind-shop.example    | business   | migration-pending (low, block, no validation mode); passes          |
 * |                           |            | overrides-lost (its overrides are of the vendor's package, carried),|
 * |                           |            | firewall-duplicate-expression, hostname-not-covered                 |
 * |                           |            | (legacy: no pack; checkout: only a pending pack), bypass rule,      |
 * |                           |            | pack being issued (expires_on null, 2 hours: within the grace)      |
 * | northwind.example         | pro        | firewall-rule-quota passes: its 16 firewall rules are its custom    |
 * |                           |            | rules (custom-rules-quota counts them), migration-pending (state    |
 * |                           |            | default; sensitivity off: OWASP deployed disabled), certificate-    |
 * |                           |            | expiry (expired now-2d), filter-orphaned,                           |
 * |                           |            | dns-origin-exposed (CNAME)                                          |
 * | northwind-blog.example    | pro        | zone-not-active (paused), dns-origin-exposed (paused: its proxied   |
 * |                           |            | records answer with the origin); migrated; passes                   |
 * |                           |            | certificate-expiry (14-day certificate, 12 days left: renewal at 3) |
 * | northwind-staging.example | business   | zone-not-active (pending), legacy-waf-off (not managed-rules-dis.), |
 * |                           |            | certificate-pack-unhealthy (pending_validation for 4 days)          |
 * | tinkerer.test             | free       | firewall-rule-quota (5 of 5, high), filter-orphaned,                |
 * |                           |            | dns-origin-exposed (ssh -> apex address; SPF ip4: the apex address) |
 * | pet-photos.example.org    | free       | dns-private-address (192.168, 127, 169.254, fd00::, fe80::)         |
 * | weekend-hack.test         | free       | none (no rules, hostile TXT content only)                           |
 * | globex-partners.example   | business   | (non-member account) migration-pending (medium, block)              |
 *
 * Zone security (settings, DNSSEC, CAA, rulesets): every member zone but the Free ones is set up
 * as `hardened()` says (strict SSL, TLS 1.2, HTTPS enforced, a year of HSTS with subdomains,
 * DNSSEC active), with these exceptions; the Free zones keep the vendor's defaults for a new zone
 * (full SSL, TLS 1.0, HTTPS not enforced, no HSTS, DNSSEC disabled), so they fail those checks.
 *
 * | zone                      | failing security cases                                              |
 * |---------------------------|---------------------------------------------------------------------|
 * | acme-bank.example         | none; a skip of the managed rules for one source range passes       |
 * | acme-payments.example     | tls-minimum-version (TLS 1.0 for old payment terminals, locked:     |
 * |                           | answered `editable: false`, judged by its value all the same)       |
 * | acme-cards.example        | hsts-weak (max-age one day), dnssec-not-active (pending for 30 days)|
 * | acme-loans.example        | custom-rules-broad-skip (managed rules skipped for the whole host), |
 * |                           | custom-rules-disabled                                               |
 * | acme-invest.example       | tls-1-3-disabled, https-not-enforced (automatic rewrites off)       |
 * | acme-careers.example      | none: its managed ruleset was deployed enabled by the migration     |
 * | northwind-shop.example    | vendor defaults but SSL flexible; custom-rules-expression-too-long  |
 * | northwind.example         | ssl-mode-insecure (full), dnssec-not-active (error),                |
 * |                           | custom-rules-quota (17 of 20)                                       |
 * | northwind-blog.example    | universal-ssl-off (only the universal pack), managed-ruleset-not-   |
 * |                           | deployed (its execute rule disabled)                                |
 * | northwind-staging.example | security-level-weak (essentially_off, browser check off),           |
 * |                           | legacy-waf-off, caa-missing                                         |
 * | tinkerer.test             | vendor defaults, caa-missing; no custom rules beside its firewall   |
 * |                           | rules, so firewall-rule-quota judges them                           |
 * | pet-photos.example.org    | vendor defaults but SSL off, caa-missing                            |
 * | weekend-hack.test         | vendor defaults, caa-missing                                        |
 *
 * The API of late 2026 (Fabrikam Outdoor and Contoso Health: hardened settings, DNSSEC active, CAA
 * in the data-only shape for the universal pack's CA, unless said otherwise):
 *
 * | zone                      | plan       | failing cases (passing: fabrikam.example unless said)               |
 * |---------------------------|------------|---------------------------------------------------------------------|
 * | fabrikam.example          | business   | none: managed skip narrowed to partners before an unchanged execute |
 * |                           |            | on `true`, ssl strict, HSTS preload with two years, CAA issue       |
 * |                           |            | + iodef, a narrow custom skip                                       |
 * | fabrikam-shop-eu.example  | business   | managed skip of the apex host before the execute rule; CAA names    |
 * |                           |            | DigiCert, the universal pack is Google's; an advanced pack still    |
 * |                           |            | initializing, without created_on                                    |
 * | fabrikam-outlet.example   | pro        | managed ruleset overridden `enabled: false`; HSTS preload with half |
 * |                           |            | a year                                                              |
 * | fabrikam-rentals.example  | pro        | managed ruleset overridden to `action: log`; CAA with only iodef;   |
 * |                           |            | a DNS-only wildcard A record                                        |
 * | fabrikam-stores.example   | business   | execute rule narrowed to `/shop/`; CAA with a critical unknown tag  |
 * | fabrikam-trails.example   | free       | custom skips `{phase: current}` and `{ruleset: current}` on         |
 * |                           |            | `ip.src in {0.0.0.0/0 ::/0}` before a block rule; a record at       |
 * |                           |            | 3fff::10 (documentation prefix, not a stand-in); no managed    |
 * |                           |            | entry point (404), which a Free zone is not judged by               |
 * | contoso-clinic.example    | enterprise | none: its own entry point is empty, the account's deploys the       |
 * |                           |            | managed ruleset to it (`cf.zone.name eq`) and OWASP (`in {...}`);   |
 * |                           |            | ssl origin_pull (Enterprise only)                                   |
 * | contoso-records.example   | enterprise | empty entry point, named by no account rule: nothing deployed       |
 * | contoso-portal.example    | enterprise | none: partial setup without DNSSEC and CAA (not applicable); the    |
 * |                           |            | default managed entry point of a paid zone                          |
 *
 * Issue 31's reads (settings, bot management, origin pulls, rate limiting, custom and managed rule
 * actions); every other member zone keeps the passing value (development mode off, security level
 * not under attack, Always Online off, email obfuscation on, IP geolocation on, challenge passage
 * 1800 s, origin pulls off, no rate limiting rules):
 *
 * | check                     | failing zone(s)                         | passing zone(s)                       |
 * |---------------------------|-----------------------------------------|---------------------------------------|
 * | development mode on       | northwind-staging.example (entered 1 h  | every other zone (off)                |
 * |                           | ago: time_remaining 7200)               |                                       |
 * | under attack for > 1 day  | northwind-shop.example (since now-3d)   | fabrikam-stores.example (since now-2h)|
 * | always online             | pet-photos.example.org (on)             | every other zone (off)                |
 * | email obfuscation off     | weekend-hack.test                       | every other zone (on)                 |
 * | hotlink protection off    | zones without hardened() settings:      | every hardened() zone (on)            |
 * |                           | northwind-shop, tinkerer, pet-photos,   |                                       |
 * |                           | weekend-hack                            |                                       |
 * | ip geolocation off        | acme-invest.example                     | every other zone (on)                 |
 * | challenge_ttl long        | acme-cards.example (86400)              | every other zone (1800)               |
 * | bot fight mode off        | pet-photos.example.org, weekend-hack,   | tinkerer.test (fight_mode on);        |
 * |                           | fabrikam-trails.example (Free, off)     | fabrikam.example: Super Bot Fight Mode|
 * |                           |                                         | blocks / challenges automated traffic |
 * | JavaScript detections off | contoso-records.example (Bot Management,| fabrikam.example (Super Bot Fight Mode|
 * |                           | enable_js false)                        | on), contoso-clinic.example (Bot Man- |
 * |                           |                                         | agement, on); Free zones (always on); |
 * |                           |                                         | zones whose Super Bot Fight Mode lets |
 * |                           |                                         | every bot through: bot-fight-mode-off |
 * | AI bots not blocked       | every other zone that proxies traffic   | fabrikam.example, tinkerer.test,      |
 * |                           | (disabled, the emulator's default)      | contoso-clinic.example (block);       |
 * |                           |                                         | fabrikam-stores.example (ad pages     |
 * |                           |                                         | only: a note)                         |
 * | bot model auto-update off | contoso-records.example (off, on an     | contoso-clinic.example (on); every    |
 * |                           | older model: medium)                    | zone without Bot Management           |
 * | origin pulls              | acme-bank.example: on, origin exposed   | every other zone (off)                |
 * | rate limiting rules       | every other zone (none: 404 10003)      | fabrikam.example (/login, 10 per 60 s)|
 * | custom rule that blocks   | contoso-records.example (log only),     | acme-bank, northwind, northwind-shop, |
 * |                           | acme-loans.example (skip; its block is  | fabrikam-trails (enabled block rules) |
 * |                           | disabled), fabrikam.example (skip and   |                                       |
 * |                           | managed_challenge)                      |                                       |
 * | OWASP ruleset executed    | paid zones whose entry point runs only  | fabrikam.example (zone entry point),  |
 * |                           | the managed ruleset: fabrikam-shop-eu,  | contoso-clinic and contoso-portal     |
 * |                           | -outlet, -rentals, -stores;             | (the account's entry point), the      |
 * |                           | contoso-records (empty, no account rule)| migrated acme-loans, -invest, -careers|
 * |                           |                                         | and northwind-blog                    |
 *
 * Client-side security, security.txt and notification policies (issue 52); every other zone that
 * serves pages keeps the vendor's defaults (client-side security off, no security.txt), so it fails
 * client-side-security-off and security-txt-missing (missing):
 *
 * | check                     | failing                                 | passing                               |
 * |---------------------------|-----------------------------------------|---------------------------------------|
 * | client-side security off  | every other zone serving pages          | acme-payments.example, fabrikam.example|
 * |                           |                                         | (on); zones serving no pages (paused, |
 * |                           |                                         | pending, nothing proxied)             |
 * | security.txt              | acme-bank.example (expired now-20d),    | fabrikam.example (contact, expires    |
 * |                           | northwind.example (no contact), every   | now+180d, policy, encryption)         |
 * |                           | other zone serving pages (none)         |                                       |
 * | client-side alerts        | Fabrikam Outdoor (malicious scripts     | Acme Bank Group (both alerts, every   |
 * |                           | only; code change policy disabled)      | zone); accounts with it on nowhere    |
 *
 * The vendor's own scanner (Security Insights, as the emulator models it: src/emulator/security-insights.ts)
 * beside zonewarden (src/report/vendor-insights.ts):
 *
 * | zone                      | side by side                                                        |
 * |---------------------------|---------------------------------------------------------------------|
 * | weekend-hack.test (Free)  | agree: HSTS off, Always Use HTTPS off, TLS 1.0 (both flag them)     |
 * | contoso-records.example   | agree: managed rules not deployed                                   |
 * | contoso-clinic.example    | vendor flags, zonewarden passes: the managed ruleset is deployed at |
 * |                           | the account level, which the vendor's scanner does not see          |
 * | fabrikam-rentals.example  | zonewarden fails, vendor does not flag: the managed ruleset runs in |
 * |                           | log mode, which the vendor counts as deployed; its DNS-only wildcard|
 * |                           | A record is an insight type no rule of the catalogue judges (apart) |
 * | fabrikam-outlet.example   | vendor's data is older: Always Use HTTPS turned on two hours ago,   |
 * |                           | after the vendor's last scan (a day ago)                            |
 *
 * Invites: pending to Globex Partners (not a member) and to Northwind Retail, expired and accepted
 * to Acme Bank Group, rejected to Northwind Retail.
 *
 * Account members (account-member-no-2fa): Acme Bank Group lists the user and its CISO (Super
 * Administrators with two-factor: passing), an operations contractor (Administrator without
 * two-factor: failing, high) and an invited auditor without it (pending: not judged). Every other
 * account has the user alone, with two-factor (passing).
 *
 * Hostile strings (HTML, Markdown table syntax, control characters, right-to-left override, long
 * mixed-script Unicode) sit in account names, invite senders, rule and filter descriptions, DNS
 * comments, TXT contents and certificate validation errors, never in zone or DNS record names.
 *
 * Everything is deterministic: times are relative to the emulator's clock, ids are derived by the
 * loader from names.
 */
import type {
  DatasetAccount,
  DatasetCertificatePack,
  DatasetCustomRule,
  DatasetDnsRecord,
  DatasetFile,
  DatasetFilter,
  DatasetFirewallRule,
  DatasetInvite,
  DatasetManagedRule,
  DatasetMember,
  DatasetZone,
} from '../../src/emulator/datasets/format.js';
import { ago, caa, caaData, CA_DOMAIN, daysFromNow, dns, executeManaged, hardened, inline, mail, using, type Ca, type Rec } from '../../src/emulator/datasets/compose.js';
import { certPack, universal } from '../../src/emulator/datasets/compose-certificates.js';
import { legacyWaf } from '../../src/emulator/datasets/compose-legacy-waf.js';
import { MANAGED_RULESET_ID, OWASP_RULESET_ID } from '../../src/emulator/waf-mapping.js';

// Hostile strings: what a report renderer (HTML, Markdown, terminal) must escape

const SCRIPT = '<script>alert(1)</script>';
const IMG = '<img src=x onerror=alert(1)>';
const MD_TABLE = '| col | `code` |';
const BELL = '\u0007';
const ANSI_RED = '\u001b[31m';
const ANSI_RESET = '\u001b[0m';
const CRLF = '\r\n';
const RLO = '\u202e';

/** About 300 code points of mixed scripts and emoji (ZWJ sequences included). */
const LONG_UNICODE = (() => {
  const pieces = [
    'Zürich Ölçü Ærøskøbing',
    'Ελληνικά κείμενα',
    'Кириллица и ёж',
    '日本語のテキスト',
    '中文字符测试',
    '한국어 문장',
    'עברית',
    'العربية',
    'हिन्दी पाठ',
    'ภาษาไทย',
    '🚀🔥✅',
    '👩🏽‍💻👨‍👩‍👧',
    '🏳️‍🌈',
    'Ⅻ ∑ ∞ ≠',
  ];
  let text = '';
  for (let i = 0; [...text].length < 300; i++) text += `${pieces[i % pieces.length] ?? ''} `;
  return text.trim();
})();

// Firewall expressions of an exact size

const utf8Bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
const codePoints = (s: string): number => [...s].length;

/**
 * `<field> in {"item" "item" ... "pad"}` measuring exactly `target` under `measure`: items are added
 * while they fit, then a last ASCII item is padded to land on the target.
 */
function sizedSetExpression(
  field: string,
  item: (i: number) => string,
  measure: (s: string) => number,
  target: number,
): string {
  const build = (items: string[]): string => `${field} in {${items.map((x) => `"${x}"`).join(' ')}}`;
  const pad = '/legacy-';
  const items: string[] = [];
  while (measure(build([...items, item(items.length), pad])) <= target) items.push(item(items.length));
  const missing = target - measure(build([...items, pad]));
  const expression = build([...items, pad + 'x'.repeat(missing)]);
  if (measure(expression) !== target) throw new Error(`case dataset: expression size ${measure(expression)} != ${target}`);
  return expression;
}

/** Localised shop paths: accented Latin (2 bytes) and Japanese (3 bytes) characters. */
const localisedPath = (i: number): string =>
  [`/fr/boutique/crème-brûlée-${i}`, `/ja/商品/カテゴリー-${i}`, `/de/größe-ändern-${i}`][i % 3] ?? '';

/** 4,097 bytes of UTF-8 in fewer than 4,096 characters: over the migration's 4 KB limit only. */
const EXPR_4097_BYTES = sizedSetExpression('http.request.uri.path', localisedPath, utf8Bytes, 4097);
/** 4,095 bytes of UTF-8: just under every limit. */
const EXPR_4095_BYTES = sizedSetExpression('http.request.uri.path', localisedPath, utf8Bytes, 4095);
/** 4,097 ASCII characters: over the rules language's 4,096-character limit (and 4 KB). */
const EXPR_4097_CHARS = sizedSetExpression(
  'http.request.uri.path',
  (i) => `/reports/2015/quarterly-report-${i}.aspx`,
  codePoints,
  4097,
);
/** Exactly 4,096 ASCII characters (and bytes): at both limits, which is allowed. */
const EXPR_4096_CHARS = sizedSetExpression(
  'http.request.uri.path',
  (i) => `/old-site/page-${i}.html`,
  codePoints,
  4096,
);
if (codePoints(EXPR_4097_BYTES) > 4096) throw new Error('case dataset: multibyte expression has too many characters');

/** `count` custom rules blocking one documentation address each. */
function customBlocks(count: number, ticketPrefix: string): DatasetCustomRule[] {
  return Array.from({ length: count }, (_, i) => ({ action: 'block' as const, expression: `ip.src eq 198.51.100.${i + 1}`, description: `${ticketPrefix}-${i + 1}` }));
}


// Firewall rules

/**
 * An incident blocklist grown one ticket at a time: `count` rules with distinct expressions,
 * alternating a source address and a path, all created through the single-call form.
 */
function blocklist(count: number, ticketPrefix: string): DatasetFirewallRule[] {
  const actions = ['block', 'challenge', 'managed_challenge', 'js_challenge', 'log'];
  const rules: DatasetFirewallRule[] = [];
  for (let i = 1; i <= count; i++) {
    const n = Math.ceil(i / 2);
    const expression =
      i % 2 === 1
        ? `ip.src eq ${n <= 254 ? `198.51.100.${n}` : `203.0.113.${n - 254}`}`
        : `http.request.uri.path eq "/path-${n}"`;
    rules.push({
      action: actions[i % actions.length] ?? 'block',
      priority: i,
      description: `${ticketPrefix}-${1000 + i}: blocklist entry ${i}`,
      filter: { expression },
      created_on: ago(400 - i),
      modified_on: ago(400 - i),
    });
  }
  return rules;
}

/**
 * Partner addresses let past the previous managed rules one ticket at a time: `count` bypass rules
 * of the WAF product, the rules the managed-rules migration carries and counts.
 */
function partnerBypasses(count: number, ticketPrefix: string): DatasetFirewallRule[] {
  return Array.from({ length: count }, (_, index) => {
    const i = index + 1;
    return {
      action: 'bypass',
      products: ['waf'],
      priority: 1000 + i,
      description: `${ticketPrefix}-${2000 + i}: partner ${i} passes the WAF`,
      filter: { expression: `ip.src eq 100.64.${Math.floor(i / 250)}.${i % 250}` },
      created_on: ago(500 - i),
      modified_on: ago(500 - i),
    };
  });
}

// Zones

const NS_A = ['arya.ns.dnshost.example', 'tom.ns.dnshost.example'];
const NS_B = ['kiki.ns.dnshost.example', 'lou.ns.dnshost.example'];

function acmeBank(): DatasetZone {
  const zone = 'acme-bank.example';
  const filters: DatasetFilter[] = [
    { ref: 'sanctioned-countries', expression: 'ip.geoip.country in {"KP" "SY"}', description: 'Sanctions list, reviewed quarterly' },
    {
      ref: 'admin-paths',
      expression: 'http.request.uri.path contains "/wp-admin" or http.request.uri.path contains "/phpmyadmin"',
      description: `Admin paths ${MD_TABLE} probes`,
    },
    { ref: 'office-network', expression: 'ip.src in {203.0.113.0/24 198.51.100.7}', description: 'Head office and VPN egress' },
    {
      ref: 'partner-api',
      expression: 'http.host eq "api.acme-bank.example" and ip.src in {192.0.2.0/24}',
      paused: true,
      description: 'Partner API allowlist, paused during the partner migration',
    },
    {
      ref: 'security-scanner',
      expression: 'ip.src eq 198.51.100.200 and http.user_agent contains "AcmeSecurityScanner"',
      description: 'Weekly external scan',
    },
    {
      // Referenced by no rule.
      ref: 'tor-exit-block',
      expression: 'ip.geoip.country eq "T1"',
      description: 'Left over by a half-failed single-call create: the filter was made, the rule was not',
    },
  ];
  const firewall_rules: DatasetFirewallRule[] = [
    using('block', 'sanctioned-countries', 'Block sanctioned countries', { priority: 1, created_on: ago(700) }),
    using('managed_challenge', 'admin-paths', `Challenge admin probes ${SCRIPT}`, { priority: 2 }),
    using('allow', 'office-network', 'Allow the office', { priority: 3 }),
    // Active rule, paused filter: it never matches.
    using('allow', 'partner-api', 'Allow partner API calls', { priority: 4 }),
    // Bypass of the previous managed rules: migrated as a skip rule.
    using('bypass', 'security-scanner', 'Let the weekly scanner past the WAF', { products: ['waf'], priority: 5 }),
    inline('js_challenge', 'cf.threat_score gt 30', 'Challenge suspicious clients (paused after complaints)', {
      paused: true,
      modified_on: ago(45),
    }),
    { action: 'block', priority: null, description: 'Block the 2021 spam campaign', filter: { deleted: true }, created_on: ago(1100) },
    inline('log', 'http.user_agent contains "python-requests"', `Log scripted clients${CRLF}(ticket SEC-77)`),
  ];
  return {
    name: zone,
    plan: 'enterprise',
    security: hardened({
      custom_rules: [{ action: 'block', expression: 'ip.geoip.country in {"KP" "IR"}', description: 'Block sanctioned countries' }, { action: 'skip', expression: 'ip.src in {192.0.2.0/24}', action_parameters: { phases: ['http_request_firewall_managed'] }, description: 'Let the weekly scanner past the managed rules' }],
      // Its origin is exposed (dns-origin-exposed), but only the vendor's edge can complete TLS with it.
      origin_pulls: true,
      // Published once and never renewed: past its Expires (security-txt-missing, expired).
      security_txt: { contact: ['mailto:security@acme-bank.example'], expires: 'now-20d', policy: ['https://acme-bank.example/disclosure'] },
    }),
    created_on: ago(2400),
    activated_on: ago(2399),
    modified_on: ago(3),
    name_servers: NS_A,
    dns_records: dns(zone, [
      ['A', '@', '203.0.113.10', { proxied: true }],
      ['AAAA', '@', '2001:db8:10::10', { proxied: true }],
      ['CNAME', 'www', zone, { proxied: true }],
      ['A', 'online', '203.0.113.11', { proxied: true, comment: 'Online banking' }],
      // One label under the wildcard: covered by *.acme-bank.example.
      ['A', 'api', '203.0.113.12', { proxied: true }],
      // Two labels under the wildcard: not covered.
      ['A', 'v1.api', '203.0.113.12', { proxied: true, comment: 'Old API version, still used by the mobile app' }],
      // Same address as the proxied apex, published unproxied: the origin is exposed.
      ['A', 'direct', '203.0.113.10', { comment: `Origin for the payment processor ${IMG}`, tags: ['owner:payments'] }],
      // Unproxied, but its own address: fine.
      ['A', 'mail', '203.0.113.25', { ttl: 300 }],
      ['A', 'vpn-internal', '10.0.0.5', { comment: `Split-horizon leak ${ANSI_RED}FIXME${ANSI_RESET}` }],
      ...mail(zone, 'mailhost.example.net'),
      ['TXT', '@', 'acme-site-verification=9f3c1e7a52b04d8e'],
      ...caa('lets_encrypt', 'digicert'),
    ]),
    certificate_packs: [
      universal(zone, 'lets_encrypt', 90, 5, ago(2399)),
      certPack({ type: 'advanced', hosts: [zone, `www.${zone}`], ca: 'digicert', validityDays: 365, expiresIn: 60 }),
    ],
    filters,
    firewall_rules,
    waf: legacyWaf({
      sensitivity: 'high',
      actionMode: 'block',
      groupOverrides: { 'Cloudflare WordPress': 'off', 'Cloudflare Drupal': 'on' },
      ruleOverrides: { '100002': 'simulate', '100008': 'disable', '958001': 'off' },
      overrides: [
        {
          description: 'Statement export posts raw CSV; keep the SQLi rule from firing',
          urls: ['acme-bank.example/statements/export*'],
          priority: 1,
          rules: { '100002': 'disable', '981318': 'off' },
        },
        {
          description: `Marketing CMS ${SCRIPT}`,
          urls: ['www.acme-bank.example/cms/*', 'acme-bank.example/cms/*'],
          priority: 2,
          paused: true,
          groups: { 'Cloudflare PHP': 'disable' },
          rewrite_action: { block: 'challenge', challenge: 'challenge', simulate: 'simulate', disable: 'disable', default: 'challenge' },
        },
      ],
    }),
    migration: { state: 'start', since: ago(900) },
  };
}

function acmePayments(): DatasetZone {
  const zone = 'acme-payments.example';
  return {
    name: zone,
    plan: 'enterprise',
    // Locked by an account policy so that no one raises it under the old terminals: the API answers
    // it with its value and editable false (vendor's API reference: zone settings, editable).
    // The payment pages' scripts are watched (client-side security on, PCI DSS 6.4.3).
    security: hardened({ settings: { min_tls_version: '1.0' }, settings_locked: ['min_tls_version'], page_shield: { enabled: true, updated_at: 'now-200d' } }),
    created_on: ago(1500),
    activated_on: ago(1500),
    modified_on: ago(1),
    name_servers: NS_A,
    dns_records: dns(zone, [
      ['A', '@', '203.0.113.30', { proxied: true }],
      ['AAAA', '@', '2001:db8:30::1', { proxied: true }],
      ['CNAME', 'www', zone, { proxied: true }],
      ['A', 'checkout', '203.0.113.31', { proxied: true }],
      ['A', 'api', '203.0.113.32', { proxied: true }],
      ...mail(zone, 'mailhost.example.net'),
      ...caa('lets_encrypt'),
    ]),
    certificate_packs: [universal(zone, 'lets_encrypt', 90, 47, ago(1500))],
    // 99 blocklist rules, which the migration does not carry and does not count, and 201 bypass
    // rules of the WAF, one more than it carries; the last is also over 4 KB of UTF-8.
    firewall_rules: [
      ...blocklist(99, 'PAY'),
      ...partnerBypasses(200, 'PAY'),
      inline('bypass', EXPR_4097_BYTES, 'Localised checkout pages pass the WAF (4,097 bytes)', { products: ['waf'], priority: 1300 }),
    ],
    waf: legacyWaf({ sensitivity: 'high', actionMode: 'challenge' }),
    migration: { state: 'start', since: ago(600) },
  };
}

function acmeCards(): DatasetZone {
  const zone = 'acme-cards.example';
  return {
    name: zone,
    plan: 'enterprise',
    security: hardened({ settings: { security_header: { enabled: true, max_age: 86_400, include_subdomains: true }, challenge_ttl: 86_400 }, dnssec: 'pending', dnssec_since: ago(30) }),
    created_on: ago(1300),
    activated_on: ago(1299),
    modified_on: ago(6),
    name_servers: NS_A,
    dns_records: dns(zone, [
      ['A', '@', '198.51.100.40', { proxied: true }],
      ['CNAME', 'www', zone, { proxied: true }],
      ['CNAME', 'apply', 'cards-apply.hosting.example.net', { proxied: true }],
      ...mail(zone, 'mailhost.example.net'),
      ...caa('google'),
    ]),
    certificate_packs: [universal(zone, 'google', 30, 25, ago(1299))],
    // 200 rules; the two bypass rules of the WAF, which the migration carries, sit just at the length limits.
    firewall_rules: [
      ...blocklist(198, 'CARD'),
      inline('bypass', EXPR_4095_BYTES, 'Localised pages of the retired shop pass the WAF (4,095 bytes)', { products: ['waf'], priority: 500 }),
      inline('bypass', EXPR_4096_CHARS, 'Pages of the old site pass the WAF (exactly 4,096 characters)', { products: ['waf'], priority: 501 }),
    ],
    waf: legacyWaf({
      sensitivity: 'medium',
      actionMode: 'simulate',
      ruleOverrides: { '100004': 'challenge', '990012': 'off' },
    }),
    migration: { state: 'start', since: ago(600) },
  };
}

function acmeLoans(): DatasetZone {
  const zone = 'acme-loans.example';
  return {
    name: zone,
    plan: 'enterprise',
    security: hardened({
      custom_rules: [
        { action: 'skip', expression: '(http.host eq "acme-loans.example")', action_parameters: { phases: ['http_request_firewall_managed'] }, description: 'Temporary: managed rules off for the launch' },
        { action: 'block', expression: 'http.request.uri.path contains "/.env"', description: 'Block dotenv probes', enabled: false },
      ],
    }),
    created_on: ago(1000),
    activated_on: ago(1000),
    modified_on: ago(20),
    name_servers: NS_A,
    dns_records: dns(zone, [
      ['A', '@', '203.0.113.50', { proxied: true }],
      ['AAAA', '@', '2001:db8:50::1', { proxied: true }],
      ['CNAME', 'www', zone, { proxied: true }],
      ['A', 'apply', '203.0.113.51', { proxied: true }],
      ...mail(zone, 'mailhost.example.net'),
      ...caa('ssl_com'),
    ]),
    certificate_packs: [
      certPack({ type: 'advanced', hosts: [zone, `*.${zone}`], ca: 'ssl_com', validityDays: 365, expiresIn: 165 }),
    ],
    firewall_rules: [
      // A bypass of the WAF over 4 KB of UTF-8: the migration would refuse it from start, but the zone
      // is in validation mode, past the check, and can be finished.
      inline('bypass', EXPR_4097_BYTES, 'Localised pages of the retired shop pass the WAF (4,097 bytes)', { products: ['waf'], priority: 1 }),
      inline('managed_challenge', 'http.request.uri.path eq "/apply" and cf.threat_score gt 20', 'Challenge risky applicants', {
        priority: 2,
      }),
      inline('allow', 'ip.src in {192.0.2.0/24}', 'Allow the credit bureau', { priority: 3 }),
    ],
    waf: legacyWaf({ sensitivity: 'medium', actionMode: 'block' }),
    // Validation mode for twenty days: past the 14-day threshold.
    migration: { state: 'validation', since: ago(20), source: 'api' },
  };
}

function acmeInvest(): DatasetZone {
  const zone = 'acme-invest.example';
  return {
    name: zone,
    plan: 'enterprise',
    security: hardened({ settings: { tls_1_3: 'off', automatic_https_rewrites: 'off', ip_geolocation: 'off' } }),
    created_on: ago(800),
    activated_on: ago(799),
    modified_on: ago(3),
    name_servers: NS_A,
    dns_records: dns(zone, [
      ['A', '@', '203.0.113.60', { proxied: true }],
      ['CNAME', 'www', zone, { proxied: true }],
      // Only the timed-out pack names it.
      ['A', 'portal', '203.0.113.61', { proxied: true, comment: `Client portal${BELL}` }],
      ['A', 'sftp', '198.51.100.62', { comment: 'Statement drop for custodians' }],
      ...mail(zone, 'mailhost.example.net'),
      ...caa('digicert'),
    ]),
    certificate_packs: [
      certPack({ type: 'advanced', hosts: [zone, `www.${zone}`], ca: 'digicert', validityDays: 365, expiresIn: 200 }),
      certPack({
        type: 'advanced',
        hosts: [`portal.${zone}`],
        ca: 'digicert',
        validityDays: 365,
        expiresIn: null,
        status: 'validation_timed_out',
        created: ago(9),
        validationErrors: [
          'Certificate authority encountered a CAA record which does not permit certificate issuance for portal.acme-invest.example',
          `TXT record not found at _acme-challenge.portal.acme-invest.example ${IMG}${CRLF}${ANSI_RED}retry later${ANSI_RESET}`,
        ],
      }),
    ],
    firewall_rules: [
      // Imported from the old site before the 4,096-character limit was enforced.
      inline('block', EXPR_4097_CHARS, 'Retired quarterly report URLs (4,097 characters)', { priority: 1, created_on: ago(790) }),
      inline('challenge', 'http.request.uri.path contains "/login" and not ip.geoip.country in {"GB" "IE"}', 'Challenge foreign logins', {
        priority: 2,
      }),
    ],
    waf: legacyWaf({ sensitivity: 'medium', actionMode: 'block' }),
    // Validation mode for three days: within the threshold.
    migration: { state: 'validation', since: ago(3), source: 'dashboard' },
  };
}

function acmeCareers(): DatasetZone {
  const zone = 'acme-careers.example';
  return {
    name: zone,
    plan: 'enterprise',
    security: hardened(),
    created_on: ago(600),
    activated_on: ago(600),
    modified_on: ago(200),
    name_servers: NS_A,
    dns_records: dns(zone, [
      ['A', '@', '198.51.100.70', { proxied: true }],
      ['AAAA', '@', '2001:db8:70::1', { proxied: true }],
      ['CNAME', 'www', zone, { proxied: true }],
      ['CNAME', 'jobs', 'acme.jobboard.example.com', { proxied: true }],
      ...mail(zone, 'mailhost.example.net'),
      ...caa('lets_encrypt'),
    ]),
    certificate_packs: [universal(zone, 'lets_encrypt', 90, 80, ago(600))],
    filters: [
      { ref: 'apply-spam', expression: 'http.request.uri.path eq "/apply" and cf.threat_score gt 10', description: 'Spam applications' },
      { ref: 'crawlers', expression: 'http.user_agent contains "scrapy"', description: 'Job-board scrapers' },
    ],
    firewall_rules: [
      using('managed_challenge', 'apply-spam', 'Challenge spammy applications', { priority: 1 }),
      using('block', 'crawlers', 'Block scrapers', { priority: 2 }),
    ],
    // Migrated: the legacy WAF it ran before (its endpoints are gone now) was deployed as the new managed rules, enabled.
    waf: legacyWaf({ sensitivity: 'medium', actionMode: 'block' }),
    migration: { state: 'complete', since: ago(200), source: 'api' },
  };
}

function northwindShop(): DatasetZone {
  const zone = 'northwind-shop.example';
  return {
    name: zone,
    plan: 'business',
    security: {
      settings: { ssl: 'flexible', security_level: 'under_attack' },
      // Under Attack mode switched on for a bot wave three days ago and never switched off.
      settings_modified_on: { security_level: ago(3) },
      custom_rules: [{ action: 'block', expression: EXPR_4097_CHARS, description: 'Old report URLs' }],
    },
    created_on: ago(1100),
    activated_on: ago(1100),
    modified_on: ago(10),
    name_servers: NS_B,
    dns_records: dns(zone, [
      ['A', '@', '192.0.2.20', { proxied: true }],
      ['AAAA', '@', '2001:db8:20::20', { proxied: true }],
      ['CNAME', 'www', zone, { proxied: true }],
      // No pack names it at all.
      ['A', 'legacy', '192.0.2.21', { proxied: true, comment: `Old shop ${MD_TABLE}` }],
      // Only a pack still pending validation names it.
      ['A', 'checkout', '192.0.2.22', { proxied: true }],
      ['A', 'origin-eu', '192.0.2.23', { comment: 'Second origin, failover only' }],
      ...mail(zone, 'shopmail.example.com'),
      ['TXT', '@', 'shop-verification=1f0c2a'],
      ...caa('google', 'lets_encrypt'),
    ]),
    certificate_packs: [
      certPack({ type: 'advanced', hosts: [zone, `www.${zone}`], ca: 'google', validityDays: 90, expiresIn: 45 }),
      certPack({
        type: 'advanced',
        hosts: [`checkout.${zone}`],
        ca: 'lets_encrypt',
        validityDays: 90,
        expiresIn: null,
        status: 'pending_validation',
        created: 'now-2h',
        validationMethod: 'http',
      }),
    ],
    // Two distinct filters with the same expression text. The API refuses a duplicate expression
    // (error 10102) only when a filter is created through the filters API; these two came about
    // anyway (one was edited into the other's text later), which the emulator must also serve.
    filters: [
      { ref: 'xmlrpc', expression: 'http.request.uri.path eq "/xmlrpc.php"', description: 'Block XML-RPC' },
      {
        ref: 'xmlrpc-agency',
        expression: 'http.request.uri.path eq "/xmlrpc.php"',
        description: `Block XML-RPC (agency ticket ${MD_TABLE} SHOP-42) ${RLO}gnp.exe`,
      },
      { ref: 'scanner', expression: 'ip.src eq 192.0.2.250', description: 'Payment provider PCI scan' },
    ],
    firewall_rules: [
      using('block', 'xmlrpc', 'Block XML-RPC', { priority: 10 }),
      using('challenge', 'xmlrpc-agency', `Challenge XML-RPC ${LONG_UNICODE}`, { priority: 11 }),
      using('bypass', 'scanner', 'PCI scan must reach the origin', { products: ['waf', 'uaBlock'], priority: 1 }),
      inline('managed_challenge', 'http.request.uri.path contains "/cart" and cf.threat_score gt 15', 'Protect the cart', { priority: 20 }),
      inline('block', 'http.user_agent contains "sqlmap" or http.user_agent contains "nikto"', 'Block attack tools', { priority: 21 }),
    ],
    waf: legacyWaf({
      sensitivity: 'low',
      actionMode: 'block',
      groupOverrides: { 'Cloudflare PHP': 'off' },
      ruleOverrides: { '100006': 'challenge' },
    }),
    migration: { state: 'start', since: ago(700) },
  };
}

/** The corporate site: 16 of the Pro plan's 20 rules. */
function northwind(): DatasetZone {
  const zone = 'northwind.example';
  const rules: Array<[action: string, expression: string, description: string]> = [
    ['block', 'ip.geoip.country in {"KP" "SY"}', 'Sanctioned countries'],
    ['managed_challenge', 'http.request.uri.path contains "/wp-login.php"', 'WordPress login probes'],
    ['block', 'http.request.uri.path contains "/.env"', 'Environment file probes'],
    ['block', 'http.request.uri.path contains "/.git/"', 'Git metadata probes'],
    ['js_challenge', 'http.request.uri.path eq "/login" and cf.threat_score gt 10', 'Login from risky clients'],
    ['block', 'http.user_agent contains "sqlmap"', 'sqlmap'],
    ['block', 'http.user_agent contains "masscan"', 'masscan'],
    ['challenge', 'http.user_agent eq ""', 'Empty user agent'],
    ['allow', 'ip.src in {203.0.113.64/26}', 'Head office'],
    ['log', 'http.request.uri.path contains "/api/v1/"', 'Watch the deprecated API'],
    ['block', 'http.request.uri.path contains "/phpmyadmin"', 'phpMyAdmin probes'],
    ['managed_challenge', 'ip.geoip.country eq "T1"', 'Tor exit nodes'],
    ['block', 'http.host eq "old.northwind.example"', 'Retired host name'],
    ['block', 'http.request.uri.path eq "/xmlrpc.php"', 'XML-RPC'],
    ['challenge', 'cf.threat_score gt 40', 'High threat score'],
    ['allow', 'http.user_agent contains "NorthwindUptimeBot" and ip.src in {198.51.100.10 198.51.100.11}', 'Uptime monitor'],
  ];
  return {
    name: zone,
    plan: 'pro',
    // A security.txt stored before the vendor required a contact: incomplete (security-txt-missing).
    security: hardened({ settings: { ssl: 'full' }, dnssec: 'error', custom_rules: customBlocks(17, 'NW-FW'), security_txt: { contact: [], expires: 'now+100d' } }),
    created_on: ago(3000),
    activated_on: ago(3000),
    modified_on: ago(2),
    name_servers: NS_B,
    dns_records: dns(zone, [
      ['A', '@', '192.0.2.30', { proxied: true }],
      ['AAAA', '@', '2001:db8:30::30', { proxied: true }],
      ['CNAME', 'www', zone, { proxied: true }],
      ['CNAME', 'assets', 'northwind-assets.storage.example.net', { proxied: true }],
      // Unproxied alias of the proxied assets target: the storage origin is exposed.
      ['CNAME', 'assets-origin', 'northwind-assets.storage.example.net', { comment: 'For the CDN purge script' }],
      // Unproxied alias of another target: fine.
      ['CNAME', 'status', 'northwind.statuspage.example.com'],
      ['A', 'vpn', '198.51.100.33', { comment: `Office VPN${CRLF}owner: it@northwind.example` }],
      ...mail(zone, 'shopmail.example.com'),
      ['TXT', '@', 'northwind-verification=a7b2c9d4e5'],
      ['TXT', 'selector1._domainkey', 'v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDLTg9kXc4SHCnf5HLJUPLoui5JA0k2zl88QxkjHDbykvfnnRcbd9ngwkpZYMn66/Qa4k/0jwnLkIWXl/BJyNg+FO4xuSOiKGIXpF3bZYAGywolE+NvUO+mQa/fgqqPUqa8SlIkuOOMnZxuxnRCRVt0Wf8l0NTeOi/UvAvuRT2eNQIDAQAB'], // a real 1024-bit RSA key (RFC 6376 3.6.1)
      ...caa('lets_encrypt'),
    ]),
    // The renewal failed two days ago; the pack still reads active.
    certificate_packs: [universal(zone, 'lets_encrypt', 90, -2, ago(3000))],
    filters: [
      {
        // Referenced by no rule.
        ref: 'backup-downloads',
        expression: 'http.request.uri.path matches "^/backup.*"',
        description: 'Left over by a single-call create: the rule needed a Business feature (regex), the filter stayed',
      },
    ],
    firewall_rules: rules.map(([action, expression, description], i) =>
      inline(action, expression, description, { priority: (i + 1) * 10 }),
    ),
    waf: legacyWaf({ sensitivity: 'off', actionMode: 'challenge' }),
    migration: { state: 'default', since: ago(700) }, // the status answer seen in the wild for a zone not started
  };
}

function northwindBlog(): DatasetZone {
  const zone = 'northwind-blog.example';
  return {
    name: zone,
    plan: 'pro',
    security: hardened({ universal_ssl: false, managed_ruleset_disabled: true }),
    paused: true,
    created_on: ago(900),
    activated_on: ago(899),
    modified_on: ago(30),
    name_servers: NS_B,
    dns_records: dns(zone, [
      ['A', '@', '198.51.100.80', { proxied: true }],
      ['CNAME', 'www', zone, { proxied: true }],
      ['TXT', '@', 'v=spf1 -all'],
      ['TXT', '@', `blog-verification=${SCRIPT}`],
      ...caa('google'),
    ]),
    certificate_packs: [universal(zone, 'google', 14, 12, ago(899))],
    firewall_rules: [inline('block', 'http.request.uri.path contains "/wp-admin/install.php"', 'Installer')],
    // Migrated with its WAF on; someone has since disabled the managed ruleset's rule (security.managed_ruleset_disabled).
    waf: legacyWaf({ sensitivity: 'low', actionMode: 'challenge' }),
    migration: { state: 'complete', since: ago(300), source: 'dashboard' },
  };
}

function northwindStaging(): DatasetZone {
  const zone = 'northwind-staging.example';
  return {
    name: zone,
    plan: 'business',
    security: hardened({
      settings: { security_level: 'essentially_off', browser_check: 'off', development_mode: 'on' },
      // Development mode entered an hour ago: two hours of it left (it lasts three).
      settings_modified_on: { development_mode: 'now-1h' },
    }),
    status: 'pending',
    created_on: ago(4),
    activated_on: null,
    modified_on: ago(4),
    name_servers: NS_B,
    dns_records: dns(zone, [
      // DNS only until the name servers move and the zone turns active.
      ['A', '@', '192.0.2.90'],
      ['AAAA', '@', '2001:db8:90::90'],
      ['CNAME', 'www', zone],
      ['A', 'preview', '192.0.2.91', { comment: 'Preview builds' }],
      ['TXT', '@', 'v=spf1 -all'],
    ]),
    // Issued only once the zone is active.
    certificate_packs: [
      certPack({
        hosts: [zone, `*.${zone}`],
        ca: 'lets_encrypt',
        validityDays: 90,
        expiresIn: null,
        status: 'pending_validation',
        created: ago(4),
      }),
    ],
    firewall_rules: [inline('allow', 'ip.src in {203.0.113.64/26}', 'Only the office may see staging')],
    waf: legacyWaf({ enabled: false, sensitivity: 'medium', actionMode: 'block' }),
    migration: { state: 'start', since: ago(4) },
  };
}

function tinkerer(): DatasetZone {
  const zone = 'tinkerer.test';
  return {
    name: zone,
    plan: 'free',
    created_on: ago(1200),
    activated_on: ago(1200),
    modified_on: ago(15),
    name_servers: NS_B,
    // The vendor's defaults, but Bot Fight Mode turned on and AI bots blocked.
    security: { bot_management: { fight_mode: true, ai_bots_protection: 'block' } },
    dns_records: dns(zone, [
      ['A', '@', '192.0.2.100', { proxied: true }],
      ['CNAME', 'www', zone, { proxied: true }],
      // The same machine as the proxied apex, published for SSH: the origin is exposed.
      ['A', 'ssh', '192.0.2.100'],
      ['MX', '@', 'mx.freemail.example.org', { priority: 10 }],
      // The home server also sends mail: SPF names the proxied apex's origin address.
      ['TXT', '@', 'v=spf1 ip4:192.0.2.100 include:freemail.example.org ~all'],
    ]),
    certificate_packs: [universal(zone, 'lets_encrypt', 90, 70, ago(1200))],
    filters: [
      {
        // Referenced by no rule: the sixth rule hit the free plan's quota of 5.
        ref: 'xmlrpc',
        expression: 'http.request.uri.path contains "/xmlrpc.php"',
        description: 'Left over by a half-failed single-call create (rule quota reached)',
      },
    ],
    // Five rules: the free plan's whole quota.
    firewall_rules: [
      inline('block', 'http.request.uri.path contains "/wp-admin"', 'Not a WordPress site'),
      inline('managed_challenge', 'ip.geoip.country eq "T1"', 'Tor'),
      inline('block', 'http.user_agent contains "curl"', `No curl${BELL}${BELL}`),
      inline('allow', 'ip.src eq 192.0.2.77', `Home${CRLF}${ANSI_RED}do not remove${ANSI_RESET}`),
      inline('js_challenge', 'http.request.uri.path eq "/login"', `Login ${IMG}`),
    ],
  };
}

function petPhotos(): DatasetZone {
  const zone = 'pet-photos.example.org';
  return {
    name: zone,
    plan: 'free',
    security: { settings: { ssl: 'off', always_online: 'on' } },
    created_on: ago(500),
    activated_on: ago(500),
    modified_on: ago(40),
    name_servers: NS_B,
    dns_records: dns(zone, [
      ['A', '@', '192.0.2.50', { proxied: true }],
      ['AAAA', '@', '2001:db8:50::50', { proxied: true }],
      ['CNAME', 'www', zone, { proxied: true }],
      // A different machine than the apex: not an exposure.
      ['A', 'ftp', '192.0.2.51'],
      // Private and special-purpose addresses published to the world.
      ['A', 'nas', '192.168.1.10', { comment: 'The NAS at home' }],
      ['A', 'local', '127.0.0.1'],
      ['A', 'printer', '169.254.1.1'],
      ['AAAA', 'nas6', 'fd00::1'],
      ['AAAA', 'router6', 'fe80::1'],
      ['TXT', '@', 'v=spf1 -all'],
    ]),
    certificate_packs: [universal(zone, 'google', 90, 50, ago(500))],
    firewall_rules: [inline('block', 'http.user_agent contains "BadBot"', 'Bad bot')],
  };
}

function weekendHack(): DatasetZone {
  const zone = 'weekend-hack.test';
  return {
    name: zone,
    plan: 'free',
    created_on: ago(30),
    activated_on: ago(30),
    modified_on: ago(3),
    security: { settings: { email_obfuscation: 'off' } },
    name_servers: NS_B,
    dns_records: dns(zone, [
      ['A', '@', '198.51.100.120', { proxied: true }],
      ['AAAA', '@', '2001:db8:120::1', { proxied: true }],
      ['CNAME', 'www', zone, { proxied: true }],
      ['TXT', '@', `note=${SCRIPT} ${MD_TABLE} ${LONG_UNICODE}`],
      ['TXT', 'hello', `${RLO}dlrow olleh ${ANSI_RED}red${ANSI_RESET}${BELL}`],
    ]),
    certificate_packs: [universal(zone, 'lets_encrypt', 90, 87)],
  };
}

function globexPartners(): DatasetZone {
  const zone = 'globex-partners.example';
  return {
    name: zone,
    plan: 'business',
    security: hardened(),
    created_on: ago(700),
    activated_on: ago(700),
    modified_on: ago(9),
    name_servers: NS_A,
    dns_records: dns(zone, [
      ['A', '@', '203.0.113.140', { proxied: true }],
      ['CNAME', 'www', zone, { proxied: true }],
      ['A', 'extranet', '203.0.113.141', { proxied: true }],
      ...mail(zone, 'mailhost.example.net'),
    ]),
    certificate_packs: [universal(zone, 'google', 90, 33, ago(700))],
    firewall_rules: [
      inline('managed_challenge', 'http.request.uri.path contains "/extranet/login"', 'Extranet login'),
      inline('block', 'ip.geoip.country in {"KP"}', 'Sanctions'),
    ],
    waf: legacyWaf({ sensitivity: 'medium', actionMode: 'block' }),
    migration: { state: 'start', since: ago(700) },
  };
}

// Zones created with the new managed rules (migration state none)

interface ModernSpec {
  name: string;
  plan: 'free' | 'pro' | 'business' | 'enterprise';
  /** Days since the zone was created (all after 2022-09). */
  age: number;
  apex: string;
  ca: Ca;
  type?: 'full' | 'partial';
  security?: Parameters<typeof hardened>[0];
  /** CAA records (data only); default: one `issue` for the universal pack's CA and an `iodef`. */
  caa?: DatasetDnsRecord[];
  extraRecords?: Rec[];
  extraPacks?: DatasetCertificatePack[];
}

/**
 * A zone created since the vendor's phase two: no previous WAF (`migration: {state: "none"}`),
 * hardened settings, a universal pack issued two weeks ago, mail, and CAA records for its pack's CA
 * in the data-only shape; each zone then changes the one thing it demonstrates.
 */
function modernZone(spec: ModernSpec): DatasetZone {
  const zone = spec.name;
  const caaRecords = spec.caa ?? [caaData(zone, 0, 'issue', CA_DOMAIN[spec.ca]), caaData(zone, 0, 'iodef', `mailto:security@${zone}`)];
  return {
    name: zone,
    plan: spec.plan,
    ...(spec.type ? { type: spec.type } : {}),
    created_on: ago(spec.age),
    activated_on: ago(spec.age),
    modified_on: ago(Math.min(spec.age, 20)),
    name_servers: NS_A,
    security: hardened(spec.security),
    dns_records: [
      ...dns(zone, [
        ['A', '@', spec.apex, { proxied: true }],
        ['CNAME', 'www', zone, { proxied: true }],
        ...mail(zone, 'mailhost.example.net'),
        ...(spec.extraRecords ?? []),
      ]),
      ...caaRecords,
    ],
    certificate_packs: [universal(zone, spec.ca, 90, 76, ago(14)), ...(spec.extraPacks ?? [])],
    migration: { state: 'none' },
  };
}

const FABRIKAM_PARTNERS = 'ip.src in {203.0.113.200/29}';
const YEAR_OF_HSTS = { enabled: true, max_age: 31_536_000, include_subdomains: true, nosniff: true };

/** The outdoor retailer's reference zone: every new situation set up the careful way. */
function fabrikam(): DatasetZone {
  return modernZone({
    name: 'fabrikam.example',
    plan: 'business',
    age: 1100,
    apex: '203.0.113.150',
    ca: 'lets_encrypt',
    security: {
      settings: { ssl: 'strict', security_header: { ...YEAR_OF_HSTS, max_age: 63_072_000, preload: true } },
      page_shield: { enabled: true, use_connection_url_path: true, updated_at: 'now-30d' },
      security_txt: { contact: ['mailto:security@fabrikam.example', 'https://fabrikam.example/report'], expires: 'now+180d', encryption: ['https://fabrikam.example/pgp.txt'], policy: ['https://fabrikam.example/disclosure'] },
      managed_rules: [
        { action: 'skip', expression: FABRIKAM_PARTNERS, description: 'Partner stock feed', action_parameters: { ruleset: 'current' } },
        executeManaged(),
        { action: 'execute', expression: 'true', description: 'Cloudflare OWASP Core Ruleset', action_parameters: { id: OWASP_RULESET_ID } },
      ],
      ratelimit_rules: [
        {
          action: 'block',
          expression: 'http.request.uri.path eq "/login"',
          description: 'Login attempts per visitor',
          ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 10, mitigation_timeout: 600 },
        },
      ],
      bot_management: { sbfm_definitely_automated: 'block', sbfm_likely_automated: 'managed_challenge', sbfm_verified_bots: 'allow', enable_js: true, ai_bots_protection: 'block' },
      custom_rules: [
        { action: 'skip', expression: `${FABRIKAM_PARTNERS} and http.request.uri.path eq "/feed"`, description: 'Partner stock feed', action_parameters: { ruleset: 'current' } },
        { action: 'managed_challenge', expression: 'http.request.uri.path eq "/login" and cf.threat_score gt 10', description: 'Risky logins' },
      ],
    },
  });
}

function fabrikamShopEu(): DatasetZone {
  const zone = 'fabrikam-shop-eu.example';
  // A second pack ordered an hour ago, still initializing: the API answers it without created_on.
  const initializing: DatasetCertificatePack = {
    ...certPack({ type: 'advanced', hosts: [zone, `www.${zone}`], ca: 'google', validityDays: 90, expiresIn: null, status: 'initializing' }),
    created_on: null,
  };
  return modernZone({
    name: zone,
    plan: 'business',
    age: 800,
    apex: '203.0.113.151',
    ca: 'google',
    security: {
      managed_rules: [
        { action: 'skip', expression: `http.host eq "${zone}"`, description: 'Sale week: no false positives in the shop', action_parameters: { ruleset: 'current' } },
        executeManaged(),
      ],
    },
    // The CAA records name another CA than the one issuing the universal pack (Google Trust Services).
    caa: [caaData(zone, 0, 'issue', CA_DOMAIN.digicert), caaData(zone, 0, 'iodef', `mailto:security@${zone}`)],
    extraPacks: [initializing],
  });
}

function fabrikamOutlet(): DatasetZone {
  return modernZone({
    name: 'fabrikam-outlet.example',
    plan: 'pro',
    age: 700,
    apex: '203.0.113.152',
    ca: 'lets_encrypt',
    security: {
      // Preloading asks for a max-age of at least a year; this one is half a year.
      settings: { security_header: { ...YEAR_OF_HSTS, max_age: 15_552_000, preload: true } },
      // HTTPS enforced two hours ago: after the vendor's scanner last looked (every 3 days on Pro; a day ago here).
      settings_modified_on: { always_use_https: 'now-2h' },
      managed_rules: [executeManaged({ action_parameters: { id: MANAGED_RULESET_ID, overrides: { enabled: false } } })],
    },
  });
}

function fabrikamRentals(): DatasetZone {
  const zone = 'fabrikam-rentals.example';
  return modernZone({
    name: zone,
    plan: 'pro',
    age: 650,
    apex: '203.0.113.153',
    ca: 'google',
    security: { managed_rules: [executeManaged({ action_parameters: { id: MANAGED_RULESET_ID, overrides: { action: 'log' } } })] },
    // Only a reporting address: no CA is restricted.
    caa: [caaData(zone, 0, 'iodef', `mailto:security@${zone}`)],
    // Every branch's name resolves, straight to the origin: a DNS-only wildcard.
    extraRecords: [['A', '*', '203.0.113.203', { comment: 'One name per branch, each on the branch server' }]],
  });
}

function fabrikamStores(): DatasetZone {
  const zone = 'fabrikam-stores.example';
  return modernZone({
    name: zone,
    plan: 'business',
    age: 600,
    apex: '203.0.113.154',
    ca: 'lets_encrypt',
    security: {
      managed_rules: [executeManaged({ expression: 'http.request.uri.path contains "/shop/"', description: 'Managed rules for the shop only' })],
      // Under Attack mode for a sale-day bot wave, switched on two hours ago.
      settings: { security_level: 'under_attack' },
      settings_modified_on: { security_level: 'now-2h' },
      // The shop's pages carry ads: AI crawlers are blocked there only (a note, not a failure).
      bot_management: { ai_bots_protection: 'only_on_ad_pages' },
    },
    // A critical tag (flags 128) no CA knows: RFC 8659 says a CA must then refuse to issue.
    caa: [caaData(zone, 0, 'issue', CA_DOMAIN.lets_encrypt), caaData(zone, 128, 'tbs', 'ticket-4711')],
  });
}

function fabrikamTrails(): DatasetZone {
  return modernZone({
    name: 'fabrikam-trails.example',
    plan: 'free',
    age: 400,
    apex: '198.51.100.150',
    ca: 'lets_encrypt',
    security: {
      custom_rules: [
        { action: 'skip', expression: 'ip.src in {0.0.0.0/0 ::/0}', description: 'Debug: let everyone through', action_parameters: { phase: 'current' } },
        { action: 'skip', expression: 'ip.src in {0.0.0.0/0 ::/0}', description: 'Debug: skip the rest', action_parameters: { ruleset: 'current' } },
        // What the skips switch off: a skip with nothing after it would skip nothing.
        { action: 'block', expression: 'http.request.uri.path contains "/wp-login.php"', description: 'Block login probes' },
      ],
    },
    // Copied from the setup guide and never changed.
    // An address from the IPv6 documentation prefix (RFC 9637), which the dataset uses for nothing else:
    // its stand-ins for public addresses are the other documentation ranges.
    extraRecords: [['AAAA', 'status', '3fff::10', { comment: 'From the setup guide' }]],
  });
}

/** Managed rules deployed to the clinic and the portal from the account's own entry point. */
const CONTOSO_ACCOUNT_RULES: DatasetManagedRule[] = [
  executeManaged({ expression: 'cf.zone.name eq "contoso-clinic.example"', description: 'Managed rules for the clinic' }),
  {
    action: 'execute',
    expression: 'cf.zone.name in {"contoso-clinic.example" "contoso-portal.example"}',
    description: 'OWASP core rules for the patient-facing sites',
    action_parameters: { id: OWASP_RULESET_ID },
  },
];

function contosoClinic(): DatasetZone {
  // Strict (SSL-only origin pull) is an Enterprise mode (vendor docs, encryption modes): the clinic uses it.
  // Bot Management for Enterprise, with JavaScript detections, the newest model and AI bots blocked.
  return modernZone({
    name: 'contoso-clinic.example',
    plan: 'enterprise',
    age: 1000,
    apex: '198.51.100.160',
    ca: 'google',
    security: { settings: { ssl: 'origin_pull' }, managed_rules: [], bot_management: { subscription: true, enable_js: true, ai_bots_protection: 'block' } },
  });
}

function contosoRecords(): DatasetZone {
  return modernZone({
    name: 'contoso-records.example',
    plan: 'enterprise',
    age: 900,
    apex: '198.51.100.161',
    ca: 'google',
    security: {
      managed_rules: [],
      // Custom rules that only watch: nothing is blocked or challenged.
      custom_rules: [{ action: 'log', expression: 'http.request.uri.path contains "/export"', description: 'Watch record exports' }],
      // Bot Management with JavaScript detections turned off (they are on by default) and its model pinned (now an older one).
      bot_management: { subscription: true, enable_js: false, auto_update_model: false, using_latest_model: false },
    },
  });
}

/** A CNAME (partial) setup: the organisation's own DNS answers, so no DNSSEC or CAA here. */
function contosoPortal(): DatasetZone {
  return modernZone({ name: 'contoso-portal.example', type: 'partial', plan: 'enterprise', age: 950, apex: '198.51.100.162', ca: 'google', security: { dnssec: 'disabled' }, caa: [] });
}

// The organisation

/** vendor docs: List Members (status accepted or pending; user.two_factor_authentication_enabled), Roles. */
const ACME_MEMBERS: DatasetMember[] = [
  { email: 'admin@example.com', roles: ['Super Administrator - All Privileges'], two_factor: true },
  { email: 'ciso@acme-bank.example', first_name: 'Ines', last_name: `Ortega ${SCRIPT}`, roles: ['Super Administrator - All Privileges'], two_factor: true },
  { email: 'ops-contractor@acme-bank.example', first_name: 'Olu', last_name: 'Bakare', roles: ['Administrator'], two_factor: false },
  { email: 'auditor@acme-bank.example', roles: ['Administrator Read Only'], two_factor: false, status: 'pending' },
];

const ACME = 'Acme Bank Group';
const NORTHWIND = 'Northwind Retail | EU `prod` |';
const HOBBY = `Sam's hobby projects ${ANSI_RED}(personal)${ANSI_RESET}${BELL}`;
const GLOBEX = `Globex Partners ${IMG}${SCRIPT}`;
const FABRIKAM = 'Fabrikam Outdoor';
const CONTOSO = 'Contoso Health';

export function caseDataset(): DatasetFile {
  const accounts: DatasetAccount[] = [
    {
      name: ACME,
      type: 'enterprise',
      created_on: ago(2500),
      zones: [acmeBank(), acmePayments(), acmeCards(), acmeLoans(), acmeInvest(), acmeCareers()],
      members: ACME_MEMBERS,
      // Both client-side alerts, for every zone (client-side-script-alert-missing passes).
      notification_policies: [
        { name: 'Skimmer on a page', alert_type: 'scriptmonitor_alert_new_malicious_scripts', email: 'soc@acme-bank.example' },
        { name: 'Payment page script changed', alert_type: 'scriptmonitor_alert_new_code_change_detections', email: 'soc@acme-bank.example' },
      ],
    },
    {
      name: NORTHWIND,
      created_on: ago(3100),
      zones: [northwindShop(), northwind(), northwindBlog(), northwindStaging()],
    },
    {
      name: HOBBY,
      created_on: ago(1300),
      zones: [tinkerer(), petPhotos(), weekendHack()],
    },
    {
      name: FABRIKAM,
      created_on: ago(1200),
      zones: [fabrikam(), fabrikamShopEu(), fabrikamOutlet(), fabrikamRentals(), fabrikamStores(), fabrikamTrails()],
      // The malicious script alert only, and a code change policy left disabled (client-side-script-alert-missing fails).
      notification_policies: [
        { name: 'Malicious scripts', alert_type: 'scriptmonitor_alert_new_malicious_scripts' },
        { name: 'Script changes (too noisy)', alert_type: 'scriptmonitor_alert_new_code_change_detections', enabled: false },
      ],
    },
    {
      name: CONTOSO,
      type: 'enterprise',
      created_on: ago(1100),
      managed_rules: CONTOSO_ACCOUNT_RULES,
      managed_rules_since: ago(200),
      zones: [contosoClinic(), contosoRecords(), contosoPortal()],
    },
    {
      // Listed only once the pending invite is accepted.
      name: GLOBEX,
      member: false,
      created_on: ago(800),
      zones: [globexPartners()],
    },
  ];
  const invites: DatasetInvite[] = [
    {
      account: GLOBEX,
      invited_by: `it-security@globex-partners.example ${SCRIPT}${CRLF}${RLO}moc.evil`,
      invited_on: ago(2),
      expires_on: daysFromNow(5),
      roles: [{ name: 'Administrator Read Only', description: 'Can access the full account in read-only mode.' }],
      status: 'pending',
    },
    {
      account: NORTHWIND,
      invited_by: `Åsa Lindqvist ${LONG_UNICODE}`,
      invited_on: ago(1),
      expires_on: daysFromNow(6),
      roles: [{ name: 'Firewall', description: 'Can edit WAF, IP Firewall, and Zone Lockdown settings.' }],
      status: 'pending',
    },
    {
      account: ACME,
      invited_by: 'ciso@acme-bank.example',
      invited_on: ago(60),
      expires_on: ago(53),
      roles: [{ name: 'Administrator', description: 'Can access the full account, except for membership management and billing.' }],
      status: 'expired',
    },
    {
      account: ACME,
      invited_by: 'ciso@acme-bank.example',
      invited_on: ago(50),
      expires_on: ago(43),
      roles: [{ name: 'Administrator', description: 'Can access the full account, except for membership management and billing.' }],
      status: 'accepted',
    },
    {
      account: NORTHWIND,
      invited_by: 'it@northwind.example',
      invited_on: ago(400),
      expires_on: ago(393),
      roles: [{ name: 'Billing', description: 'Can edit the account’s billing profile and subscriptions.' }],
      status: 'rejected',
    },
  ];
  return {
    version: 1,
    user: { email: 'admin@example.com' },
    accounts,
    invites,
  };
}
