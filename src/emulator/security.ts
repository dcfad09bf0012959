import { formatApiTime } from './clock.js';
import { stableId } from './ids.js';
import type { Ruleset, RulesetRule } from './ruleset.js';

/**
 * A zone's security settings, DNSSEC, universal SSL switch and custom-rules entry point, as the
 * vendor documents them (docs/api-surface.md, Zone security reads). A zone the dataset says
 * nothing about has what that section lists for a new zone: the vendor's documented defaults
 * (security level medium, browser check on, TLS 1.0 accepted, TLS 1.3 on, automatic HTTPS rewrites
 * on), off what an owner must turn on (HTTPS enforcement, HSTS, DNSSEC), universal SSL on, no
 * custom rules, and full SSL standing for the mode the vendor now picks from the origin. The
 * legacy WAF switch follows the previous managed rules' own switch (the dataset's `waf.enabled`).
 */

export type Plan = 'free' | 'pro' | 'business' | 'enterprise';

/** The zone settings the emulator serves (`GET /zones/{zone_id}/settings/{id}`). */
export const SETTING_IDS = [
  'ssl', 'min_tls_version', 'tls_1_3', 'always_use_https', 'automatic_https_rewrites', 'security_header', 'security_level', 'browser_check',
  'development_mode', 'always_online', 'email_obfuscation', 'hotlink_protection', 'ip_geolocation', 'challenge_ttl', 'waf',
] as const;
export type SettingId = (typeof SETTING_IDS)[number];

export interface Hsts {
  enabled: boolean;
  max_age: number;
  include_subdomains: boolean;
  preload: boolean;
  nosniff: boolean;
}

export interface ZoneSecurity {
  /** The legacy `waf` switch is not here: it is the zone's `waf.enabled`, one switch for both answers. */
  settings: { [K in Exclude<SettingId, 'waf'>]: unknown };
  /** When each setting last changed (the answer's `modified_on`); default the zone's creation. */
  modified: Partial<Record<SettingId, string>>;
  /**
   * Settings whose value is locked (by the plan or an account policy): answered with their value
   * and `editable: false` (vendor's API reference: zone settings, `editable`), like a setting the
   * plan does not offer, whose value is then the default.
   */
  locked: SettingId[];
  dnssec: { status: 'active' | 'pending' | 'disabled' | 'pending-disabled' | 'error'; modified_on: string };
  universalSsl: boolean;
  /** The universal certificate's CA, as `GET /ssl/universal/settings` reports it (`certificate_authority`). */
  universalSslCa: string;
  /** Null until a custom rule is written: the entry point's GET then answers 404 code 10003. */
  customRules: Ruleset | null;
  /** The `http_ratelimit` phase entry point; null until a rate limiting rule is written (404 code 10003). */
  rateLimitRules: Ruleset | null;
  /** What `GET /bot_management` serves, before the plan picks the fields its product has (botManagementAnswer). */
  bots: BotConfig;
  /** Zone-level authenticated origin pulls (`GET /origin_tls_client_auth/settings`: `{enabled}`). */
  originPulls: boolean;
  /** Client-side security (formerly Page Shield) settings, as `GET /page_shield` serves them. */
  pageShield: PageShieldConfig;
  /** The zone's security.txt (`GET /security-center/securitytxt`); null: none set up (the GET answers `result: null`). */
  securityTxt: SecurityTxtConfig | null;
}

/** vendor's API reference: Page Shield settings (`enabled`, `use_cloudflare_reporting_endpoint`, `use_connection_url_path`, `updated_at`). */
export interface PageShieldConfig {
  enabled: boolean;
  use_cloudflare_reporting_endpoint: boolean;
  use_connection_url_path: boolean;
  updated_at: string;
}

/** vendor's API reference: Security TXT (RFC 9116 fields; the lists are arrays of URIs). */
export interface SecurityTxtConfig {
  enabled: boolean;
  contact: string[];
  /** Null: a file without Expires (stored before the vendor required it), answered without the field. */
  expires: string | null;
  encryption: string[];
  policy: string[];
  acknowledgments: string[];
  canonical: string[];
  hiring: string[];
  preferred_languages: string;
}


/** The values each plain setting takes (vendor docs); `security_header` is the HSTS object. */
export const SETTING_CHOICES = {
  ssl: ['off', 'flexible', 'full', 'strict', 'origin_pull'],
  min_tls_version: ['1.0', '1.1', '1.2', '1.3'],
  tls_1_3: ['on', 'off', 'zrt'],
  always_use_https: ['on', 'off'],
  automatic_https_rewrites: ['on', 'off'],
  security_header: null,
  security_level: ['off', 'essentially_off', 'low', 'medium', 'high', 'under_attack'],
  browser_check: ['on', 'off'],
  development_mode: ['on', 'off'],
  always_online: ['on', 'off'],
  email_obfuscation: ['on', 'off'],
  hotlink_protection: ['on', 'off'],
  ip_geolocation: ['on', 'off'],
  // A number of seconds from CHALLENGE_TTLS.
  challenge_ttl: null,
  waf: null,
} as const satisfies Record<SettingId, readonly string[] | null>;

/** vendor's API reference (zone settings, challenge_ttl): the values the setting takes, in seconds. */
export const CHALLENGE_TTLS: readonly number[] = [300, 900, 1800, 2700, 3600, 7200, 10800, 14400, 28800, 57600, 86400, 604800, 2592000, 31536000];

/** vendor's API reference (zone settings, development_mode): once entered, development mode lasts 3 hours. */
export const DEVELOPMENT_MODE_SECONDS = 3 * 3600;

/**
 * Whether the zone's plan offers a setting. The emulator's table has one plan-gated setting: the
 * legacy WAF switch, a paid-plan setting (vendor docs: zone settings, waf). Development mode,
 * Always Online (vendor docs: Always Online, availability: Free, Pro, Business, Enterprise), email
 * obfuscation, hotlink protection, IP geolocation and the challenge passage are on every plan. A setting the plan does
 * not offer answers 200 with `editable: false` and the value of `NOT_OFFERED_VALUE`.
 */
export function offers(plan: Plan, id: SettingId): boolean {
  return id !== 'waf' || plan !== 'free';
}

/** The value a not-offered setting answers with: the setting's default (the WAF switch: off). */
export const NOT_OFFERED_VALUE: Partial<Record<SettingId, unknown>> = { waf: 'off' };

export function defaultSecurity(since: string): ZoneSecurity {
  const hsts: Hsts = { enabled: false, max_age: 0, include_subdomains: false, preload: false, nosniff: false };
  return {
    settings: {
      ssl: 'full',
      min_tls_version: '1.0',
      tls_1_3: 'on',
      always_use_https: 'off',
      automatic_https_rewrites: 'on',
      security_header: { strict_transport_security: hsts },
      security_level: 'medium',
      browser_check: 'on',
      // vendor's API reference (development_mode): off until entered, then off again after 3 hours.
      development_mode: 'off',
      // Emulator's choice: the vendor documents no default; its docs describe Always Online (with the
      // Internet Archive) as something the owner enables.
      always_online: 'off',
      // vendor docs: Email Address Obfuscation is on by default; hotlink protection is off until
      // turned on; IP geolocation (the CF-IPCountry header) is on by default; Challenge Passage 30 minutes.
      email_obfuscation: 'on',
      hotlink_protection: 'off',
      ip_geolocation: 'on',
      challenge_ttl: 1800,
    },
    modified: {},
    locked: [],
    dnssec: { status: 'disabled', modified_on: since },
    universalSsl: true,
    universalSslCa: 'lets_encrypt',
    customRules: null,
    rateLimitRules: null,
    bots: defaultBots(),
    originPulls: false,
    // Client-side security is off until switched on; CSP reports go to the vendor's endpoint and
    // connection URLs are analysed without their paths unless asked (vendor's API reference: Page Shield settings).
    pageShield: { enabled: false, use_cloudflare_reporting_endpoint: true, use_connection_url_path: false, updated_at: since },
    securityTxt: null,
  };
}

/**
 * A zone's bot settings as `GET /zones/{zone_id}/bot_management` serves them (vendor's API
 * reference: bot management, zone config). Which fields an answer carries depends on the bot
 * product of the zone's plan (vendor docs: bots, plans): Bot Fight Mode on Free, Super Bot Fight
 * Mode on Pro ("definitely automated") and Business ("definitely and likely automated", also
 * Enterprise zones without Bot Management), Bot Management for Enterprise with the add-on
 * (`subscription`).
 */
export interface BotConfig {
  /** Enterprise zones only: the Bot Management for Enterprise add-on is bought. */
  subscription: boolean;
  fight_mode: boolean;
  enable_js: boolean | null;
  ai_bots_protection: 'block' | 'disabled' | 'only_on_ad_pages';
  crawler_protection: 'enabled' | 'disabled';
  is_robots_txt_managed: boolean;
  cf_robots_variant: 'off' | 'policy_only';
  sbfm_definitely_automated: 'allow' | 'block' | 'managed_challenge';
  sbfm_likely_automated: 'allow' | 'block' | 'managed_challenge';
  sbfm_verified_bots: 'allow' | 'block';
  sbfm_static_resource_protection: boolean;
  optimize_wordpress: boolean;
  auto_update_model: boolean;
  bm_cookie_enabled: boolean;
  suppress_session_score: boolean;
  /**
   * Read-only in the API (`using_latest_model`): Bot Management only, whose zones may stay on an
   * older model with auto-updates off (vendor docs: machine learning models); the other products
   * run the vendor's model as it is.
   */
  using_latest_model: boolean;
}

export type BotProduct = 'bot_fight_mode' | 'sbfm_pro' | 'sbfm_business' | 'bot_management';

/**
 * The fields each product's answer carries (vendor's API reference: the four configuration shapes).
 * Super Bot Fight Mode answers carry `suppress_session_score` too, as answers captured from the API
 * show (and the "clean up configuration for Bot Fight Mode" body resets it).
 */
export const BOT_FIELDS: Record<BotProduct, ReadonlyArray<Exclude<keyof BotConfig, 'subscription' | 'using_latest_model'>>> = {
  bot_fight_mode: ['fight_mode', 'enable_js', 'ai_bots_protection', 'crawler_protection', 'is_robots_txt_managed', 'cf_robots_variant'],
  sbfm_pro: ['enable_js', 'ai_bots_protection', 'crawler_protection', 'is_robots_txt_managed', 'cf_robots_variant', 'sbfm_definitely_automated', 'sbfm_verified_bots', 'sbfm_static_resource_protection', 'optimize_wordpress', 'suppress_session_score'],
  sbfm_business: ['enable_js', 'ai_bots_protection', 'crawler_protection', 'is_robots_txt_managed', 'cf_robots_variant', 'sbfm_definitely_automated', 'sbfm_likely_automated', 'sbfm_verified_bots', 'sbfm_static_resource_protection', 'optimize_wordpress', 'suppress_session_score'],
  bot_management: ['enable_js', 'ai_bots_protection', 'crawler_protection', 'is_robots_txt_managed', 'cf_robots_variant', 'auto_update_model', 'bm_cookie_enabled', 'suppress_session_score'],
};

export function botProduct(plan: Plan, subscription: boolean): BotProduct {
  if (plan === 'free') return 'bot_fight_mode';
  if (plan === 'pro') return 'sbfm_pro';
  return plan === 'enterprise' && subscription ? 'bot_management' : 'sbfm_business';
}

/**
 * A new zone's bot settings. Documented: Bot Fight Mode is off until turned on (vendor docs: Bot
 * Fight Mode, "turn Bot fight mode on"); JavaScript detections are always on with Bot Fight Mode
 * and optional elsewhere (vendor docs: JavaScript detections), on by default with Bot Management
 * (vendor docs: bot scores, the engines of Enterprise Bot Management: "enabled by default but
 * completely optional"); the Bot Management cookie defaults to true (API reference,
 * `bm_cookie_enabled`). Emulator's choices where the vendor states no default: `enable_js` off on
 * Super Bot Fight Mode (null: the product's default), every Super Bot Fight Mode
 * group `allow` and its switches off (the values of the API reference's "clean up" bodies), AI
 * bots and crawler protection `disabled`, no managed robots.txt, models updated automatically.
 */
export function defaultBots(): BotConfig {
  return {
    subscription: false,
    fight_mode: false,
    enable_js: null,
    ai_bots_protection: 'disabled',
    crawler_protection: 'disabled',
    is_robots_txt_managed: false,
    cf_robots_variant: 'off',
    sbfm_definitely_automated: 'allow',
    sbfm_likely_automated: 'allow',
    sbfm_verified_bots: 'allow',
    sbfm_static_resource_protection: false,
    optimize_wordpress: false,
    auto_update_model: true,
    bm_cookie_enabled: true,
    suppress_session_score: false,
    using_latest_model: true,
  };
}

/** The answer of `GET /zones/{zone_id}/bot_management`: the fields of the zone's bot product, plus `using_latest_model` (read-only). */
export function botManagementAnswer(plan: Plan, bots: BotConfig): Record<string, unknown> {
  const product = botProduct(plan, bots.subscription);
  const answer: Record<string, unknown> = {};
  // enable_js unset: on with Bot Fight Mode and Bot Management (their documented defaults), off on Super Bot Fight Mode.
  const jsByDefault = product === 'bot_fight_mode' || product === 'bot_management';
  for (const field of BOT_FIELDS[product]) answer[field] = field === 'enable_js' ? (bots.enable_js ?? jsByDefault) : bots[field];
  answer['using_latest_model'] = product === 'bot_management' ? bots.using_latest_model : true;
  return answer;
}

/**
 * The development_mode answer's `time_remaining` (vendor's API reference: seconds until development
 * mode expires, positive, or since it last expired, negative; 0 when never entered). Development
 * mode entered at `modified_on` turns itself off 3 hours later: from then on the answer says `off`,
 * modified at the expiry.
 */
export function developmentModeAnswer(value: unknown, modifiedOn: string, now: Date): { value: unknown; modified_on: string; time_remaining: number } {
  if (value !== 'on') return { value, modified_on: modifiedOn, time_remaining: 0 };
  const expiresMs = Date.parse(modifiedOn) + DEVELOPMENT_MODE_SECONDS * 1000;
  const remaining = Math.trunc((expiresMs - now.getTime()) / 1000);
  if (remaining > 0) return { value: 'on', modified_on: modifiedOn, time_remaining: remaining };
  return { value: 'off', modified_on: formatApiTime(new Date(expiresMs)), time_remaining: remaining };
}

const RATELIMIT_PHASE = 'http_ratelimit';
export const MANAGED_PHASE = 'http_request_firewall_managed';

export type DatasetRulesetRule = Omit<RulesetRule, 'id' | 'version' | 'last_updated' | 'ref'>;

/**
 * A phase entry point written once, at `since`, in the shape of the vendor's API reference
 * (rulesets: get a phase entry point): version 1, each rule with the ids `ids` gives its index.
 */
export function entrypoint(head: Pick<Ruleset, 'id' | 'name' | 'phase' | 'kind'>, since: string, rules: Array<DatasetRulesetRule & { ref?: string }>, ids: (i: number) => Partial<Pick<RulesetRule, 'id' | 'ref'>>): Ruleset {
  const { id, name, phase, kind } = head;
  return { id, name, description: '', phase, kind, version: '1', last_updated: since, rules: rules.map((r, i) => ({ ...r, ...ids(i), version: '1', last_updated: since }) as RulesetRule) };
}

/** Rate limiting rules as a dataset writes them, made into the `http_ratelimit` phase's entry point. */
export function rateLimitRuleset(zoneName: string, since: string, rules: DatasetRulesetRule[]): Ruleset {
  return entrypoint({ id: stableId('ratelimit-entrypoint', zoneName), name: 'default', phase: RATELIMIT_PHASE, kind: 'zone' }, since, rules, (i) => ({ ref: stableId('ratelimit-ref', zoneName, i), id: stableId('ratelimit-rule', zoneName, i) }));
}

/** Custom rules as a dataset writes them, made into the phase's entry point. */
export function customRuleset(zoneName: string, since: string, rules: Array<DatasetRulesetRule & { ref?: string }>): Ruleset {
  const head = { id: stableId('custom-entrypoint', zoneName), name: 'default', phase: 'http_request_firewall_custom', kind: 'zone' };
  return entrypoint(head, since, rules, (i) => ({ ref: rules[i]!.ref ?? stableId('custom-ref', zoneName, i), id: stableId('custom-rule', zoneName, i) }));
}

/** A managed-phase entry point as a dataset writes it: a zone's (`kind: "zone"`) or an account's (`kind: "root"`). */
export function managedRuleset(owner: string, kind: 'zone' | 'root', since: string, rules: DatasetRulesetRule[]): Ruleset {
  const head = { id: stableId('managed-entrypoint', kind, owner), name: kind === 'zone' ? 'default' : 'Account managed rules', phase: MANAGED_PHASE, kind };
  return entrypoint(head, since, rules, (i) => ({ ref: stableId('managed-ref', kind, owner, i), id: stableId('managed-rule', kind, owner, i) }));
}

/**
 * The DNSSEC answer, with the fields of the vendor's API reference (DNSSEC details). Key material
 * once signing has begun, of the kind the reference's example shows (flags 257, algorithm 13,
 * ECDSAP256SHA256, digest type 2, SHA256, a DS line with TTL 3600); emulator: nulls while
 * disabled (the reference marks every key field optional).
 */
export function dnssecAnswer(zoneName: string, d: ZoneSecurity['dnssec']) {
  const signed = d.status !== 'disabled';
  const keyTag = Number.parseInt(stableId('dnssec', zoneName).slice(0, 4), 16);
  const digest = stableId('dnssec-digest', zoneName).toUpperCase().repeat(2);
  return {
    status: d.status,
    flags: signed ? 257 : null,
    algorithm: signed ? '13' : null,
    key_type: signed ? 'ECDSAP256SHA256' : null,
    digest_type: signed ? '2' : null,
    digest_algorithm: signed ? 'SHA256' : null,
    digest: signed ? digest : null,
    ds: signed ? `${zoneName}. 3600 IN DS ${keyTag} 13 2 ${digest}` : null,
    key_tag: signed ? keyTag : null,
    public_key: signed ? stableId('dnssec-key', zoneName) : null,
    modified_on: d.modified_on,
  };
}
