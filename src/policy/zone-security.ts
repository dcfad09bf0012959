import type { ZoneSetting } from '../api/endpoints.js';
import type { ZoneContext, RuleOptions } from './rule.js';
import type { Entrypoint } from './security-models.js';

/**
 * What the security rules share: reading one setting or an entry point and reporting, once, the
 * cases that end the check (not read: unknown; not offered by the plan: not applicable, a pass).
 */

/** The setting's value, or undefined once the check has been answered (unknown or not applicable). */
export function settingOrAnswer(ctx: ZoneContext<RuleOptions>, id: ZoneSetting): { value: unknown } | undefined {
  const read = ctx.zone.setting(id);
  if (!read.known) {
    ctx.unknown(ctx.zone.resource, read.reason);
    return undefined;
  }
  if (!read.value.offered) {
    // vendor docs: zone settings: a setting the plan does not offer answers an error; nothing to judge.
    ctx.pass();
    return undefined;
  }
  return { value: read.value.value };
}

/** The custom-rules entry point (an empty one when none exists yet), or undefined once answered unknown. */
export function customRulesOrAnswer(ctx: ZoneContext<RuleOptions>): Entrypoint | undefined {
  const read = ctx.zone.customRules();
  if (!read.known) {
    ctx.unknown(ctx.zone.resource, read.reason);
    return undefined;
  }
  return read.value ?? { id: null, phase: 'http_request_firewall_custom', rules: [] };
}

/**
 * One setting of the zone as findings point at it (`part` names one aspect of it, as HSTS's
 * max-age): a rule that finds two things wrong with a zone reports each on its own resource, so
 * that each finding keeps its own fingerprint from scan to scan.
 */
export function settingRef(ctx: ZoneContext<RuleOptions>, id: ZoneSetting, part?: string): { type: string; id: string; name: string } {
  const name = part ? `${id} ${part}` : id;
  return { type: 'zone_setting', id: `${ctx.zone.resource.id}/${name.replace(' ', '.')}`, name };
}

/** A custom rule as findings point at it: stable id, its description as the name. */
export function customRuleRef(rule: { id: string; description: string }): { type: string; id: string; name: string | null } {
  return { type: 'custom_rule', id: rule.id, name: rule.description || null };
}
