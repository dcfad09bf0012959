import { expressionBytes } from '../../cloudflare/waf-migration/preview.js';
import type { FirewallRule, ZoneView } from '../zone-view.js';

/** The rules language's limit on an expression, in characters (vendor docs: rule expression length limit). */
export const LANGUAGE_MAX_CHARACTERS = 4096;

/**
 * The bypass rules whose expression blocks the managed-rules migration, as
 * migration-expression-too-long reports them: on a zone still to migrate that has not entered
 * validation (the check is behind it there), each firewall rule the migration carries whose
 * expression is over `maxBytes` of UTF-8 (spec "Errors", rule 7, and "Limits"). One problem, one
 * finding: firewall-expression-too-long leaves these rules, and a filter only they use, to that
 * rule, which says what the length blocks. Empty when the migration status or the firewall rules
 * were not read: migration-expression-too-long then reports none of them.
 */
export function migrationBlockingExpressions(zone: ZoneView, maxBytes: number): Array<{ rule: FirewallRule; expression: string; bytes: number }> {
  const migration = zone.migration();
  if (!migration.known || !migration.value || migration.value.migrated || migration.value.stage === 'validation') return [];
  const bypass = zone.bypassRulesToMigrate();
  if (!bypass.known) return [];
  const blocking: Array<{ rule: FirewallRule; expression: string; bytes: number }> = [];
  for (const { rule, expression } of bypass.items) {
    if (expression === null) continue;
    const bytes = expressionBytes(expression);
    if (bytes > maxBytes) blocking.push({ rule, expression, bytes });
  }
  return blocking;
}
