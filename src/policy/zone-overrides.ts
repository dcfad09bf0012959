import type { Named } from './findings.js';
import { globToRegExp } from '../common/glob.js';
import { SEVERITIES, type Severity } from './rule.js';

/**
 * A rule's settings for some zones only (config `rules.<id>.overrides`: `{zones, accounts, enabled,
 * severity}`, names, ids or globs), as ESLint's `overrides` are for files. Later overrides win.
 */

export interface ZoneOverride {
  zones: readonly string[] | null;
  accounts: readonly string[] | null;
  enabled?: boolean;
  severity?: Severity;
}

/** What the config says for one rule on one zone (or account, for a finding with no zone). */
export interface ZoneSetting {
  enabled: boolean;
  severity: Severity | null;
}

interface Compiled extends ZoneOverride {
  zonePatterns: RegExp[] | null;
  accountPatterns: RegExp[] | null;
}

const KEYS = ['zones', 'accounts', 'enabled', 'severity'];

/** Parses and checks `overrides`; `where` names it in errors, `fail` throws the caller's error type. */
export function parseOverrides(raw: unknown, where: string, fail: (message: string) => never): Compiled[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) fail(`${where}: expected a list of {"zones": [...], "accounts": [...], "enabled": true|false, "severity": "..."}`);
  return (raw as unknown[]).map((entry, i) => {
    const at = `${where}[${i}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) fail(`${at}: expected an object`);
    const o = entry as Record<string, unknown>;
    for (const key of Object.keys(o)) if (!KEYS.includes(key)) fail(`${at}: unknown setting "${key}"; use ${KEYS.join(', ')}`);
    const list = (key: 'zones' | 'accounts'): string[] | null => {
      const v = o[key];
      if (v === undefined) return null;
      if (!Array.isArray(v) || v.length === 0 || v.some((s) => typeof s !== 'string' || s === '')) fail(`${at}.${key}: expected a non-empty list of names or globs`);
      return v as string[];
    };
    const zones = list('zones');
    const accounts = list('accounts');
    if (!zones && !accounts) fail(`${at}: say which zones it is for, with "zones" (names or globs) or "accounts" (ids, names or globs)`);
    if (o['enabled'] !== undefined && typeof o['enabled'] !== 'boolean') fail(`${at}.enabled: expected true or false`);
    if (o['severity'] !== undefined && !SEVERITIES.includes(o['severity'] as Severity)) fail(`${at}.severity: expected one of ${SEVERITIES.join(', ')}`);
    if (o['enabled'] === undefined && o['severity'] === undefined) fail(`${at}: set "enabled" or "severity" (or both)`);
    return {
      zones,
      accounts,
      ...(o['enabled'] === undefined ? {} : { enabled: o['enabled'] as boolean }),
      ...(o['severity'] === undefined ? {} : { severity: o['severity'] as Severity }),
      zonePatterns: zones?.map(globToRegExp) ?? null,
      accountPatterns: accounts?.map(globToRegExp) ?? null,
    };
  });
}

function applies(o: Compiled, zone: Named | null, account: Named | null): boolean {
  const zoneOk = !o.zonePatterns || (zone !== null && o.zonePatterns.some((p) => p.test(zone.name ?? '') || p.test(zone.id)));
  const accountOk = !o.accountPatterns || (account !== null && o.accountPatterns.some((p) => p.test(account.name ?? '') || p.test(account.id)));
  return zoneOk && accountOk;
}

/** The rule's setting for a zone: its own, then each matching override in order. */
export function settingFor(base: ZoneSetting, overrides: readonly ZoneOverride[], zone: Named | null, account: Named | null): ZoneSetting {
  let setting = base;
  for (const o of overrides as readonly Compiled[]) {
    if (!applies(o, zone, account)) continue;
    setting = { enabled: o.enabled ?? setting.enabled, severity: o.severity ?? setting.severity };
  }
  return setting;
}

/** A rule's overrides as the audit records them (its entry in findings.json `rules`): absent when it has none. */
export function overridesOf(rule: { overrides: readonly ZoneOverride[] }): { overrides?: ZoneOverride[] } {
  if (rule.overrides.length === 0) return {};
  return {
    overrides: rule.overrides.map(({ zones, accounts, enabled, severity }) => ({
      zones,
      accounts,
      ...(enabled === undefined ? {} : { enabled }),
      ...(severity === undefined ? {} : { severity }),
    })),
  };
}
