/**
 * The vendor's own scanner, Security Insights ("Security Action Items" in the security overview
 * since 2026-03), as data: every insight type it documents, the identifier its API gives issues of
 * that type, and what zonewarden judges it with. No I/O and no imports: the first room of a model
 * of the vendor's products, read by the side-by-side comparison and by the docs page
 * docs/from-vendor-insights.md (whose table a test generates from this list).
 *
 * How the API names an insight (SDK: cloudflare 7.3.0, security-center/insights `InsightListResponse.Issue`;
 * vendor API reference: "Retrieves Security Center Insights"):
 * - `issue_class` (a free string) is the insight itself, e.g. `hsts_not_enabled`;
 * - `issue_type` is one of a few broad categories (`INSIGHT_ISSUE_TYPES`), e.g. `insecure_configuration`,
 *   shown as the insight's "Type" in the dashboard (vendor docs: Security Insights, how it works:
 *   "Type: The insight category").
 * So an issue is matched to its entry by `issue_class` (`insightTypeOf`). The vendor publishes no
 * table from display name to `issue_class`: the identifiers below come from the values its
 * notification policies accept as `filters.insight_class` (alert type `security_insights_alert`,
 * listed in public account configurations), from real answers quoted in public reviews, and from
 * the API reference's own examples (`a_record_dangling`, `always_use_https_not_enabled`). Each
 * entry says how sure the pairing of identifier and name is (`identifier`); where no identifier
 * was found, `issueClass` is null and the entry is known by its display name only.
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

/** How much of what the insight flags zonewarden's rules report. */
export type InsightCoverage = 'full' | 'partial' | 'none';

/**
 * How sure the pairing of `issueClass` and `displayName` is:
 * - `named`: the identifier's words name this insight and no other (`a_record_dangling`,
 *   "Dangling A Records"), or a public answer shows it with this insight's meaning;
 * - `inferred`: paired by wording where another reading is possible (the entry's comment says which);
 * - `none`: nothing to pair: no identifier was found (`issueClass` is null), or the vendor documents
 *   no name for it (`displayName` is null; `flags` then says where its meaning is read from the identifier alone).
 */
export type IdentifierPairing = 'named' | 'inferred' | 'none';

/** The vendor's product area an insight is about; out-of-scope areas are those zonewarden does not audit. */
export type InsightArea = 'dns' | 'email' | 'tls' | 'waf' | 'bots' | 'client-side' | 'account' | 'api-shield' | 'zero-trust' | 'network' | 'turnstile' | 'performance' | 'ddos' | 'website';

export interface VendorInsightType {
  /** The API's `issue_class` for issues of this type; null where no public source names it. */
  readonly issueClass: string | null;
  /** Other spellings of the same identifier (the API reference's examples differ from real answers). */
  readonly aliases: readonly string[];
  /** The name the vendor's list of insights (and its dashboard) gives it; null for identifiers seen in answers but not in that list. */
  readonly displayName: string | null;
  /** Whether the vendor's list of insight types (vendor docs: Security Insights) includes it: 34 entries do. */
  readonly documented: boolean;
  readonly identifier: IdentifierPairing;
  /** The `issue_type` (category) a public answer shows for it; null where none was seen. */
  readonly issueType: InsightIssueType | null;
  readonly area: InsightArea;
  /** What it flags, in one line (zonewarden's wording). */
  readonly flags: string;
  /** Whether it is about what zonewarden audits: the zone and account configuration the API returns. */
  readonly inScope: boolean;
  /** zonewarden rule ids that judge it (rules/<id>.ts). */
  readonly rules: readonly string[];
  readonly coverage: InsightCoverage;
  /** Why zonewarden covers it only partly or not at all; null when coverage is full. */
  readonly reason: string | null;
  /** Where zonewarden sees more or judges otherwise, for a covered insight; null when nothing to say. */
  readonly differs: string | null;
}

const NEVER_PROBES = 'zonewarden never probes networks';
const ZERO_TRUST = 'Zero Trust (Access, Tunnel, CASB) is a separate product zonewarden does not audit';
const API_SHIELD = 'API Shield traffic analytics: it is learned from requests, not read from configuration';
const UNPROXIED_PARTIAL =
  'by default only zones that proxy at least one record are judged, and names that carry no web traffic (mail hosts, ftp, ssh, vpn, _service names) are left alone; an option of dns-record-not-proxied reports every unproxied record in every zone';

/** Builds an entry; `reason` is required unless coverage is full (the module's test checks it). */
function insight(entry: Omit<VendorInsightType, 'aliases' | 'differs' | 'reason'> & Partial<Pick<VendorInsightType, 'aliases' | 'differs' | 'reason'>>): VendorInsightType {
  return { aliases: [], differs: null, reason: null, ...entry };
}

/**
 * The 34 documented insight types, in the order of the vendor's list
 * (vendor docs: Security Insights, "Listed below are the specific insights currently available").
 */
const DOCUMENTED: readonly VendorInsightType[] = [
  // vendor docs: Security Insights (CASB integration status); alert filter value casb_unhealthy_integrations.
  insight({
    issueClass: 'casb_unhealthy_integrations', displayName: 'CASB integration status', documented: true, identifier: 'named',
    issueType: null, area: 'zero-trust', flags: 'a CASB integration is unhealthy',
    inScope: false, rules: [], coverage: 'none', reason: ZERO_TRUST,
  }),
  // vendor docs: Security Insights (Dangling A Records); vendor API reference example issue_class a_record_dangling.
  insight({
    issueClass: 'a_record_dangling', displayName: 'Dangling A Records', documented: true, identifier: 'named',
    issueType: null, area: 'dns', flags: 'an A record points at an IPv4 address the zone may no longer control',
    inScope: true, rules: [], coverage: 'none',
    reason: `${NEVER_PROBES}: whether an address is still yours cannot be read from DNS or the API, only guessed by probing it`,
  }),
  // vendor docs: Security Insights (Dangling AAAA Records); alert filter value aaaa_record_dangling.
  insight({
    issueClass: 'aaaa_record_dangling', displayName: 'Dangling AAAA Records', documented: true, identifier: 'named',
    issueType: null, area: 'dns', flags: 'an AAAA record points at an IPv6 address the zone may no longer control',
    inScope: true, rules: [], coverage: 'none',
    reason: `${NEVER_PROBES}: whether an address is still yours cannot be read from DNS or the API, only guessed by probing it`,
  }),
  // vendor docs: Security Insights (Dangling CNAME Records); alert filter value cname_record_dangling.
  insight({
    issueClass: 'cname_record_dangling', displayName: 'Dangling CNAME Records', documented: true, identifier: 'named',
    issueType: null, area: 'dns', flags: 'a CNAME record points at a name that cannot be found',
    inScope: true, rules: ['dns-dangling-target'], coverage: 'full',
    differs: 'also judges MX, NS and SRV targets; a target that exists without an address (NODATA) passes, a SERVFAIL or timeout is reported as not judged',
  }),
  // vendor docs: Security Insights (DMARC Record Errors); alert filter value dmarc; a public review shows it as issue_type email_security.
  insight({
    issueClass: 'dmarc', displayName: 'DMARC Record Errors', documented: true, identifier: 'named',
    issueType: 'email_security', area: 'email', flags: 'the DMARC record is missing or wrong',
    inScope: true, rules: ['email-dmarc-missing'], coverage: 'full',
    differs: 'also fails p=none (medium), two records, pct below 100 and sp=none; a zone that sends no mail needs p=reject',
  }),
  // vendor docs: Security Insights (Domains missing TLS Encryption); alert filter value tls_not_enabled.
  insight({
    issueClass: 'tls_not_enabled', displayName: 'Domains missing TLS Encryption', documented: true, identifier: 'named',
    issueType: null, area: 'tls', flags: 'the domain is served without TLS',
    inScope: true, rules: ['ssl-mode-insecure', 'universal-ssl-off', 'hostname-not-covered'], coverage: 'full',
    differs: 'judges the SSL mode (off and flexible serve or forward in clear text) and whether every proxied name has an active certificate, name by name',
  }),
  // vendor docs: Security Insights (Domains supporting older TLS version); alert filter value tls_version_old.
  // Inferred: the filter also accepts a bare `tls_version`, which may be this insight or another TLS one.
  insight({
    issueClass: 'tls_version_old', displayName: 'Domains supporting older TLS version', documented: true, identifier: 'inferred',
    issueType: null, area: 'tls', flags: 'the domain still accepts TLS 1.0 or 1.1',
    inScope: true, rules: ['tls-minimum-version'], coverage: 'full',
  }),
  // vendor docs: Security Insights (Domains without 'Always Use HTTPS'); a public review quotes real issues
  // always_https_not_enabled (issue_type insecure_configuration); the API reference's example spells it always_use_https_not_enabled.
  insight({
    issueClass: 'always_https_not_enabled', aliases: ['always_use_https_not_enabled'], displayName: "Domains without 'Always Use HTTPS'", documented: true, identifier: 'named',
    issueType: 'insecure_configuration', area: 'tls', flags: 'plain HTTP requests are not redirected to HTTPS',
    inScope: true, rules: ['https-not-enforced'], coverage: 'full',
    differs: 'also reports Automatic HTTPS Rewrites off (low)',
  }),
  // vendor docs: Security Insights (Domains without HSTS); a public review quotes real issues hsts_not_enabled (insecure_configuration).
  insight({
    issueClass: 'hsts_not_enabled', displayName: 'Domains without HSTS', documented: true, identifier: 'named',
    issueType: 'insecure_configuration', area: 'tls', flags: 'the domain sends no HSTS header',
    inScope: true, rules: ['hsts-weak'], coverage: 'full',
    differs: 'also reports a max-age under six months, includeSubDomains missing, and a preload request the preload list would refuse',
  }),
  // vendor docs: Security Insights (Exposed RDP Servers); alert filter value rdp_server_exposed.
  insight({
    issueClass: 'rdp_server_exposed', displayName: 'Exposed RDP Servers', documented: true, identifier: 'named',
    issueType: null, area: 'network', flags: 'an RDP server answers from the public internet',
    inScope: false, rules: [], coverage: 'none', reason: `active port probing: ${NEVER_PROBES}`,
  }),
  // vendor docs: Security Insights (Get notified of malicious client-side scripts); alert filter value page_shield_alerts_missing.
  insight({
    issueClass: 'page_shield_alerts_missing', displayName: 'Get notified of malicious client-side scripts', documented: true, identifier: 'named',
    issueType: null, area: 'client-side', flags: 'no notification policy alerts on malicious client-side scripts',
    inScope: true, rules: ['client-side-script-alert-missing'], coverage: 'full',
  }),
  // vendor docs: Security Insights (Increased body response size detected on API endpoints); alert filter value response_size_anomaly_on_endpoint.
  insight({
    issueClass: 'response_size_anomaly_on_endpoint', displayName: 'Increased body response size detected on API endpoints', documented: true, identifier: 'named',
    issueType: null, area: 'api-shield', flags: 'responses of an API endpoint grew larger than usual',
    inScope: false, rules: [], coverage: 'none', reason: API_SHIELD,
  }),
  // vendor docs: Security Insights (Increased errors detected on API endpoints); alert filter value increased_error_rate_on_endpoint.
  insight({
    issueClass: 'increased_error_rate_on_endpoint', displayName: 'Increased errors detected on API endpoints', documented: true, identifier: 'named',
    issueType: null, area: 'api-shield', flags: 'an API endpoint answers with more errors than usual',
    inScope: false, rules: [], coverage: 'none', reason: API_SHIELD,
  }),
  // vendor docs: Security Insights (Increased latency detected on API endpoints); alert filter value increased_latency_on_endpoint.
  insight({
    issueClass: 'increased_latency_on_endpoint', displayName: 'Increased latency detected on API endpoints', documented: true, identifier: 'named',
    issueType: null, area: 'api-shield', flags: 'an API endpoint answers more slowly than usual',
    inScope: false, rules: [], coverage: 'none', reason: API_SHIELD,
  }),
  // vendor docs: Security Insights (Managed Rules not deployed; Known limitations: managed rules deployed
  // at the account level may be missed, and a managed rule set to log may still raise a vulnerability
  // insight). No identifier found: the alert filter's
  // managed-rules values are waf_not_enabled (paired below with "Zones without WAF Managed Rules"),
  // mr_log_mode and managed_rules_old; which one the dashboard shows under this name is not public.
  insight({
    issueClass: null, displayName: 'Managed Rules not deployed', documented: true, identifier: 'none',
    issueType: null, area: 'waf', flags: 'a zone the WAF protects deploys no managed rules',
    inScope: true, rules: ['managed-ruleset-not-deployed', 'managed-rules-disabled', 'legacy-waf-off'], coverage: 'full',
    differs: 'reads account-level deployments, which the vendor says it can miss (a false "not deployed"); reports a ruleset-wide override to log, a disabled execute rule or an earlier rule skipping every request as not deployed, which a check of deployment alone counts as deployed',
  }),
  // vendor docs: Security Insights (Upgrade to new Managed Rules); alert filter value managed_rules_old.
  insight({
    issueClass: 'managed_rules_old', displayName: 'Upgrade to new Managed Rules', documented: true, identifier: 'named',
    issueType: null, area: 'waf', flags: 'the zone still runs the previous managed rules',
    inScope: true, rules: ['migration-pending', 'migration-incompatible', 'migration-overrides-lost', 'migration-too-many-firewall-rules', 'migration-expression-too-long', 'migration-validation-stalled'], coverage: 'full',
    differs: 'also says whether the zone can migrate, what it would lose, and reports a migration left half-way',
  }),
  // vendor docs: Security Insights (Mixed-authentication API endpoints detected); alert filter value mixed_auth_on_endpoint.
  insight({
    issueClass: 'mixed_auth_on_endpoint', displayName: 'Mixed-authentication API endpoints detected', documented: true, identifier: 'named',
    issueType: null, area: 'api-shield', flags: 'some successful requests to an API endpoint carried no session identifier',
    inScope: false, rules: [], coverage: 'none', reason: API_SHIELD,
  }),
  // vendor docs: Security Insights (New API endpoints detected); alert filter value api_endpoints_not_managed.
  // Inferred: "not managed" reads as discovered endpoints not yet saved to Endpoint Management.
  insight({
    issueClass: 'api_endpoints_not_managed', displayName: 'New API endpoints detected', documented: true, identifier: 'inferred',
    issueType: null, area: 'api-shield', flags: 'API Discovery found endpoints in the traffic that are not managed yet',
    inScope: false, rules: [], coverage: 'none', reason: API_SHIELD,
  }),
  // vendor docs: Security Insights (New CASB integrations found); alert filter value casb_findings.
  // Inferred: the filter's two CASB values are casb_unhealthy_integrations (paired above) and casb_findings.
  insight({
    issueClass: 'casb_findings', displayName: 'New CASB integrations found', documented: true, identifier: 'inferred',
    issueType: null, area: 'zero-trust', flags: 'CASB integrations report new findings',
    inScope: false, rules: [], coverage: 'none', reason: ZERO_TRUST,
  }),
  // vendor docs: Security Insights (Overprovisioned Access Policies); alert filter value access_policy_insecure.
  // Inferred: the only Access policy value of the filter.
  insight({
    issueClass: 'access_policy_insecure', displayName: 'Overprovisioned Access Policies', documented: true, identifier: 'inferred',
    issueType: null, area: 'zero-trust', flags: 'an Access policy lets everyone into an application',
    inScope: false, rules: [], coverage: 'none', reason: ZERO_TRUST,
  }),
  // vendor docs: Security Insights (Client-side security not enabled, formerly Page Shield); alert filter value page_shield_not_enabled.
  insight({
    issueClass: 'page_shield_not_enabled', displayName: 'Client-side security not enabled', documented: true, identifier: 'named',
    issueType: null, area: 'client-side', flags: 'client-side security (Page Shield) is off',
    inScope: true, rules: ['client-side-security-off'], coverage: 'full',
    differs: 'judges only zones that serve pages through the proxy',
  }),
  // vendor docs: Security Insights (SPF Record Errors); alert filter value spf; a public review shows it as issue_type email_security.
  insight({
    issueClass: 'spf', displayName: 'SPF Record Errors', documented: true, identifier: 'named',
    issueType: 'email_security', area: 'email', flags: 'the SPF record is missing or wrong',
    inScope: true, rules: ['email-spf-missing'], coverage: 'full',
    differs: 'follows RFC 7208 to the letter (two records, more than 10 lookups, +all, ?all); a zone that sends no mail needs v=spf1 -all',
  }),
  // vendor docs: Security Insights (Schema Validation missing from eligible API endpoints); alert filter value no_schema_on_endpoint.
  insight({
    issueClass: 'no_schema_on_endpoint', displayName: 'Schema Validation missing from eligible API endpoints', documented: true, identifier: 'named',
    issueType: null, area: 'api-shield', flags: 'an API endpoint with a learned schema is not validated against it',
    inScope: false, rules: [], coverage: 'none', reason: API_SHIELD,
  }),
  // vendor docs: Security Insights (Sensitive data in API response); alert filter value sensitive_data_on_endpoint.
  insight({
    issueClass: 'sensitive_data_on_endpoint', displayName: 'Sensitive data in API response', documented: true, identifier: 'named',
    issueType: null, area: 'api-shield', flags: 'API responses were seen carrying sensitive data',
    inScope: false, rules: [], coverage: 'none', reason: API_SHIELD,
  }),
  // vendor docs: Security Insights (Turn on JavaScript Detection); alert filter value bots_js_not_enabled.
  insight({
    issueClass: 'bots_js_not_enabled', displayName: 'Turn on JavaScript Detection', documented: true, identifier: 'named',
    issueType: null, area: 'bots', flags: 'a Bot Management zone has JavaScript detections off',
    inScope: true, rules: ['bot-js-detections-off'], coverage: 'full',
  }),
  // vendor docs: Security Insights (Unassigned Access seats); alert filter value access_setup_incomplete.
  // Inferred: the filter's other setup value, access_identity_provider_integration, is listed separately below.
  insight({
    issueClass: 'access_setup_incomplete', displayName: 'Unassigned Access seats', documented: true, identifier: 'inferred',
    issueType: null, area: 'zero-trust', flags: 'a Zero Trust subscription is not configured yet',
    inScope: false, rules: [], coverage: 'none', reason: ZERO_TRUST,
  }),
  // vendor docs: Security Insights (Unauthenticated API endpoints detected); alert filter value missing_auth_on_endpoint.
  insight({
    issueClass: 'missing_auth_on_endpoint', displayName: 'Unauthenticated API endpoints detected', documented: true, identifier: 'named',
    issueType: null, area: 'api-shield', flags: 'no successful request to an API endpoint carried a session identifier',
    inScope: false, rules: [], coverage: 'none', reason: API_SHIELD,
  }),
  // vendor docs: Security Insights (Unprotected Cloudflare Tunnels); alert filter value tunnel_not_protected_by_access.
  insight({
    issueClass: 'tunnel_not_protected_by_access', displayName: 'Unprotected Cloudflare Tunnels', documented: true, identifier: 'named',
    issueType: null, area: 'zero-trust', flags: 'an application served by a Tunnel has no Access policy',
    inScope: false, rules: [], coverage: 'none', reason: ZERO_TRUST,
  }),
  // vendor docs: Security Insights (Unproxied A Records); alert filter value a_record_not_proxied.
  insight({
    issueClass: 'a_record_not_proxied', displayName: 'Unproxied A Records', documented: true, identifier: 'named',
    issueType: null, area: 'dns', flags: 'an A record is DNS-only, so its origin address is public',
    inScope: true, rules: ['dns-record-not-proxied'], coverage: 'partial', reason: UNPROXIED_PARTIAL,
  }),
  // vendor docs: Security Insights (Unproxied AAAA Records); alert filter value aaaa_record_not_proxied.
  insight({
    issueClass: 'aaaa_record_not_proxied', displayName: 'Unproxied AAAA Records', documented: true, identifier: 'named',
    issueType: null, area: 'dns', flags: 'an AAAA record is DNS-only, so its origin address is public',
    inScope: true, rules: ['dns-record-not-proxied'], coverage: 'partial', reason: UNPROXIED_PARTIAL,
  }),
  // vendor docs: Security Insights (Unproxied CNAME Records); alert filter value cname_record_not_proxied, also quoted from real answers.
  insight({
    issueClass: 'cname_record_not_proxied', displayName: 'Unproxied CNAME Records', documented: true, identifier: 'named',
    issueType: null, area: 'dns', flags: 'a CNAME record is DNS-only, so its target is public',
    inScope: true, rules: ['dns-record-not-proxied'], coverage: 'partial', reason: UNPROXIED_PARTIAL,
  }),
  // vendor docs: Security Insights (Users without MFA); alert filter value mfa_not_enabled; a public review shows such issues as weak_authentication.
  insight({
    issueClass: 'mfa_not_enabled', displayName: 'Users without MFA', documented: true, identifier: 'named',
    issueType: 'weak_authentication', area: 'account', flags: 'an account member has not turned on two-factor authentication',
    inScope: true, rules: ['account-member-no-2fa'], coverage: 'full',
  }),
  // vendor docs: Security Insights (Zones without WAF Managed Rules); alert filter value waf_not_enabled; a public review
  // quotes it (Critical) for a zone with no managed-phase entry point. Inferred: it could also be the name shown for
  // "Managed Rules not deployed" above.
  insight({
    issueClass: 'waf_not_enabled', displayName: 'Zones without WAF Managed Rules', documented: true, identifier: 'inferred',
    issueType: null, area: 'waf', flags: "the zone does not run the WAF's managed rules",
    inScope: true, rules: ['managed-ruleset-not-deployed', 'managed-rules-disabled', 'legacy-waf-off'], coverage: 'full',
    differs: 'reads account-level deployments, which the vendor says it can miss; reports a ruleset deployed but overridden to log, disabled or skipped for every request as not running',
  }),
  // vendor docs: Security Insights (No Turnstile enabled); alert filter value no_turnstile_enabled; a public review shows it as configuration_suggestion.
  insight({
    issueClass: 'no_turnstile_enabled', displayName: 'No Turnstile enabled', documented: true, identifier: 'named',
    issueType: 'configuration_suggestion', area: 'turnstile', flags: 'the account has no Turnstile widget',
    inScope: false, rules: [], coverage: 'none', reason: 'Turnstile adoption: whether forms need a challenge widget is up to the application, not the zone configuration',
  }),
];

/**
 * Identifiers the API gives insights the vendor's list does not name (alert filter values of
 * `security_insights_alert` in public account configurations, and issues quoted from real answers).
 * They have no documented display name; what they flag is read from the identifier, and said so.
 */
const UNDOCUMENTED: readonly VendorInsightType[] = [
  // Alert filter value; a public review shows it as configuration_suggestion, for zones with no security.txt.
  insight({
    issueClass: 'security_txt_not_enabled', displayName: null, documented: false, identifier: 'none',
    issueType: 'configuration_suggestion', area: 'website', flags: 'the zone publishes no security.txt (RFC 9116)',
    inScope: true, rules: ['security-txt-missing'], coverage: 'full',
  }),
  // Alert filter value; a public review shows it as configuration_suggestion ("AI-bot blocking unset").
  insight({
    issueClass: 'no_block_ai_bots', displayName: null, documented: false, identifier: 'none',
    issueType: 'configuration_suggestion', area: 'bots', flags: 'AI crawlers are not blocked',
    inScope: true, rules: ['bot-ai-bots-not-blocked'], coverage: 'full',
  }),
  // Alert filter value; a public review shows it as configuration_suggestion ("AI-bot challenge unset").
  insight({
    issueClass: 'no_challenge_ai_bots', displayName: null, documented: false, identifier: 'none',
    issueType: 'configuration_suggestion', area: 'bots', flags: 'AI crawlers are not challenged',
    inScope: true, rules: ['bot-ai-bots-not-blocked'], coverage: 'partial',
    reason: 'zonewarden judges whether AI bots are blocked (ai_bots_protection); whether they are challenged instead (likely crawler_protection) is not judged',
  }),
  // Alert filter value.
  insight({
    issueClass: 'update_bots_model', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'bots', flags: 'Bot Management does not take the latest detection model',
    inScope: true, rules: ['bot-model-auto-update-off'], coverage: 'full',
  }),
  // Alert filter value; a public review shows it as configuration_suggestion.
  insight({
    issueClass: 'manage_bot_fight_mode', displayName: null, documented: false, identifier: 'none',
    issueType: 'configuration_suggestion', area: 'bots', flags: 'Bot Fight Mode is off',
    inScope: true, rules: ['bot-fight-mode-off'], coverage: 'full',
    differs: 'judges the bot product of the zone\'s plan: Bot Fight Mode on Free, Super Bot Fight Mode settings on Pro and Business',
  }),
  // Alert filter value; a public review quotes it (Moderate) for Super Bot Fight Mode allowing definitely automated traffic.
  insight({
    issueClass: 'standard_super_bot_fight_mode', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'bots', flags: 'Super Bot Fight Mode lets automated traffic through',
    inScope: true, rules: ['bot-fight-mode-off'], coverage: 'full',
  }),
  // Alert filter value.
  insight({
    issueClass: 'stale_bot_settings', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'bots', flags: 'bot settings look stale (the vendor documents no detail)',
    inScope: true, rules: [], coverage: 'none', reason: 'the vendor documents neither its name nor what it checks, so no rule can be said to judge the same thing',
  }),
  // Alert filter value.
  insight({
    issueClass: 'no_bot_score', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'bots', flags: 'no rule acts on the bot score (read from the identifier)',
    inScope: true, rules: [], coverage: 'none', reason: 'the vendor documents no detail; zonewarden does not judge custom rules by the bot score they use',
  }),
  // Alert filter value.
  insight({
    issueClass: 'mr_log_mode', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'waf', flags: 'managed rules run in log mode',
    inScope: true, rules: ['managed-ruleset-not-deployed'], coverage: 'partial',
    reason: 'zonewarden reports a ruleset-wide override to log; category and single-rule overrides to log are ordinary tuning it does not judge',
  }),
  // Alert filter value.
  insight({
    issueClass: 'skip_above_threshold', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'waf', flags: 'skip rules exempt too much traffic (read from the identifier)',
    inScope: true, rules: ['custom-rules-broad-skip'], coverage: 'partial',
    reason: 'the vendor documents no threshold; zonewarden reports skip rules that exempt a whole site or host',
  }),
  // Alert filter value.
  insight({
    issueClass: 'no_clearance_cookie_rate_limit', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'waf', flags: 'no rate limit on requests without a challenge clearance cookie (read from the identifier)',
    inScope: true, rules: ['rate-limiting-missing'], coverage: 'partial',
    reason: 'zonewarden reports zones without any rate limiting rule; what the rule counts is not judged',
  }),
  // Alert filter value.
  insight({
    issueClass: 'no_ip_list', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'waf', flags: 'rules list addresses inline instead of using an IP list (read from the identifier)',
    inScope: true, rules: [], coverage: 'none', reason: 'a matter of rule upkeep, not protection: zonewarden does not judge how rules spell addresses',
  }),
  // Alert filter value.
  insight({
    issueClass: 'ddos_protection_not_in_force', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'ddos', flags: 'DDoS protection is overridden or not in force (read from the identifier)',
    inScope: false, rules: [], coverage: 'none', reason: 'zonewarden does not read the DDoS managed rulesets or their overrides',
  }),
  // Alert filter value.
  insight({
    issueClass: 'upgrade_to_lcc', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'waf', flags: 'upgrade to leaked credentials checks (read from the identifier)',
    inScope: false, rules: [], coverage: 'none', reason: 'a product suggestion, not a configuration weakness zonewarden judges',
  }),
  // Alert filter value.
  insight({
    issueClass: 'tls_version', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'tls', flags: 'a TLS version setting (the vendor documents no detail)',
    inScope: true, rules: ['tls-minimum-version', 'tls-1-3-disabled'], coverage: 'partial',
    reason: 'what it flags is not documented; zonewarden judges the minimum version and TLS 1.3',
  }),
  // Alert filter values: API Shield detections the vendor's list does not name.
  insight({
    issueClass: 'enumeration_on_endpoint', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'api-shield', flags: 'enumeration was seen on an API endpoint',
    inScope: false, rules: [], coverage: 'none', reason: API_SHIELD,
  }),
  insight({
    issueClass: 'parameter_pollution_on_endpoint', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'api-shield', flags: 'parameter pollution was seen on an API endpoint',
    inScope: false, rules: [], coverage: 'none', reason: API_SHIELD,
  }),
  // Alert filter value.
  insight({
    issueClass: 'access_identity_provider_integration', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'zero-trust', flags: 'an Access identity provider integration needs attention',
    inScope: false, rules: [], coverage: 'none', reason: ZERO_TRUST,
  }),
  // Quoted from real answers in a public note on plan-gated suggestions: performance features, not security.
  insight({
    issueClass: 'argo_smart_routing_not_enabled', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'performance', flags: 'Argo Smart Routing is off',
    inScope: false, rules: [], coverage: 'none', reason: 'a paid performance feature, not security configuration',
  }),
  insight({
    issueClass: 'polish_not_enabled', displayName: null, documented: false, identifier: 'none',
    issueType: null, area: 'performance', flags: 'Polish image optimisation is off',
    inScope: false, rules: [], coverage: 'none', reason: 'a paid performance feature, not security configuration',
  }),
];

/** Every insight type: the 34 the vendor documents, then the identifiers seen only in answers. */
export const VENDOR_INSIGHT_TYPES: readonly VendorInsightType[] = [...DOCUMENTED, ...UNDOCUMENTED];

const BY_CLASS = new Map<string, VendorInsightType>();
for (const entry of VENDOR_INSIGHT_TYPES) {
  for (const id of entry.issueClass === null ? [] : [entry.issueClass, ...entry.aliases]) BY_CLASS.set(id, entry);
}

/**
 * The entry of an issue's `issue_class` (an alias included), or undefined for one no public
 * source names: a new insight the vendor added since, to be shown as not mapped.
 */
export function insightTypeOf(issueClass: string): VendorInsightType | undefined {
  return BY_CLASS.get(issueClass);
}
