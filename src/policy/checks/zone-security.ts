import type { ZoneSetting } from '../../api/endpoints.js';
import type { ZoneContext, RuleOptions } from '../rule.js';
import type { Entrypoint } from '../../cloudflare/rulesets/entrypoint.js';

/**
 * What the security rules share: reading one setting or an entry point and reporting, once, the
 * cases that end the check (not read: unknown; not offered by the plan: not applicable, a pass).
 */

/**
 * What a finding on a setting's value says of a locked setting (answered `editable: false` though
 * every plan offers it, src/cloudflare/zone-settings/setting.ts): the value is in force, and
 * changing it is not the zone's to do. Empty for a setting the zone can change; message templates
 * end with `{{locked}}`.
 */
export function lockedNote(locked: boolean): string {
  return locked ? '; the value is locked (the API answers the setting as not editable): the plan or an account policy holds it, so changing it takes a change of plan or of that policy' : '';
}

/**
 * The setting's value (with whether it is locked, and lockedNote's words for a finding), or
 * undefined once the check has been answered (unknown, or not applicable: a setting the plan does
 * not offer).
 */
export function settingOrAnswer(ctx: ZoneContext<RuleOptions>, id: ZoneSetting): { value: unknown; locked: boolean; lockedNote: string } | undefined {
  const read = ctx.zone.setting(id);
  if (!read.known) {
    ctx.unknown(ctx.zone.resource, read.reason);
    return undefined;
  }
  if (!read.value.offered) {
    // vendor API reference, zone settings: a setting the plan does not offer answers editable: false; nothing to judge.
    ctx.pass();
    return undefined;
  }
  return { value: read.value.value, locked: read.value.locked, lockedNote: lockedNote(read.value.locked) };
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
