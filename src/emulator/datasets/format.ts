/**
 * The dataset format (`zonewarden emulator --dataset FILE.json`, and the demo): docs/dataset-format.md
 * documents every field and default; keep the two in step. Times are RFC 3339 or relative to the
 * emulator's clock (`now-3d`), so that expiry cases mean the same whenever it runs.
 */
import type { BotConfig, SETTING_CHOICES } from '../security.js';
import type { Certificate, CertificatePack, DnsRecord, Filter, Invite, Plan, WafGroup, WafOverride, WafPackage, WafRule } from '../state.js';

export type Time = string;

/** Optional fields, but for `required`: what the loader does not default (docs/dataset-format.md has each default). */
type Given<T, Required extends keyof T = never> = Partial<T> & Pick<T, Required>;

type Choices = typeof SETTING_CHOICES;

export interface DatasetFile {
  version: 1;
  /** The user the credentials belong to. */
  user?: { id?: string; email?: string };
  accounts: DatasetAccount[];
  invites?: DatasetInvite[];
}

export interface DatasetAccount {
  id?: string;
  name: string;
  type?: 'standard' | 'enterprise';
  created_on?: Time;
  /** `false`: listed only after an invite to it (`invites[].account`) is accepted. */
  member?: boolean;
  /**
   * The account-level `http_request_firewall_managed` entry point (`kind: "root"`), which deploys
   * managed rules to the account's zones. Enterprise accounts only.
   */
  managed_rules?: DatasetManagedRule[];
  managed_rules_since?: Time;
  members?: DatasetMember[];
  zones?: DatasetZone[];
  /** `zones` names zones of this account (by name) the policy is limited to; omitted: every zone. */
  notification_policies?: Array<{ name: string; alert_type: string; enabled?: boolean; zones?: string[]; email?: string; created?: Time }>;
}

export interface DatasetMember {
  id?: string;
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  /** `pending` is an invitation not taken up yet. */
  status?: 'accepted' | 'pending' | 'rejected';
  /** The vendor's role names (members.ts MEMBER_ROLES), e.g. `Super Administrator - All Privileges`. */
  roles?: string[];
  /** null: the answer leaves the flag out. */
  two_factor?: boolean | null;
}

export interface DatasetZone {
  id?: string;
  /** A domain name, lower case. */
  name: string;
  status?: 'initializing' | 'pending' | 'active' | 'moved';
  paused?: boolean;
  type?: 'full' | 'partial' | 'secondary';
  plan?: Plan;
  created_on?: Time;
  activated_on?: Time | null;
  modified_on?: Time;
  name_servers?: string[];
  dns_records?: DatasetDnsRecord[];
  certificate_packs?: DatasetCertificatePack[];
  /** Standalone filters, referenced from rules by `ref` or `id`. */
  filters?: DatasetFilter[];
  firewall_rules?: DatasetFirewallRule[];
  /** The previous managed rules (legacy WAF). */
  waf?: DatasetWaf;
  /** A zone created since the vendor's phase two (2022-09) never had the previous WAF: `{state: "none"}`. */
  migration?: DatasetMigration;
  /** Omitted: the vendor's defaults for a new zone. */
  security?: DatasetSecurity;
}

export interface DatasetSecurity {
  /**
   * Zone settings by id. `security_header` is HSTS, served as `{strict_transport_security: {...}}`.
   * The legacy `waf` setting is the zone's `waf.enabled` (a Free zone's answer is `{value: "off",
   * editable: false}`, the API's answer for a setting the plan does not offer).
   */
  settings?: { [K in keyof Choices as Choices[K] extends readonly string[] ? K : never]?: Choices[K] extends readonly string[] ? Choices[K][number] : never } & {
    security_header?: { enabled?: boolean; max_age?: number; include_subdomains?: boolean; preload?: boolean; nosniff?: boolean };
    challenge_ttl?: number;
  };
  /** When settings last changed, by id (the answers' `modified_on`). */
  settings_modified_on?: Record<string, Time>;
  /** Settings answered with `editable: false` (locked by the plan or an account policy). */
  settings_locked?: string[];
  dnssec?: 'active' | 'pending' | 'disabled' | 'pending-disabled' | 'error';
  dnssec_since?: Time;
  universal_ssl?: boolean;
  /** Default: the CA of the zone's first universal pack, else `lets_encrypt` (the vendor documents no default). */
  universal_ssl_ca?: string;
  /** Omitted: no entry point (the GET answers 404 code 10003). */
  custom_rules?: DatasetCustomRule[];
  custom_rules_since?: Time;
  /**
   * The zone's `http_request_firewall_managed` entry point. Omitted: what the migration wrote, the
   * managed ruleset on `true` for a paid zone at `none`, else none (404 code 10003). A zone still at
   * `start`/`default` may hold disabled rules only (the API refuses enabled ones before the migration).
   */
  managed_rules?: DatasetManagedRule[];
  managed_rules_since?: Time;
  managed_ruleset_disabled?: boolean;
  /** Omitted: no entry point (404 code 10003, and the rulesets list does not show it). */
  ratelimit_rules?: DatasetRateLimitRule[];
  ratelimit_rules_since?: Time;
  /** Only the fields of the plan's bot product may be given. */
  bot_management?: DatasetBotManagement;
  origin_pulls?: boolean;
  page_shield?: { enabled?: boolean; use_cloudflare_reporting_endpoint?: boolean; use_connection_url_path?: boolean; updated_at?: Time };
  /**
   * Omitted: none (`result: null`). RFC 9116 requires `contact` and `expires`, and so does the vendor
   * on every write: a dataset leaves them out only to model a file stored before that.
   */
  security_txt?: { enabled?: boolean; contact?: string[]; expires?: Time; encryption?: string[]; policy?: string[]; preferred_languages?: string };
}

/**
 * A zone's bot settings (security.ts BotConfig): Free zones have Bot Fight Mode, Pro and Business
 * zones Super Bot Fight Mode, Enterprise zones with `subscription: true` Bot Management.
 */
export type DatasetBotManagement = Partial<Omit<BotConfig, 'enable_js'>> & { enable_js?: boolean };

/** What the rules of every phase have: an action of the phase's, an expression, a description and a switch. */
interface DatasetRule<Action extends string> {
  action: Action;
  expression: string;
  description?: string;
  enabled?: boolean;
}

export interface DatasetRateLimitRule extends DatasetRule<'block' | 'challenge' | 'managed_challenge' | 'js_challenge' | 'log'> {
  ratelimit: {
    /** Must include `cf.colo.id`. */
    characteristics?: string[];
    period?: number;
    requests_per_period: number;
    mitigation_timeout?: number;
  };
}

/** A rule of a managed-phase entry point (zone or account). */
export interface DatasetManagedRule extends DatasetRule<'execute' | 'skip' | 'log'> {
  /** `execute`: `{id: <managed ruleset id>, overrides?}`; `skip`: `{ruleset}`, `{rulesets}` or `{rules}`. */
  action_parameters?: Record<string, unknown>;
}

export interface DatasetCustomRule extends DatasetRule<'block' | 'challenge' | 'js_challenge' | 'managed_challenge' | 'log' | 'skip'> {
  /** Required with `skip`: `{ruleset: "current"}`, `{phase: "current"}`, `{phases: [...]}` or `{products: [...]}`. */
  action_parameters?: Record<string, unknown>;
}

/**
 * `name` is the full host name (`@` is the apex, `x.@` is `x.<zone>`); a record with structured
 * `data` (e.g. CAA) may have no `content`, as seen in the wild.
 */
export type DatasetDnsRecord = Given<Omit<DnsRecord, 'proxiable'>, 'type' | 'name'>;

export type DatasetCertificatePack = Given<Omit<CertificatePack, 'primary_certificate' | 'created_on' | 'certificates'>, 'hosts'> & {
  /** `null`: a pack still initializing, served without `created_on`. */
  created_on?: Time | null;
  certificates?: DatasetCertificate[];
};

export type DatasetCertificate = Given<Omit<Certificate, 'zone_id' | 'expires_on'>> & {
  /** `null` while the pack is being issued (absent from the API answer). */
  expires_on?: Time | null;
};

/** A standalone filter; rules reference it as `filter: "<ref>"` (`ref` is also the API's field) or by `id`. */
export type DatasetFilter = Given<Filter, 'expression'>;

export interface DatasetFirewallRule {
  id?: string;
  action: string;
  priority?: number | null;
  paused?: boolean;
  description?: string;
  ref?: string;
  /** Required with `bypass`. */
  products?: string[];
  /** A filter's `ref` or `id`, an inline filter, or `{deleted: true}` (a rule whose filter was removed). */
  filter: string | { expression: string; paused?: boolean; description?: string } | { deleted: true };
  created_on?: Time;
  modified_on?: Time;
}

export interface DatasetWaf {
  /** `old_waf_status`. */
  enabled?: boolean;
  packages?: DatasetWafPackage[];
  /** Enterprise zones only; any one makes the zone incompatible with the migration. */
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
  /** `none`: a zone created since 2022-09 that never had the previous WAF (no migration state at all). */
  state: 'default' | 'start' | 'validation' | 'complete' | 'none';
  /** When the current state began (the status endpoint's `created`). */
  since?: Time;
  source?: string;
}

/** `account` names an account of this dataset (usually one with `member: false`). */
export type DatasetInvite = Given<Omit<Invite, 'organization_id' | 'organization_name' | 'roles'>, 'invited_by'> & {
  account: string;
  roles?: Array<Given<Invite['roles'][number], 'name'>>;
};
