/**
 * The vendor's own scanner, Security Insights ("Security Action Items" since 2026-03), as data: each
 * insight type it documents, the identifier its API gives such issues, and the rules that judge it
 * (docs/from-vendor-insights.md is generated from this list).
 *
 * How the API names an insight (SDK: cloudflare 7.3.0, security-center/insights `InsightListResponse.Issue`;
 * vendor API reference: "Retrieves Security Center Insights"): `issue_class` (a free string) is the
 * insight itself, e.g. `hsts_not_enabled`; `issue_type` one of a few categories (vendor docs: Security
 * Insights, how it works: "Type: The insight category"). So an issue is matched by `issue_class`. The
 * vendor publishes no table from display name to `issue_class`: the identifiers come from the values
 * its notification policies accept as `filters.insight_class` (alert type `security_insights_alert`,
 * in public account configurations), from real answers quoted in public reviews, and from the API
 * reference's examples; `identifier` says how sure each pairing is.
 */

/** The API's `issue_type` values (SDK: cloudflare 7.3.0, intel/attack-surface-report `IssueType`). */
export const INSIGHT_ISSUE_TYPES = [
  'compliance_violation',
  'email_security',
  'exposed_infrastructure',
  'insecure_configuration',
  'weak_authentication',
  'configuration_suggestion',
] as const;
export type InsightIssueType = (typeof INSIGHT_ISSUE_TYPES)[number];

type InsightCoverage = 'full' | 'partial' | 'none';

/**
 * `named`: the identifier's words name this insight alone, or a public answer shows it so; `inferred`:
 * paired by wording where another reading is possible (the entry's comment says which); `none`: no
 * identifier was found, or the vendor documents no name for it.
 */
type IdentifierPairing = 'named' | 'inferred' | 'none';

export type InsightArea = 'dns' | 'email' | 'tls' | 'waf' | 'bots' | 'client-side' | 'account' | 'api-shield' | 'zero-trust' | 'network' | 'turnstile' | 'performance' | 'ddos' | 'website';

export interface VendorInsightType {
  /** Null where no public source names it. */
  readonly issueClass: string | null;
  /** Other spellings of the same identifier (the API reference's examples differ from real answers). */
  readonly aliases: readonly string[];
  /** The name in the vendor's list (and dashboard); null for identifiers seen in answers only. */
  readonly displayName: string | null;
  /** Whether the vendor's list of insight types (vendor docs: Security Insights) includes it: 34 entries do. */
  readonly documented: boolean;
  readonly identifier: IdentifierPairing;
  /** The `issue_type` a public answer shows for it; null where none was seen. */
  readonly issueType: InsightIssueType | null;
  readonly area: InsightArea;
  /** What it flags, in one line (zonewarden's wording). */
  readonly flags: string;
  /** Whether it is about what zonewarden audits: the zone and account configuration the API returns. */
  readonly inScope: boolean;
  readonly rules: readonly string[];
  readonly coverage: InsightCoverage;
  /** Why coverage is partial or none; null when full. */
  readonly reason: string | null;
  /** Where zonewarden sees more or judges otherwise, for a covered insight. */
  readonly differs: string | null;
}

const NEVER_PROBES = 'zonewarden never probes networks';
const ZERO_TRUST = 'Zero Trust (Access, Tunnel, CASB) is a separate product zonewarden does not audit';
const API_SHIELD = 'API Shield traffic analytics: it is learned from requests, not read from configuration';
const UNPROXIED_PARTIAL =
  'by default only zones that proxy at least one record are judged, and names that carry no web traffic (mail hosts, ftp, ssh, vpn, _service names) are left alone; with dns-record-not-proxied\'s option scope: every-zone, the web records of zones that proxy nothing are reported too (non-web names are still left alone)';

type Defaulted = 'aliases' | 'issueType' | 'rules' | 'reason' | 'differs';
type Entry = Omit<VendorInsightType, Defaulted | 'documented'> & Partial<Pick<VendorInsightType, Defaulted>>;

/** An entry of the vendor's list; `reason` is required unless coverage is full (the module's test checks it). */
function listed(entry: Entry): VendorInsightType {
  return { aliases: [], issueType: null, rules: [], reason: null, differs: null, documented: true, ...entry };
}

/** An identifier the vendor's list does not name: no display name, so nothing to pair. */
function unlisted(entry: Omit<Entry, 'displayName' | 'identifier'>): VendorInsightType {
  return listed({ displayName: null, identifier: 'none', ...entry, documented: false } as Entry);
}

/**
 * The 34 documented insight types, in the order of the vendor's list (vendor docs: Security Insights, "Listed below
 * are the specific insights currently available"), each paired with the alert filter value that is its issueClass
 * unless its comment says otherwise.
 */
const DOCUMENTED: readonly VendorInsightType[] = [
  listed({
    issueClass: 'casb_unhealthy_integrations', displayName: 'CASB integration status', identifier: 'named', area: 'zero-trust',
    flags: 'a CASB integration is unhealthy', inScope: false, coverage: 'none', reason: ZERO_TRUST,
  }),
  // Paired by the vendor API reference's example issue_class, not by an alert filter value.
  listed({
    issueClass: 'a_record_dangling', displayName: 'Dangling A Records', identifier: 'named', area: 'dns',
    flags: 'an A record points at an IPv4 address the zone may no longer control', inScope: true, coverage: 'none',
    reason: `${NEVER_PROBES}: whether an address is still yours cannot be read from DNS or the API, only guessed by probing it`,
  }),
  listed({
    issueClass: 'aaaa_record_dangling', displayName: 'Dangling AAAA Records', identifier: 'named', area: 'dns',
    flags: 'an AAAA record points at an IPv6 address the zone may no longer control', inScope: true, coverage: 'none',
    reason: `${NEVER_PROBES}: whether an address is still yours cannot be read from DNS or the API, only guessed by probing it`,
  }),
  listed({
    issueClass: 'cname_record_dangling', displayName: 'Dangling CNAME Records', identifier: 'named', area: 'dns',
    flags: 'a CNAME record points at a name that cannot be found', inScope: true, rules: ['dns-dangling-target'], coverage: 'full',
    differs: 'also judges MX, NS and SRV targets; a target that exists without an address (NODATA) passes, a SERVFAIL or timeout is reported as not judged',
  }),
  // A public review shows it as issue_type email_security.
  listed({
    issueClass: 'dmarc', displayName: 'DMARC Record Errors', identifier: 'named', issueType: 'email_security', area: 'email',
    flags: 'the DMARC record is missing or wrong', inScope: true, rules: ['email-dmarc-missing'], coverage: 'full',
    differs: 'also fails p=none (medium), two records, pct below 100 and sp=none; a zone that sends no mail needs p=reject',
  }),
  listed({
    issueClass: 'tls_not_enabled', displayName: 'Domains missing TLS Encryption', identifier: 'named', area: 'tls',
    flags: 'the domain is served without TLS', inScope: true, rules: ['ssl-mode-insecure', 'universal-ssl-off', 'hostname-not-covered'],
    coverage: 'full',
    differs: 'judges the SSL mode (off and flexible serve or forward in clear text) and whether every proxied name has an active certificate, name by name',
  }),
  // Inferred: the filter also accepts a bare `tls_version`, which may be this insight or another TLS one.
  listed({
    issueClass: 'tls_version_old', displayName: 'Domains supporting older TLS version', identifier: 'inferred', area: 'tls',
    flags: 'the domain still accepts TLS 1.0 or 1.1', inScope: true, rules: ['tls-minimum-version'], coverage: 'full',
  }),
  // A public review quotes real issues always_https_not_enabled (insecure_configuration); the API reference's example spells it the alias.
  listed({
    issueClass: 'always_https_not_enabled', aliases: ['always_use_https_not_enabled'], displayName: "Domains without 'Always Use HTTPS'",
    identifier: 'named', issueType: 'insecure_configuration', area: 'tls', flags: 'plain HTTP requests are not redirected to HTTPS',
    inScope: true, rules: ['https-not-enforced'], coverage: 'full', differs: 'also reports Automatic HTTPS Rewrites off (low)',
  }),
  // A public review quotes real issues hsts_not_enabled (insecure_configuration).
  listed({
    issueClass: 'hsts_not_enabled', displayName: 'Domains without HSTS', identifier: 'named', issueType: 'insecure_configuration',
    area: 'tls', flags: 'the domain sends no HSTS header', inScope: true, rules: ['hsts-weak'], coverage: 'full',
    differs: 'also reports a max-age under six months, includeSubDomains missing, and a preload request the preload list would refuse',
  }),
  listed({
    issueClass: 'rdp_server_exposed', displayName: 'Exposed RDP Servers', identifier: 'named', area: 'network',
    flags: 'an RDP server answers from the public internet', inScope: false, coverage: 'none',
    reason: `active port probing: ${NEVER_PROBES}`,
  }),
  listed({
    issueClass: 'page_shield_alerts_missing', displayName: 'Get notified of malicious client-side scripts', identifier: 'named',
    area: 'client-side', flags: 'no notification policy alerts on malicious client-side scripts', inScope: true,
    rules: ['client-side-script-alert-missing'], coverage: 'full',
  }),
  listed({
    issueClass: 'response_size_anomaly_on_endpoint', displayName: 'Increased body response size detected on API endpoints',
    identifier: 'named', area: 'api-shield', flags: 'responses of an API endpoint grew larger than usual', inScope: false, coverage: 'none',
    reason: API_SHIELD,
  }),
  listed({
    issueClass: 'increased_error_rate_on_endpoint', displayName: 'Increased errors detected on API endpoints', identifier: 'named',
    area: 'api-shield', flags: 'an API endpoint answers with more errors than usual', inScope: false, coverage: 'none', reason: API_SHIELD,
  }),
  listed({
    issueClass: 'increased_latency_on_endpoint', displayName: 'Increased latency detected on API endpoints', identifier: 'named',
    area: 'api-shield', flags: 'an API endpoint answers more slowly than usual', inScope: false, coverage: 'none', reason: API_SHIELD,
  }),
  // Known limitations: account-level deployments may be missed, and a managed rule set to log may still raise a
  // vulnerability insight. No identifier found: of the filter's managed-rules values, waf_not_enabled is paired below,
  // and which of mr_log_mode and managed_rules_old the dashboard shows under this name is not public.
  listed({
    issueClass: null, displayName: 'Managed Rules not deployed', identifier: 'none', area: 'waf',
    flags: 'a zone the WAF protects deploys no managed rules', inScope: true,
    rules: ['managed-ruleset-not-deployed', 'managed-rules-disabled', 'legacy-waf-off'], coverage: 'full',
    differs: 'reads account-level deployments, which the vendor says it can miss (a false "not deployed"); reports a ruleset-wide override to log, a disabled execute rule or an earlier rule skipping every request as not deployed, which a check of deployment alone counts as deployed',
  }),
  listed({
    issueClass: 'managed_rules_old', displayName: 'Upgrade to new Managed Rules', identifier: 'named', area: 'waf',
    flags: 'the zone still runs the previous managed rules', inScope: true,
    rules: ['migration-pending', 'migration-incompatible', 'migration-overrides-lost', 'migration-too-many-firewall-rules', 'migration-expression-too-long', 'migration-validation-stalled'],
    coverage: 'full', differs: 'also says whether the zone can migrate, what it would lose, and reports a migration left half-way',
  }),
  listed({
    issueClass: 'mixed_auth_on_endpoint', displayName: 'Mixed-authentication API endpoints detected', identifier: 'named',
    area: 'api-shield', flags: 'some successful requests to an API endpoint carried no session identifier', inScope: false,
    coverage: 'none', reason: API_SHIELD,
  }),
  // Inferred: "not managed" reads as discovered endpoints not yet saved to Endpoint Management.
  listed({
    issueClass: 'api_endpoints_not_managed', displayName: 'New API endpoints detected', identifier: 'inferred', area: 'api-shield',
    flags: 'API Discovery found endpoints in the traffic that are not managed yet', inScope: false, coverage: 'none', reason: API_SHIELD,
  }),
  // Inferred: the filter's two CASB values are casb_unhealthy_integrations (paired above) and casb_findings.
  listed({
    issueClass: 'casb_findings', displayName: 'New CASB integrations found', identifier: 'inferred', area: 'zero-trust',
    flags: 'CASB integrations report new findings', inScope: false, coverage: 'none', reason: ZERO_TRUST,
  }),
  // Inferred: the only Access policy value of the filter.
  listed({
    issueClass: 'access_policy_insecure', displayName: 'Overprovisioned Access Policies', identifier: 'inferred', area: 'zero-trust',
    flags: 'an Access policy lets everyone into an application', inScope: false, coverage: 'none', reason: ZERO_TRUST,
  }),
  listed({
    issueClass: 'page_shield_not_enabled', displayName: 'Client-side security not enabled', identifier: 'named', area: 'client-side',
    flags: 'client-side security (Page Shield) is off', inScope: true, rules: ['client-side-security-off'], coverage: 'full',
    differs: 'judges only zones that serve pages through the proxy',
  }),
  // A public review shows it as issue_type email_security.
  listed({
    issueClass: 'spf', displayName: 'SPF Record Errors', identifier: 'named', issueType: 'email_security', area: 'email',
    flags: 'the SPF record is missing or wrong', inScope: true, rules: ['email-spf-missing'], coverage: 'full',
    differs: 'follows RFC 7208 to the letter (two records, more than 10 lookups, +all, ?all); a zone that sends no mail needs v=spf1 -all',
  }),
  listed({
    issueClass: 'no_schema_on_endpoint', displayName: 'Schema Validation missing from eligible API endpoints', identifier: 'named',
    area: 'api-shield', flags: 'an API endpoint with a learned schema is not validated against it', inScope: false, coverage: 'none',
    reason: API_SHIELD,
  }),
  listed({
    issueClass: 'sensitive_data_on_endpoint', displayName: 'Sensitive data in API response', identifier: 'named', area: 'api-shield',
    flags: 'API responses were seen carrying sensitive data', inScope: false, coverage: 'none', reason: API_SHIELD,
  }),
  listed({
    issueClass: 'bots_js_not_enabled', displayName: 'Turn on JavaScript Detection', identifier: 'named', area: 'bots',
    flags: 'a Bot Management zone has JavaScript detections off', inScope: true, rules: ['bot-js-detections-off'], coverage: 'full',
    differs: 'also reports Super Bot Fight Mode zones (Pro, Business, Enterprise without Bot Management) with them off, where the vendor calls them optional too; a zone whose Super Bot Fight Mode lets every bot through is left to bot-fight-mode-off',
  }),
  // Inferred: the filter's other setup value, access_identity_provider_integration, is listed separately below.
  listed({
    issueClass: 'access_setup_incomplete', displayName: 'Unassigned Access seats', identifier: 'inferred', area: 'zero-trust',
    flags: 'a Zero Trust subscription is not configured yet', inScope: false, coverage: 'none', reason: ZERO_TRUST,
  }),
  listed({
    issueClass: 'missing_auth_on_endpoint', displayName: 'Unauthenticated API endpoints detected', identifier: 'named', area: 'api-shield',
    flags: 'no successful request to an API endpoint carried a session identifier', inScope: false, coverage: 'none', reason: API_SHIELD,
  }),
  listed({
    issueClass: 'tunnel_not_protected_by_access', displayName: 'Unprotected Cloudflare Tunnels', identifier: 'named', area: 'zero-trust',
    flags: 'an application served by a Tunnel has no Access policy', inScope: false, coverage: 'none', reason: ZERO_TRUST,
  }),
  listed({
    issueClass: 'a_record_not_proxied', displayName: 'Unproxied A Records', identifier: 'named', area: 'dns',
    flags: 'an A record is DNS-only, so its origin address is public', inScope: true, rules: ['dns-record-not-proxied'],
    coverage: 'partial', reason: UNPROXIED_PARTIAL,
  }),
  listed({
    issueClass: 'aaaa_record_not_proxied', displayName: 'Unproxied AAAA Records', identifier: 'named', area: 'dns',
    flags: 'an AAAA record is DNS-only, so its origin address is public', inScope: true, rules: ['dns-record-not-proxied'],
    coverage: 'partial', reason: UNPROXIED_PARTIAL,
  }),
  // Also quoted from real answers.
  listed({
    issueClass: 'cname_record_not_proxied', displayName: 'Unproxied CNAME Records', identifier: 'named', area: 'dns',
    flags: 'a CNAME record is DNS-only, so its target is public', inScope: true, rules: ['dns-record-not-proxied'], coverage: 'partial',
    reason: UNPROXIED_PARTIAL,
  }),
  // A public review shows such issues as weak_authentication.
  listed({
    issueClass: 'mfa_not_enabled', displayName: 'Users without MFA', identifier: 'named', issueType: 'weak_authentication', area: 'account',
    flags: 'an account member has not turned on two-factor authentication', inScope: true, rules: ['account-member-no-2fa'],
    coverage: 'full',
  }),
  // A public review quotes it (Critical) for a zone with no managed-phase entry point. Inferred: it could also be
  // the name shown for "Managed Rules not deployed" above.
  listed({
    issueClass: 'waf_not_enabled', displayName: 'Zones without WAF Managed Rules', identifier: 'inferred', area: 'waf',
    flags: "the zone does not run the WAF's managed rules", inScope: true,
    rules: ['managed-ruleset-not-deployed', 'managed-rules-disabled', 'legacy-waf-off'], coverage: 'full',
    differs: 'reads account-level deployments, which the vendor says it can miss; reports a ruleset deployed but overridden to log, disabled or skipped for every request as not running',
  }),
  // A public review shows it as configuration_suggestion.
  listed({
    issueClass: 'no_turnstile_enabled', displayName: 'No Turnstile enabled', identifier: 'named', issueType: 'configuration_suggestion',
    area: 'turnstile', flags: 'the account has no Turnstile widget', inScope: false, coverage: 'none',
    reason: 'Turnstile adoption: whether forms need a challenge widget is up to the application, not the zone configuration',
  }),
];

/**
 * Identifiers the API gives insights the vendor's list does not name (alert filter values of
 * `security_insights_alert` in public account configurations, each one unless its comment says otherwise, and
 * issues quoted from real answers): what they flag is read from the identifier, and said so.
 */
const UNDOCUMENTED: readonly VendorInsightType[] = [
  // A public review shows it as configuration_suggestion, for zones with no security.txt.
  unlisted({
    issueClass: 'security_txt_not_enabled', issueType: 'configuration_suggestion', area: 'website',
    flags: 'the zone publishes no security.txt (RFC 9116)', inScope: true, rules: ['security-txt-missing'], coverage: 'full',
  }),
  // A public review shows it as configuration_suggestion ("AI-bot blocking unset").
  unlisted({
    issueClass: 'no_block_ai_bots', issueType: 'configuration_suggestion', area: 'bots', flags: 'AI crawlers are not blocked',
    inScope: true, rules: ['bot-ai-bots-not-blocked'], coverage: 'full',
  }),
  // A public review shows it as configuration_suggestion ("AI-bot challenge unset").
  unlisted({
    issueClass: 'no_challenge_ai_bots', issueType: 'configuration_suggestion', area: 'bots', flags: 'AI crawlers are not challenged',
    inScope: true, rules: ['bot-ai-bots-not-blocked'], coverage: 'partial',
    reason: 'zonewarden judges whether AI bots are blocked (ai_bots_protection); whether they are challenged instead (likely crawler_protection) is not judged',
  }),
  unlisted({
    issueClass: 'update_bots_model', area: 'bots', flags: 'Bot Management does not take the latest detection model', inScope: true,
    rules: ['bot-model-auto-update-off'], coverage: 'full',
  }),
  // A public review shows it as configuration_suggestion.
  unlisted({
    issueClass: 'manage_bot_fight_mode', issueType: 'configuration_suggestion', area: 'bots', flags: 'Bot Fight Mode is off', inScope: true,
    rules: ['bot-fight-mode-off'], coverage: 'full',
    differs: "judges the bot product of the zone's plan: Bot Fight Mode on Free, Super Bot Fight Mode settings on Pro and Business",
  }),
  // A public review quotes it (Moderate) for Super Bot Fight Mode allowing definitely automated traffic.
  unlisted({
    issueClass: 'standard_super_bot_fight_mode', area: 'bots', flags: 'Super Bot Fight Mode lets automated traffic through', inScope: true,
    rules: ['bot-fight-mode-off'], coverage: 'full',
  }),
  unlisted({
    issueClass: 'stale_bot_settings', area: 'bots', flags: 'bot settings look stale (the vendor documents no detail)', inScope: true,
    coverage: 'none', reason: 'the vendor documents neither its name nor what it checks, so no rule can be said to judge the same thing',
  }),
  unlisted({
    issueClass: 'no_bot_score', area: 'bots', flags: 'no rule acts on the bot score (read from the identifier)', inScope: true,
    coverage: 'none', reason: 'the vendor documents no detail; zonewarden does not judge custom rules by the bot score they use',
  }),
  unlisted({
    issueClass: 'mr_log_mode', area: 'waf', flags: 'managed rules run in log mode', inScope: true, rules: ['managed-ruleset-not-deployed'],
    coverage: 'partial',
    reason: 'zonewarden reports a ruleset-wide override to log; category and single-rule overrides to log are ordinary tuning it does not judge',
  }),
  unlisted({
    issueClass: 'skip_above_threshold', area: 'waf', flags: 'skip rules exempt too much traffic (read from the identifier)', inScope: true,
    rules: ['custom-rules-broad-skip'], coverage: 'partial',
    reason: 'the vendor documents no threshold; zonewarden reports skip rules that exempt a whole site or host',
  }),
  unlisted({
    issueClass: 'no_clearance_cookie_rate_limit', area: 'waf',
    flags: 'no rate limit on requests without a challenge clearance cookie (read from the identifier)', inScope: true,
    rules: ['rate-limiting-missing'], coverage: 'partial',
    reason: 'zonewarden reports zones without any rate limiting rule; what the rule counts is not judged',
  }),
  unlisted({
    issueClass: 'no_ip_list', area: 'waf', flags: 'rules list addresses inline instead of using an IP list (read from the identifier)',
    inScope: true, coverage: 'none', reason: 'a matter of rule upkeep, not protection: zonewarden does not judge how rules spell addresses',
  }),
  unlisted({
    issueClass: 'ddos_protection_not_in_force', area: 'ddos',
    flags: 'DDoS protection is overridden or not in force (read from the identifier)', inScope: false, coverage: 'none',
    reason: 'zonewarden does not read the DDoS managed rulesets or their overrides',
  }),
  unlisted({
    issueClass: 'upgrade_to_lcc', area: 'waf', flags: 'upgrade to leaked credentials checks (read from the identifier)', inScope: false,
    coverage: 'none', reason: 'a product suggestion, not a configuration weakness zonewarden judges',
  }),
  unlisted({
    issueClass: 'tls_version', area: 'tls', flags: 'a TLS version setting (the vendor documents no detail)', inScope: true,
    rules: ['tls-minimum-version', 'tls-1-3-disabled'], coverage: 'partial',
    reason: 'what it flags is not documented; zonewarden judges the minimum version and TLS 1.3',
  }),
  // API Shield detections the vendor's list does not name.
  unlisted({
    issueClass: 'enumeration_on_endpoint', area: 'api-shield', flags: 'enumeration was seen on an API endpoint', inScope: false,
    coverage: 'none', reason: API_SHIELD,
  }),
  unlisted({
    issueClass: 'parameter_pollution_on_endpoint', area: 'api-shield', flags: 'parameter pollution was seen on an API endpoint',
    inScope: false, coverage: 'none', reason: API_SHIELD,
  }),
  unlisted({
    issueClass: 'access_identity_provider_integration', area: 'zero-trust',
    flags: 'an Access identity provider integration needs attention', inScope: false, coverage: 'none', reason: ZERO_TRUST,
  }),
  // Quoted from real answers in a public note on plan-gated suggestions: performance features, not security.
  unlisted({
    issueClass: 'argo_smart_routing_not_enabled', area: 'performance', flags: 'Argo Smart Routing is off', inScope: false, coverage: 'none',
    reason: 'a paid performance feature, not security configuration',
  }),
  unlisted({
    issueClass: 'polish_not_enabled', area: 'performance', flags: 'Polish image optimisation is off', inScope: false, coverage: 'none',
    reason: 'a paid performance feature, not security configuration',
  }),
];

/** Every insight type: the 34 the vendor documents, then the identifiers seen only in answers. */
export const VENDOR_INSIGHT_TYPES: readonly VendorInsightType[] = [...DOCUMENTED, ...UNDOCUMENTED];

const BY_CLASS = new Map<string, VendorInsightType>();
for (const entry of VENDOR_INSIGHT_TYPES) {
  for (const id of entry.issueClass === null ? [] : [entry.issueClass, ...entry.aliases]) BY_CLASS.set(id, entry);
}

/** The entry of an issue's `issue_class` (an alias included); undefined for one no public source names (shown as not mapped). */
export function insightTypeOf(issueClass: string): VendorInsightType | undefined {
  return BY_CLASS.get(issueClass);
}
