import type { ZoneSetting } from '../../api/endpoints.js';
import type { ResourceRef, ZoneContext, RuleOptions } from '../rule.js';
import type { Entrypoint } from '../../cloudflare/rulesets/entrypoint.js';

/** What the security rules share: reading a setting or entry point, answering the cases that end the check. */

/** What a finding's `{{locked}}` says of a setting the zone cannot change (`editable: false`); empty otherwise. */
export function lockedNote(locked: boolean): string {
  return locked ? '; the value is locked (the API answers the setting as not editable): the plan or an account policy holds it, so changing it takes a change of plan or of that policy' : '';
}

/** The setting's value and lock, or undefined once answered (unknown, or a pass where the plan does not offer it). */
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

/** A setting as findings point at it; `part` (HSTS's max-age) gives each finding of a rule its own fingerprint. */
export function settingRef(ctx: ZoneContext<RuleOptions>, id: ZoneSetting, part?: string): { type: string; id: string; name: string } {
  const name = part ? `${id} ${part}` : id;
  return { type: 'zone_setting', id: `${ctx.zone.resource.id}/${name.replace(' ', '.')}`, name };
}

/** A custom rule as findings point at it: stable id, its description as the name. */
export function customRuleRef(rule: { id: string; description: string }): { type: string; id: string; name: string | null } {
  return { type: 'custom_rule', id: rule.id, name: rule.description || null };
}

type Fail = ZoneContext<RuleOptions>['fail'];

/** Runs `judge` with a `fail` that is counted; when it failed nothing, `resource` (the zone when omitted) passes. */
export function passUnlessFailed(ctx: Pick<ZoneContext<RuleOptions>, 'pass' | 'fail'>, judge: (fail: Fail) => void, resource?: ResourceRef): void {
  let failed = false;
  judge((...args) => {
    failed = true;
    ctx.fail(...args);
  });
  if (!failed) ctx.pass(resource);
}

/** A switch setting: fails when it is `bad` (the finding's data: the lock note and `{id}: bad`), else passes. */
export function judgeSwitch(ctx: ZoneContext<RuleOptions>, id: ZoneSetting, bad: 'on' | 'off', messageId: string = bad): void {
  const setting = settingOrAnswer(ctx, id);
  if (!setting) return;
  if (setting.value !== bad) return ctx.pass();
  ctx.fail(settingRef(ctx, id), messageId, { locked: setting.lockedNote, [id]: bad });
}
