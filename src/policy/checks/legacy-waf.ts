import type { ZoneView } from '../zone-view.js';

/** Which plans have the previous managed rules' `waf` switch: legacy-waf-off's `plans`, which managed-rules-disabled follows. */
export const WAF_PLANS_FROM = { rule: 'legacy-waf-off', options: ['plans'] } as const;
export const WAF_PLAN_DEFAULTS = { plans: ['pro', 'business', 'enterprise'] as readonly string[] };

/**
 * Whether legacy-waf-off reports this zone: of one of `plans`, not migrated, its `waf` setting off, so
 * it runs no managed rules; managed-rules-disabled leaves that to it (one problem, one finding).
 */
export function legacyWafSwitchedOff(zone: ZoneView, plans: readonly string[]): boolean {
  if (zone.plan === null || !plans.includes(zone.plan)) return false;
  const migration = zone.migration();
  if (!migration.known || migration.value?.migrated) return false;
  const setting = zone.setting('waf');
  return setting.known && setting.value.offered && setting.value.value === 'off';
}
