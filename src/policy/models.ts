/**
 * Typed models of the raw API items the rules need beyond the snapshot's columns, parsed
 * defensively: the API adds and drops fields and sends null where strings are usual, so a
 * missing field becomes null here and the rule decides what that means.
 */

import { arr, bool, obj, parseJson, str, strings } from './json-fields.js';

export interface Certificate {
  id: string;
  hosts: string[];
  status: string | null;
  /** Null while the pack is being issued. */
  expiresOn: Date | null;
  /** When the certificate was issued (the API's `uploaded_on`), when it says. */
  uploadedOn: Date | null;
}

export interface CertificatePack {
  id: string;
  type: string | null;
  status: string | null;
  hosts: string[];
  certificates: Certificate[];
  validationErrors: string[];
  /** The validity the pack orders (14, 30, 90 or 365 days), when the API says. */
  validityDays: number | null;
  createdOn: Date | null;
  /** The CA that issues the pack (`lets_encrypt`, `google`, `ssl_com`, `digicert`, `sectigo`), when the API says. */
  certificateAuthority: string | null;
}

function date(v: unknown): Date | null {
  const s = str(v);
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function parseCertificatePack(id: string, raw: string): CertificatePack {
  const p = parseJson(raw);
  return {
    id,
    type: str(p['type']),
    status: str(p['status']),
    hosts: strings(p['hosts']),
    certificates: arr(p['certificates']).map((c, i) => {
      const o = obj(c);
      return { id: str(o['id']) ?? `${id}#${i}`, hosts: strings(o['hosts']), status: str(o['status']), expiresOn: date(o['expires_on']), uploadedOn: date(o['uploaded_on']) };
    }),
    validationErrors: arr(p['validation_errors'])
      .map((e) => str(obj(e)['message']))
      .filter((m): m is string => m !== null),
    validityDays: typeof p['validity_days'] === 'number' && p['validity_days'] > 0 ? p['validity_days'] : null,
    createdOn: date(p['created_on']),
    certificateAuthority: str(p['certificate_authority']),
  };
}

export interface MigrationStatus {
  /** `start`, `validation`, `complete`, or another value the API may add. */
  state: string | null;
  oldWaf: string | null;
  newWaf: string | null;
  /** When the zone entered its current state, when the API says. */
  since: Date | null;
}

export function parseMigrationStatus(raw: string): MigrationStatus {
  const s = parseJson(raw);
  return { state: str(s['migration_state']), oldWaf: str(s['old_waf_status']), newWaf: str(s['new_waf_status']), since: date(s['created']) };
}

export interface MigrationCheck {
  compatible: boolean | null;
  state: string | null;
}

export function parseMigrationCheck(raw: string): MigrationCheck {
  const c = parseJson(raw);
  return { compatible: bool(c['compatible']), state: str(c['migration_state']) };
}

export interface WafPackage {
  id: string;
  name: string | null;
  detectionMode: string | null;
  sensitivity: string | null;
  actionMode: string | null;
}

export function parseWafPackage(id: string, raw: string): WafPackage {
  return parseWafPackageObject(id, parseJson(raw));
}

/**
 * A group or a rule of the previous managed rules. A rule of the vendor's own package states its
 * `default_mode`; a rule of the OWASP package (anomaly detection) does not, and a group never does:
 * a group says instead how many of its rules were changed from their defaults.
 */
export interface WafSetting {
  id: string;
  packageId: string | null;
  name: string | null;
  mode: string | null;
  defaultMode: string | null;
  /** Groups only: `modified_rules_count`; null for rules or when the API left it out. */
  modifiedRulesCount: number | null;
  /** Rules only: the group the rule belongs to. */
  groupId: string | null;
}

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);

/** One group or rule object of the API, in either module's terms (the scan's raw JSON or a live answer). */
export function wafSettingOf(o: Record<string, unknown>, nameKey: 'name' | 'description', packageId: string | null = null): WafSetting {
  return {
    id: str(o['id']) ?? '',
    packageId: str(o['package_id']) ?? packageId,
    name: str(o[nameKey]),
    mode: str(o['mode']),
    defaultMode: str(o['default_mode']),
    modifiedRulesCount: nameKey === 'name' ? count(o['modified_rules_count']) : null,
    groupId: nameKey === 'description' ? str(obj(o['group'])['id']) : null,
  };
}

export function parseWafGroup(raw: string): WafSetting {
  return wafSettingOf(parseJson(raw), 'name');
}

export function parseWafRule(raw: string): WafSetting {
  return wafSettingOf(parseJson(raw), 'description');
}

export function parseWafPackageObject(id: string, p: Record<string, unknown>): WafPackage {
  return { id, name: str(p['name']), detectionMode: str(p['detection_mode']), sensitivity: str(p['sensitivity']), actionMode: str(p['action_mode']) };
}

/** The new managed-rules configuration (GET waf_migration/config): the PUT body of the migration. */
export interface ManagedRulesConfig {
  name: string;
  rules: Array<Record<string, unknown>>;
}

export function managedRulesConfigOf(v: unknown): ManagedRulesConfig {
  const o = obj(v);
  return { name: str(o['name']) ?? 'default', rules: arr(o['rules']).filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r)) };
}

export function parseManagedRulesConfig(raw: string): ManagedRulesConfig {
  return managedRulesConfigOf(parseJson(raw));
}

export interface WafOverride {
  id: string;
  urls: string[];
  description: string | null;
  paused: boolean | null;
}

export function parseWafOverride(id: string, raw: string): WafOverride {
  const o = parseJson(raw);
  return { id, urls: strings(o['urls']), description: str(o['description']), paused: bool(o['paused']) };
}

export interface Invite {
  id: string;
  status: string | null;
  organizationId: string | null;
  organizationName: string | null;
  invitedBy: string | null;
  expiresOn: Date | null;
}

export function parseInvite(id: string, raw: string): Invite {
  const i = parseJson(raw);
  return {
    id,
    status: str(i['status']),
    organizationId: str(i['organization_id']),
    organizationName: str(i['organization_name']),
    invitedBy: str(i['invited_by']),
    expiresOn: date(i['expires_on']),
  };
}

export interface FirewallRuleDetail {
  description: string | null;
  /** The expression the rule's inline filter object carries, when it does. */
  inlineExpression: string | null;
  /** The `paused` of the filter object the API embeds in the rule; null when it carries none. */
  inlineFilterPaused: boolean | null;
  /** The rule's `ref` (its own reference, free text); null when absent or empty. */
  ref: string | null;
  products: string[];
}

export function parseFirewallRuleDetail(raw: string): FirewallRuleDetail {
  const r = parseJson(raw);
  const filter = obj(r['filter']);
  return { description: str(r['description']), inlineExpression: str(filter['expression']), inlineFilterPaused: bool(filter['paused']), ref: str(r['ref']) || null, products: strings(r['products']) };
}

/** A filter's description: null when absent or blank, so callers can fall back to its id. */
export function parseFilterDescription(raw: string): string | null {
  const d = parseJson(raw)['description'];
  return typeof d === 'string' && d.trim() !== '' ? d : null;
}
