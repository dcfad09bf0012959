import { expressionBytes } from '../../cloudflare/waf-migration/preview.js';
import type { FirewallRule, ZoneView } from '../zone-view.js';

/** The rules language's limit on an expression, in characters (vendor docs: rule expression length limit). */
export const LANGUAGE_MAX_CHARACTERS = 4096;

/**
 * The carried bypass rules whose expression is over `maxBytes` of UTF-8 (spec "Errors", rule 7, and
 * "Limits") on a zone still before validation: migration-expression-too-long reports them, and
 * firewall-expression-too-long leaves them to it. Empty when not read.
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
