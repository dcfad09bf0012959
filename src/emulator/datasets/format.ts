/**
 * The dataset format: an organisation described as JSON, the way users and tests bring their own
 * data to the emulator (`zonewarden emulator --dataset FILE.json`). The demo dataset is written in
 * the same format. docs/dataset-format.md documents every field; keep the two in step.
 *
 * Times (`Time`) are RFC 3339 strings or relative to the emulator's clock: `now`, `now-3d`,
 * `now+5d12h`, `now-90m` (units d, h, m, s), so that expiry cases mean the same whenever it runs.
 * Ids may be omitted; the loader derives stable ones from names, so two loads of one file agree.
 */
import type { BotConfig, SETTING_CHOICES } from '../security.js';
import type { Certificate, CertificatePack, DnsRecord, Filter, Invite, Plan, WafGroup, WafOverride, WafPackage, WafRule } from '../state.js';

export type Time = string;

/** Optional fields, but for `required`: what the loader does not default (docs/dataset-format.md has each default). */
type Given<T, Required extends keyof T = never> = Partial<T> & Pick<T, Required>;

export type PlanName = Plan;

type Choices = typeof SETTING_CHOICES;

export interface DatasetFile {
  /** Format version; only 1 exists. */
  version: 1;
  /** The user the credentials belong to. */
  user?: { id?: string; email?: string };
  accounts: DatasetAccount[];
  invites?: DatasetInvite[];
}

export interface DatasetAccount {
  id?: string;
  name: string;
  /** Default `standard`. */
  type?: 'standard' | 'enterprise';
  created_on?: Time;
  /**
   * Whether the user is already a member (default true). An account with `member: false` is
   * listed only after an invite to it (`invites[].account`) is accepted.
   */
  member?: boolean;
  /**
   * The account-level `http_request_firewall_managed` entry point's rules (`kind: "root"`), which
   * deploy managed rules to the account's zones, usually narrowed with `cf.zone.name eq "x"` or
   * `cf.zone.name in {...}`. Enterprise accounts only. Omitted: none written (the GET answers 404
   * code 10003).
   */
  managed_rules?: DatasetManagedRule[];
  /** When the account entry point was last written. Default the account's creation. */
  managed_rules_since?: Time;
  /**
   * The account's members (`GET /accounts/{id}/members`). Omitted: the dataset's user alone, as
   * Super Administrator with two-factor authentication on.
   */
  members?: DatasetMember[];
  zones?: DatasetZone[];
  /**
   * Notification policies (`GET /accounts/{id}/alerting/v3/policies`). `zones` names zones of this
   * account (by name) the policy is limited to; omitted: every zone. `email`: where it sends
   * (default security@ the account's first zone).
   */
  notification_policies?: Array<{ name: string; alert_type: string; enabled?: boolean; zones?: string[]; email?: string; created?: Time }>;
}

export interface DatasetMember {
  /** Default derived from the account and the e-mail. */
  id?: string;
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  /** Default `accepted`; `pending` is an invitation not taken up yet. */
  status?: 'accepted' | 'pending' | 'rejected';
  /**
   * The vendor's role names: `Super Administrator - All Privileges`, `Administrator`,
   * `Administrator Read Only`, `Analytics`, `Billing`, `DNS`, `Firewall`, `SSL/TLS, Caching,
   * Performance, Page Rules, and Customization`. Default `["Administrator"]`.
   */
  roles?: string[];
  /** Whether the user has two-factor authentication (default true); null: the answer leaves the flag out. */
  two_factor?: boolean | null;
}

export interface DatasetZone {
  id?: string;
  /** A domain name, lower case. */
  name: string;
  /** Default `active`. */
  status?: 'initializing' | 'pending' | 'active' | 'moved';
  paused?: boolean;
  /** Default `full`. */
  type?: 'full' | 'partial' | 'secondary';
  /** Default `free`. */
  plan?: PlanName;
  created_on?: Time;
  activated_on?: Time | null;
  modified_on?: Time;
  name_servers?: string[];
  dns_records?: DatasetDnsRecord[];
  certificate_packs?: DatasetCertificatePack[];
  /** Standalone filters, referenced from rules by `ref` or `id`. */
  filters?: DatasetFilter[];
  firewall_rules?: DatasetFirewallRule[];
  /** The previous managed rules (legacy WAF). Omitted: the zone has none and the WAF is off. */
  waf?: DatasetWaf;
  /**
   * Default `{state: "start"}`. A zone created since the vendor's phase two (2022-09) never had the
   * previous WAF: `{state: "none"}`.
   */
  migration?: DatasetMigration;
  /** Settings, DNSSEC, universal SSL and custom rules. Omitted: the vendor's defaults for a new zone. */
  security?: DatasetSecurity;
}

export interface DatasetSecurity {
  /**
   * Zone settings by id; each omitted one keeps the vendor's default (docs/dataset-format.md lists
   * them). `security_header` is HSTS, served as `{strict_transport_security: {...}}`;
   * `challenge_ttl` seconds from CHALLENGE_TTLS. The legacy `waf` setting is the zone's
   * `waf.enabled` (Pro plans and above; a Free zone's answer is `{value: "off", editable: false}`,
   * the API's answer for a setting the plan does not offer).
   */
  settings?: { [K in keyof Choices as Choices[K] extends readonly string[] ? K : never]?: Choices[K] extends readonly string[] ? Choices[K][number] : never } & {
    security_header?: { enabled?: boolean; max_age?: number; include_subdomains?: boolean; preload?: boolean; nosniff?: boolean };
    challenge_ttl?: number;
  };
  /** When settings last changed, by id (the answers' `modified_on`). Default the zone's creation. */
  settings_modified_on?: Record<string, Time>;
  /**
   * Settings whose value is locked (by the plan or an account policy), by id: answered with their
   * value and `editable: false`. A setting the zone's plan does not offer is refused (its answer
   * says `editable: false` already). Default none.
   */
  settings_locked?: string[];
  /** Default `disabled`. */
  dnssec?: 'active' | 'pending' | 'disabled' | 'pending-disabled' | 'error';
  /** When DNSSEC entered its status (`modified_on`). Default the zone's creation. */
  dnssec_since?: Time;
  /** The universal SSL switch. Default true. */
  universal_ssl?: boolean;
  /**
   * The universal certificate's CA (`certificate_authority` of `GET /ssl/universal/settings`):
   * `lets_encrypt`, `google`, `ssl_com`, ... Default: the CA of the zone's first universal pack,
   * else `lets_encrypt` (emulator's choice; the vendor picks it and documents no default).
   */
  universal_ssl_ca?: string;
  /** The custom-rules phase's rules. Omitted: no entry point (the GET answers 404 code 10003). */
  custom_rules?: DatasetCustomRule[];
  /** When the entry point was last written. Default the zone's creation. */
  custom_rules_since?: Time;
  /**
   * The zone's `http_request_firewall_managed` entry point, in order. Omitted: a zone that has
   * migrated (`validation`, `complete`) has what its migration wrote, a zone that never had the
   * previous WAF (`none`) on a paid plan executes the managed ruleset on `true`, and any other zone
   * has none (the GET answers 404 code 10003). `[]` is an entry point without rules. A zone still
   * at `start`/`default` may hold disabled rules only (the API refuses enabled ones before the migration).
   */
  managed_rules?: DatasetManagedRule[];
  /** When the managed entry point was last written. Default the zone's creation. */
  managed_rules_since?: Time;
  /** The entry point's rule executing the managed ruleset is disabled. Default false. */
  managed_ruleset_disabled?: boolean;
  /**
   * The `http_ratelimit` phase's rules. Omitted: no entry point (its GET answers 404 code 10003 and
   * the rulesets list does not show it).
   */
  ratelimit_rules?: DatasetRateLimitRule[];
  /** When the rate limiting entry point was last written. Default the zone's creation. */
  ratelimit_rules_since?: Time;
  /** `GET /bot_management`. Only the fields of the plan's bot product may be given. */
  bot_management?: DatasetBotManagement;
  /** Zone-level authenticated origin pulls (`GET /origin_tls_client_auth/settings`). Default false. */
  origin_pulls?: boolean;
  /** Client-side security (`GET /page_shield`). Default: off, reports to the vendor's endpoint, no connection paths. */
  page_shield?: { enabled?: boolean; use_cloudflare_reporting_endpoint?: boolean; use_connection_url_path?: boolean; updated_at?: Time };
  /**
   * The zone's security.txt (`GET /security-center/securitytxt`). Omitted: none (the GET answers
   * `result: null`). `contact` and `expires` are what RFC 9116 requires; the vendor requires them on
   * every write, so a dataset may leave them out only to model a file stored before that.
   */
  security_txt?: { enabled?: boolean; contact?: string[]; expires?: Time; encryption?: string[]; policy?: string[]; preferred_languages?: string };
}

/**
 * A zone's bot settings (security.ts BotConfig, defaults in docs/dataset-format.md). Free zones have
 * Bot Fight Mode (`fight_mode`), Pro zones Super Bot Fight Mode with `sbfm_definitely_automated`,
 * Business zones (and Enterprise zones without the add-on) also `sbfm_likely_automated`, Enterprise
 * zones with `subscription: true` Bot Management. Only the fields of the plan's product may be given.
 */
export type DatasetBotManagement = Partial<Omit<BotConfig, 'enable_js'>> & { enable_js?: boolean };

/** A rate limiting rule (phase `http_ratelimit`). */
export interface DatasetRateLimitRule {
  action: 'block' | 'challenge' | 'managed_challenge' | 'js_challenge' | 'log';
  expression: string;
  description?: string;
  /** Default true. */
  enabled?: boolean;
  ratelimit: {
    /** Must include `cf.colo.id`. Default `["cf.colo.id", "ip.src"]`. */
    characteristics?: string[];
    /** Seconds. Default 60. */
    period?: number;
    requests_per_period: number;
    /** Seconds. Default 60. */
    mitigation_timeout?: number;
  };
}

/** A rule of a managed-phase entry point (zone or account). */
export interface DatasetManagedRule {
  action: 'execute' | 'skip' | 'log';
  expression: string;
  description?: string;
  /** Default true. */
  enabled?: boolean;
  /**
   * `execute`: `{id: <managed ruleset id>, overrides?: {enabled?, action?, categories?, rules?}}`.
   * `skip`: `{ruleset: "current"}`, `{rulesets: [ids]}` or `{rules: {<ruleset id>: [rule ids]}}`.
   */
  action_parameters?: Record<string, unknown>;
}

export interface DatasetCustomRule {
  action: 'block' | 'challenge' | 'js_challenge' | 'managed_challenge' | 'log' | 'skip';
  expression: string;
  description?: string;
  /** Default true. */
  enabled?: boolean;
  /** Required with `skip`: `{ruleset: "current"}`, `{phase: "current"}`, `{phases: [...]}` or `{products: [...]}`. */
  action_parameters?: Record<string, unknown>;
}

/**
 * `name` is the full host name (`@` stands for the zone apex and `x.@` for `x.<zone>`); `content`
 * is required but on a record with structured `data` (e.g. CAA `{flags, tag, value}`, served as
 * given), whose answer then has no `content`, as seen in the wild. Only A, AAAA and CNAME records
 * can be proxied.
 */
export type DatasetDnsRecord = Given<Omit<DnsRecord, 'proxiable'>, 'type' | 'name'>;

export type DatasetCertificatePack = Given<Omit<CertificatePack, 'primary_certificate' | 'created_on' | 'certificates'>, 'hosts'> & {
  /** Default `now-30d`. `null`: a pack still initializing, served without `created_on`. */
  created_on?: Time | null;
  /** Default: one certificate for the pack's hosts, expiring `validity_days` after `created_on`. */
  certificates?: DatasetCertificate[];
};

export type DatasetCertificate = Given<Omit<Certificate, 'zone_id' | 'expires_on'>> & {
  /** `null` while the pack is being issued (the field is then absent from the API answer). */
  expires_on?: Time | null;
};

/** A standalone filter; rules reference it as `filter: "<ref>"` (`ref` is also the API's field) or by `id`. */
export type DatasetFilter = Given<Filter, 'expression'>;

export interface DatasetFirewallRule {
  id?: string;
  /** block, challenge, js_challenge, managed_challenge, allow, log or bypass. */
  action: string;
  priority?: number | null;
  paused?: boolean;
  description?: string;
  ref?: string;
  /** Required with `bypass`. */
  products?: string[];
  /**
   * A string names a filter of this zone by `ref` or `id`; an object with `expression` creates
   * the filter inline (as the single-call API does); `{deleted: true}` is a rule whose filter was
   * removed (the API then answers `filter: {id, deleted: true}`).
   */
  filter: string | { expression: string; paused?: boolean; description?: string } | { deleted: true };
  created_on?: Time;
  modified_on?: Time;
}

export interface DatasetWaf {
  /** The zone's previous WAF switch (`old_waf_status`). Default true. */
  enabled?: boolean;
  packages?: DatasetWafPackage[];
  /** URI-based overrides; Enterprise zones only. Any one makes the zone incompatible. */
  overrides?: DatasetWafOverride[];
}

/** `detection_mode` `anomaly` for the OWASP package (its only one with `sensitivity` and `action_mode`), `traditional` for the managed one. */
export type DatasetWafPackage = Given<Omit<WafPackage, 'zone_id' | 'status' | 'groups'>, 'name'> & { groups?: DatasetWafGroup[] };

/** A group whose mode differs from `default_mode` is a group override. */
export type DatasetWafGroup = Given<Omit<WafGroup, 'allowed_modes' | 'package_id' | 'rules'>, 'name'> & { rules?: DatasetWafRule[] };

/** A rule whose `mode` differs from its `default_mode` is a rule override. */
export type DatasetWafRule = Given<Omit<WafRule, 'group' | 'package_id'>, 'description'>;

/** A URI-based override; `groups` maps group ids or names to modes, `rules` rule ids to modes. */
export type DatasetWafOverride = Given<WafOverride, 'urls'>;

export interface DatasetMigration {
  /**
   * `start` (previous version only), `validation` (both), `complete` (new version only), `none` (a
   * zone created since 2022-09 that never had the previous version: no migration state at all).
   */
  state: 'default' | 'start' | 'validation' | 'complete' | 'none';
  /** When the current state began (used as the status endpoint's `created`). Default `now-30d`. */
  since?: Time;
  /** The migration's origin as the status endpoint reports it. Default `api`. */
  source?: string;
}

/** `account` names an account of this dataset (usually one with `member: false`). */
export type DatasetInvite = Given<Omit<Invite, 'organization_id' | 'organization_name' | 'roles'>, 'invited_by'> & {
  account: string;
  roles?: Array<Given<Invite['roles'][number], 'name'>>;
};
