import { stableId } from './ids.js';
import type { Plan, Ruleset, RulesetRule } from './state.js';

/**
 * A zone's security settings, DNSSEC, universal SSL switch and custom-rules entry point, as the
 * vendor documents them (docs/api-surface.md, Zone security reads). A zone the dataset says
 * nothing about has what that section lists for a new zone: the vendor's documented defaults
 * (security level medium, browser check on, TLS 1.0 accepted, TLS 1.3 on, automatic HTTPS rewrites
 * on), off what an owner must turn on (HTTPS enforcement, HSTS, DNSSEC), universal SSL on, no
 * custom rules, and full SSL standing for the mode the vendor now picks from the origin. The
 * legacy WAF switch follows the previous managed rules' own switch (the dataset's `waf.enabled`).
 */

export type SettingId = 'ssl' | 'min_tls_version' | 'tls_1_3' | 'always_use_https' | 'automatic_https_rewrites' | 'security_header' | 'security_level' | 'browser_check' | 'waf';

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
  dnssec: { status: 'active' | 'pending' | 'disabled' | 'pending-disabled' | 'error'; modified_on: string };
  universalSsl: boolean;
  /** The universal certificate's CA, as `GET /ssl/universal/settings` reports it (`certificate_authority`). */
  universalSslCa: string;
  /** Null until a custom rule is written: the entry point's GET then answers 404 code 10003. */
  customRules: Ruleset | null;
}

export const SETTING_IDS: readonly SettingId[] = ['ssl', 'min_tls_version', 'tls_1_3', 'always_use_https', 'automatic_https_rewrites', 'security_header', 'security_level', 'browser_check', 'waf'];

/**
 * Whether the zone's plan offers a setting. The emulator's table has one plan-gated setting: the
 * legacy WAF switch, a paid-plan setting (vendor docs: zone settings, waf). A setting the plan does
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
    },
    modified: {},
    dnssec: { status: 'disabled', modified_on: since },
    universalSsl: true,
    universalSslCa: 'lets_encrypt',
    customRules: null,
  };
}

/** Custom rules as a dataset writes them, made into the phase's entry point. */
export function customRuleset(zoneName: string, since: string, rules: Array<Omit<RulesetRule, 'id' | 'version' | 'last_updated' | 'ref'> & { ref?: string }>): Ruleset {
  return {
    id: stableId('custom-entrypoint', zoneName),
    name: 'default',
    description: '',
    phase: 'http_request_firewall_custom',
    kind: 'zone',
    version: '1',
    last_updated: since,
    rules: rules.map((r, i) => ({ ...r, ref: r.ref ?? stableId('custom-ref', zoneName, i), id: stableId('custom-rule', zoneName, i), version: '1', last_updated: since })),
  };
}

export const MANAGED_PHASE = 'http_request_firewall_managed';

export type DatasetRulesetRule = Omit<RulesetRule, 'id' | 'version' | 'last_updated' | 'ref'>;

/**
 * A managed-phase entry point as a dataset writes it: a zone's (`kind: "zone"`) or an account's
 * (`kind: "root"`), in the shape of the vendor's API reference (rulesets: get a phase entry point).
 */
export function managedRuleset(owner: string, kind: 'zone' | 'root', since: string, rules: DatasetRulesetRule[]): Ruleset {
  return {
    id: stableId('managed-entrypoint', kind, owner),
    name: kind === 'zone' ? 'default' : 'Account managed rules',
    description: '',
    phase: MANAGED_PHASE,
    kind,
    version: '1',
    last_updated: since,
    rules: rules.map((r, i) => ({ ...r, ref: stableId('managed-ref', kind, owner, i), id: stableId('managed-rule', kind, owner, i), version: '1', last_updated: since })),
  };
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
