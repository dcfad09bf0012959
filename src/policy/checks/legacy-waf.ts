import type { ZoneView } from '../zone-view.js';

/**
 * Which plans (legacy plan ids) come with the previous managed rules and their `waf` switch. One
 * setting, legacy-waf-off's `plans`, which managed-rules-disabled follows (meta.optionsFrom), so
 * the two agree on which zones have the switch.
 */
export const WAF_PLANS_FROM = { rule: 'legacy-waf-off', options: ['plans'] } as const;
export const WAF_PLAN_DEFAULTS = { plans: ['pro', 'business', 'enterprise'] as readonly string[] };

/**
 * Whether legacy-waf-off reports this zone: a zone of one of `plans` that has not migrated, whose
 * `waf` setting was read and is off. The switch is the previous managed rules' own (the migration
 * status calls it `old_waf_status`), and before the migration the new ones are not enabled, so such a
 * zone runs no managed rules: one fact, which legacy-waf-off reports naming the switch to turn back
 * on; managed-rules-disabled leaves it to that rule (one problem, one finding).
 */
export function legacyWafSwitchedOff(zone: ZoneView, plans: readonly string[]): boolean {
  if (zone.plan === null || !plans.includes(zone.plan)) return false;
  const migration = zone.migration();
  if (!migration.known || migration.value?.migrated) return false;
  const setting = zone.setting('waf');
  return setting.known && setting.value.offered && setting.value.value === 'off';
}
