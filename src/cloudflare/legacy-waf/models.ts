/**
 * The previous WAF managed rules (`GET /zones/{id}/firewall/waf/packages`, their groups, rules and
 * URL overrides), parsed defensively: a missing or oddly typed field becomes null.
 */

import { bool, obj, parseJson, str, strings } from '../fields.js';

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
