import { defineRule } from '../src/policy/rule.js';
import { settingOrAnswer, settingRef } from '../src/policy/checks/zone-security.js';

const HOUR = 3_600_000;

/**
 * Under Attack mode challenges every visitor (the vendor's last resort), judged by how long it has
 * been on, from the setting's `modified_on`. The other levels filter no one (security-level-weak).
 */
export default defineRule({
  meta: {
    id: 'under-attack-left-on',
    title: 'Under Attack mode is turned off again after the attack',
    description:
      "Under Attack mode challenges every visitor with an interstitial page that needs JavaScript and cookies before the site is reached. The vendor designs it as one of the last resorts while a zone is under a layer 7 DDoS attack: it pauses access to the site and affects its analytics. Left on after the attack, it keeps refusing API clients, webhooks, feeds and monitors that cannot run the challenge, and delays every new visitor. How long it has been on is read from the setting's last change (modified_on).",
    severity: 'medium',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone setting (security_level)',
    reads: ['setting:security_level'],
    messages: {
      leftOn: 'Under Attack mode has been on for {{hours}} hours (since {{since}}), longer than {{limit}} hours: every visitor is challenged, and clients that cannot run the challenge (API clients, webhooks, monitors) are refused{{locked}}',
      sinceUnknown: 'Under Attack mode is on and the API does not say since when (no modified_on): every visitor is challenged, and clients that cannot run the challenge (API clients, webhooks, monitors) are refused{{locked}}',
    },
    remediation:
      'Once the attack is over, set the security level back (`PATCH /zones/{zone_id}/settings/security_level` with `{"value": "medium"}`; any level other than `under_attack` turns the mode off). For lasting protection, use rate limiting rules, custom rules with a managed challenge on the paths that are attacked, or bot protection, and exempt API paths from challenges.',
    references: [
      'vendor docs: Under Attack mode (one of the last resorts when a zone is under attack; pauses access to the site and affects analytics; visitors see an interstitial challenge)',
      'vendor docs: security level (the threat score is always 0; the setting turns Under Attack mode on or off)',
      'vendor API reference: zone settings (security_level: off, essentially_off, low, medium, high, under_attack; modified_on: last time the setting was modified)',
    ],
    optionHelp: {
      maxHours: 'how many hours Under Attack mode may stay on before it is reported (24: a day covers an attack and the night after it)',
    },
  },
  defaultOptions: { maxHours: 24 },
  check(ctx) {
    const setting = settingOrAnswer(ctx, 'security_level');
    if (!setting) return;
    if (setting.value !== 'under_attack') return ctx.pass();
    const read = ctx.zone.setting('security_level');
    const modifiedOn = read.known && read.value.offered ? read.value.modifiedOn : null;
    const since = modifiedOn ? new Date(modifiedOn) : null;
    // Without a start the mode cannot be shown to be recent; an emergency measure whose start is
    // not recorded is reported rather than presumed fresh.
    if (!since || Number.isNaN(since.getTime())) {
      return ctx.fail(settingRef(ctx, 'security_level'), 'sinceUnknown', { locked: setting.lockedNote, security_level: 'under_attack', modified_on: modifiedOn });
    }
    const elapsed = ctx.now.getTime() - since.getTime();
    const limit = ctx.options.maxHours * HOUR;
    // Exactly the limit is still within it: only longer than maxHours is left on.
    if (elapsed <= limit) return ctx.pass();
    ctx.fail(settingRef(ctx, 'security_level'), 'leftOn', {
      locked: setting.lockedNote,
      security_level: 'under_attack',
      hours: Math.floor(elapsed / HOUR),
      since: since.toISOString(),
      limit: ctx.options.maxHours,
    });
  },
});
