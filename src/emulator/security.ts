import { formatApiTime } from './clock.js';
import { stableId } from './ids.js';
import type { Ruleset, RulesetRule } from './ruleset.js';

/**
 * A zone's security reads as the vendor documents them (docs/api-surface.md, Zone security reads).
 * A new zone has the vendor's documented defaults, off what an owner must turn on, and `ssl` full
 * (the mode the vendor now picks from the origin).
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
  /** Not `waf`: that is the zone's `waf.enabled`, one switch for both answers. */
  settings: { [K in Exclude<SettingId, 'waf'>]: unknown };
  /** When each setting last changed (the answer's `modified_on`); default the zone's creation. */
  modified: Partial<Record<SettingId, string>>;
  /** Locked by the plan or an account policy: answered with `editable: false` (vendor's API reference: zone settings). */
  locked: SettingId[];
  dnssec: { status: 'active' | 'pending' | 'disabled' | 'pending-disabled' | 'error'; modified_on: string };
  universalSsl: boolean;
  universalSslCa: string;
  /** The entry points: null until a rule is written (their GETs then answer 404 code 10003). */
  customRules: Ruleset | null;
  rateLimitRules: Ruleset | null;
  /** Before the plan picks the fields its product has (botManagementAnswer). */
  bots: BotConfig;
  /** Zone-level authenticated origin pulls. */
  originPulls: boolean;
  pageShield: PageShieldConfig;
  /** Null: none set up (the GET answers `result: null`). */
  securityTxt: SecurityTxtConfig | null;
}

/** vendor's API reference: Page Shield settings. */
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
 * Whether the zone's plan offers a setting: only the legacy WAF switch is plan-gated, paid plans
 * only (vendor docs: zone settings, waf; Always Online, availability: every plan).
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
      development_mode: 'off',
      // Emulator's choice: the vendor documents no default (its docs describe it as something the owner enables).
      always_online: 'off',
      // vendor docs: the defaults of email obfuscation, hotlink protection, IP geolocation, Challenge Passage.
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
    // vendor's API reference: Page Shield settings (defaults).
    pageShield: { enabled: false, use_cloudflare_reporting_endpoint: true, use_connection_url_path: false, updated_at: since },
    securityTxt: null,
  };
}

/**
 * A zone's bot settings (vendor's API reference: bot management, zone config); the fields an answer
 * carries depend on the plan's bot product (vendor docs: bots, plans).
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
  /** Read-only; Bot Management zones may stay on an older model (vendor docs: machine learning models). */
  using_latest_model: boolean;
}

export type BotProduct = 'bot_fight_mode' | 'sbfm_pro' | 'sbfm_business' | 'bot_management';

/**
 * The fields each product's answer carries (vendor's API reference: the four configuration shapes);
 * Super Bot Fight Mode's carry `suppress_session_score` too, as captured answers show.
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
 * A new zone's bot settings: the vendor's documented defaults (vendor docs: Bot Fight Mode,
 * JavaScript detections, bot scores; API reference, `bm_cookie_enabled`), else the emulator's choice
 * (the API reference's "clean up" bodies). `enable_js` null: the product's default.
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

/** The fields of the zone's bot product, plus `using_latest_model`. */
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
 * The development_mode answer (vendor's API reference: `time_remaining`, seconds until it expires,
 * negative since it expired, 0 never entered); it turns itself off 3 hours after `modified_on`.
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

/** A phase entry point written once, at `since` (version 1), each rule with the ids `ids` gives its index. */
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
 * The DNSSEC answer (vendor's API reference: DNSSEC details): key material as the reference's
 * example once signing has begun; nulls while disabled (every key field is optional).
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
