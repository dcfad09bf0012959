import { expressionBytes, MIGRATION_LIMITS } from './preview.js';
import type { WafPackage, WafSetting } from '../legacy-waf/models.js';

/**
 * What the managed-rules migration carries and drops (the spec's mapping rules, the vendor's migration guide): it
 * carries the bypass firewall rules and the vendor package's rule overrides, drops the OWASP package's overrides.
 */

/**
 * A firewall rule the migration carries: `action: bypass` with `waf` among its products (spec: "Firewall rules with
 * the action Bypass of the previous managed rules"). Only these count towards the 200-rule and 4 KB limits.
 */
export function migratesAsBypass(rule: { action: string | null; products: readonly string[] }): boolean {
  return rule.action === 'bypass' && rule.products.includes('waf');
}

/** How the bypass rules to migrate stand against the spec's limits (more than 200; an expression over 4 KB). */
export function againstLimits(bypass: ReadonlyArray<{ expression: string | null }>): { tooMany: boolean; long: number } {
  return {
    tooMany: bypass.length > MIGRATION_LIMITS.firewallRules,
    long: bypass.filter((e) => e.expression !== null && expressionBytes(e.expression) > MIGRATION_LIMITS.expressionBytes).length,
  };
}

/** A rule set away from the default it states; a rule in mode `default` follows it. */
export const overridden = (s: WafSetting): boolean => s.mode !== null && s.defaultMode !== null && s.mode !== 'default' && s.mode !== s.defaultMode;

/** An OWASP group with rules changed from their defaults: the group's own count, and the rules off in it now. */
export interface OwaspGroupChange {
  group: WafSetting;
  changedRules: number;
  /** The group's rules now off. OWASP rules state no default, so these are where to look, not proof. */
  rulesOff: WafSetting[];
}

interface LegacyOverrides {
  /** Dropped by the migration: OWASP groups with evidence of a change (modified_rules_count > 0, or a rule away from a stated default). */
  lost: OwaspGroupChange[];
  /** Carried into the new configuration: rule overrides of the vendor's own package. */
  carried: WafSetting[];
}

export function legacyOverrides(packages: readonly WafPackage[], groups: readonly WafSetting[], rules: readonly WafSetting[]): LegacyOverrides {
  const owaspIds = new Set(packages.filter((p) => p.detectionMode === 'anomaly').map((p) => p.id));
  const isOwasp = (s: WafSetting) => s.packageId !== null && owaspIds.has(s.packageId);
  const lost: OwaspGroupChange[] = [];
  for (const group of groups.filter(isOwasp)) {
    const own = rules.filter((r) => r.groupId === group.id);
    // Older answers gave OWASP rules a default_mode: a rule away from it is evidence too.
    const changedRules = Math.max(group.modifiedRulesCount ?? 0, own.filter(overridden).length);
    if (changedRules > 0) lost.push({ group, changedRules, rulesOff: own.filter((r) => r.mode === 'off') });
  }
  return { lost, carried: rules.filter((r) => !isOwasp(r) && overridden(r)) };
}

