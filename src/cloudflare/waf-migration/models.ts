/** The WAF migration's answers (`waf_migration/status`, `/check`, `/config`), parsed defensively. */

import { arr, bool, date, obj, parseJson, str } from '../fields.js';

export interface MigrationStatus {
  /** `start`, `validation`, `complete`, or another value the API may add. */
  state: string | null;
  oldWaf: string | null;
  newWaf: string | null;
  /** When the zone entered its current state, when the API says. */
  since: Date | null;
}

export function parseMigrationStatus(raw: string): MigrationStatus {
  return migrationStatusOf(parseJson(raw));
}

/** The migration status of an answer already parsed as JSON (the crawler decides its reads on it). */
export function migrationStatusOf(s: Record<string, unknown>): MigrationStatus {
  return { state: str(s['migration_state']), oldWaf: str(s['old_waf_status']), newWaf: str(s['new_waf_status']), since: date(s['created']) };
}

/**
 * A zone created since the migration programme (2022-09) runs the new managed rules from birth: its status has no
 * `migration_state`, the new version enabled, the old one not (no published schema: our reading, as the emulator's).
 */
export function isNativeToNewManagedRules(status: MigrationStatus): boolean {
  return status.state === null && status.newWaf === 'enabled' && status.oldWaf !== 'enabled';
}

export interface MigrationCheck {
  compatible: boolean | null;
  state: string | null;
}

export function parseMigrationCheck(raw: string): MigrationCheck {
  const c = parseJson(raw);
  return { compatible: bool(c['compatible']), state: str(c['migration_state']) };
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
