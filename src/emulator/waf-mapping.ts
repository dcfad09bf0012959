import { stableId } from './ids.js';
import { entrypoint, MANAGED_PHASE } from './security.js';
import type { Filter, FirewallRule, LegacyWaf, Ruleset, RulesetRule, Zone } from './state.js';

/** The spec's migration mapping: the legacy WAF as the new managed-rules configuration (GET /waf_migration/config). */

export const MANAGED_RULESET_ID = 'efb7b8c949ac4650a09736fc376e9aee';
export const OWASP_RULESET_ID = '4814384a9e5d4991b9815dcfc25d2f1f';
/** The OWASP rule that compares the anomaly score with the threshold. */
export const OWASP_SCORE_RULE_ID = '6179ae15870a4bb7b2d480d4843b323c';
export const KNOWN_MANAGED_RULESETS = new Set([MANAGED_RULESET_ID, OWASP_RULESET_ID]);

type Sensitivity = 'high' | 'medium' | 'low' | 'default';

/** The spec's table: old sensitivity -> paranoia level and score threshold. */
export const SENSITIVITY_MAPPING: Record<Sensitivity, { paranoiaLevel: 1 | 2; threshold: 'high' | 'medium'; score: number }> = {
  high: { paranoiaLevel: 2, threshold: 'medium', score: 40 },
  medium: { paranoiaLevel: 1, threshold: 'high', score: 25 },
  low: { paranoiaLevel: 1, threshold: 'medium', score: 40 },
  default: { paranoiaLevel: 2, threshold: 'medium', score: 40 },
};

/** Past these the migration fails and needs the vendor's support (spec: Errors rule 7, Limits). */
export const MIGRATION_LIMITS = { bypassRules: 200, expressionBytes: 4096 } as const;

/**
 * The firewall rules the migration carries: `bypass` of `waf` (spec: Migration mapping rules, rule 3),
 * paused ones too (a documented guess: they become disabled skip rules).
 */
export function bypassRulesToMigrate(firewallRules: Iterable<FirewallRule>, filters: Map<string, Filter>): Array<{ rule: FirewallRule; expression: string | null }> {
  return [...firewallRules].filter((fw) => fw.action === 'bypass' && (fw.products?.includes('waf') ?? false)).map((rule) => ({ rule, expression: filters.get(rule.filterId)?.expression ?? null }));
}

/** The spec's failures needing the vendor's support, as the check and the PUT report them. */
export function overLimitReasons(carried: ReadonlyArray<{ expression: string | null }>): string[] {
  const reasons: string[] = [];
  if (carried.length > MIGRATION_LIMITS.bypassRules) reasons.push(`more than ${MIGRATION_LIMITS.bypassRules} firewall rules to migrate (${carried.length}): contact support`);
  const long = carried.filter((c) => c.expression !== null && Buffer.byteLength(c.expression) > MIGRATION_LIMITS.expressionBytes).length;
  if (long) reasons.push(`${long} firewall rule expression(s) to migrate longer than 4 KB: contact support`);
  return reasons;
}

/** Rule overrides of the vendor's own package, carried (vendor migration guide); the same rule ids is a documented guess. */
function carriedOverrides(waf: LegacyWaf): Array<Record<string, unknown>> {
  return waf.packages
    .filter((p) => p.detection_mode === 'traditional')
    .flatMap((p) => p.groups.flatMap((g) => g.rules))
    .filter((r) => r.mode !== 'default' && r.mode !== r.default_mode)
    .map((r) => (r.mode === 'disable' ? { id: r.id, enabled: false } : { id: r.id, action: r.mode === 'simulate' ? 'log' : r.mode }));
}

export interface MigrationConfig {
  name: string;
  rules: Array<Omit<RulesetRule, 'last_updated'>>;
}

export function migrationConfig(waf: LegacyWaf, firewallRules: Iterable<FirewallRule>, filters: Map<string, Filter>): MigrationConfig {
  const owasp = waf.packages.find((p) => p.detection_mode === 'anomaly');
  const sensitivity: Sensitivity = owasp?.sensitivity && owasp.sensitivity !== 'off' ? owasp.sensitivity : 'default';
  const mapping = SENSITIVITY_MAPPING[sensitivity];
  const disabledLevels = [mapping.paranoiaLevel + 1, 3, 4].filter((v, i, a) => v <= 4 && a.indexOf(v) === i);

  // Rule entries carry id, version and ref as empty strings, as the spec's examples do.
  const rule = (action: string, expression: string, enabled: boolean, action_parameters: Record<string, unknown>, description = '') =>
    ({ id: '', version: '', action, expression, description, ref: '', enabled, action_parameters });
  const rules: MigrationConfig['rules'] = [];
  // Firewall rules that bypassed the previous managed rules become skip rules placed first.
  for (const { rule: fw, expression } of bypassRulesToMigrate(firewallRules, filters)) {
    if (expression !== null) rules.push(rule('skip', expression, !fw.paused, { ruleset: 'current' }, `Migrated from firewall rule ${fw.id}`));
  }
  const managedEnabled = waf.enabled && waf.packages.some((p) => p.detection_mode === 'traditional');
  rules.push(rule('execute', 'true', managedEnabled, { id: MANAGED_RULESET_ID, overrides: { rules: carriedOverrides(waf) } }));
  if (owasp) {
    // Simulate becomes Log; the other actions carry over.
    const action = owasp.action_mode === 'simulate' ? 'log' : (owasp.action_mode ?? 'block');
    const score = { id: OWASP_SCORE_RULE_ID, action, score_threshold: mapping.score, enabled: true };
    const categories = disabledLevels.map((level) => ({ category: `paranoia-level-${level}`, enabled: false }));
    // Sensitivity off disables the OWASP package: the migration deploys it disabled (vendor guide).
    // Its group and rule overrides are not carried (spec: Migration mapping rules, rule 2).
    rules.push(rule('execute', 'true', waf.enabled && owasp.sensitivity !== 'off', { id: OWASP_RULESET_ID, overrides: { categories, rules: [score] } }));
  }
  return { name: 'default', rules };
}

/** The entry point a zone that has started migrating got from the migration's PUT at `since`. */
export function migratedEntrypoint(zone: Zone, since: string): Ruleset {
  const config = migrationConfig(zone.waf, zone.firewallRules.values(), zone.filters);
  return entrypoint({ id: stableId('entrypoint', zone.name), name: config.name, phase: MANAGED_PHASE, kind: 'zone' }, since, config.rules, (i) => ({ id: stableId('entrypoint-rule', zone.name, i) }));
}
