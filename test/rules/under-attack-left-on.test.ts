import rule from '../../rules/under-attack-left-on.js';
import { days, locked, NOT_OFFERED } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor API reference: zone settings: security_level off | essentially_off | low | medium | high | under_attack;
// modified_on is the last time the setting was modified (here: when Under Attack mode was turned on).
// The fixture's scan starts at FIXTURE_NOW; days(n) is that time plus n days.
const zone = (level: unknown, modifiedOn?: string) => ({
  zones: [{ name: 'shop.example', settings: { security_level: level }, ...(modifiedOn !== undefined ? { settingsModifiedOn: { security_level: modifiedOn } } : {}) }],
});
const HOUR = 1 / 24;

testRule(rule, {
  valid: [
    // vendor docs: Security Level: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked setting with a sound value passes', snapshot: zone(locked('medium')) },
    // vendor docs: security level: the threat score is always 0 and the level only turns Under Attack mode on or off:
    // no other level challenges anyone, so none is left on.
    { name: 'medium', snapshot: zone('medium') },
    { name: 'high', snapshot: zone('high') },
    { name: 'essentially_off', snapshot: zone('essentially_off') },
    { name: 'off', snapshot: zone('off') },
    // vendor docs: Under Attack mode: a last resort while a zone is under attack; on for two hours, still within the default day.
    { name: 'under attack for two hours', snapshot: zone('under_attack', days(-2 * HOUR)) },
    // Boundary: exactly maxHours (24) is still within the limit.
    { name: 'under attack for exactly 24 hours', snapshot: zone('under_attack', days(-1)) },
    { name: 'under attack for two days with maxHours 72', snapshot: zone('under_attack', days(-2)), options: { maxHours: 72 } },
    // A modified_on after the scan's start (clock skew) is not an old mode.
    { name: 'modified_on just after the scan started', snapshot: zone('under_attack', days(HOUR / 60)) },
  ],
  invalid: [
    // vendor docs: Security Level: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked weak value fails, and the finding says it is locked', snapshot: zone(locked('under_attack'), days(-3)), findings: [{ messageId: 'leftOn', message: ['the value is locked', 'account policy holds it'] }] },
    {
      // vendor docs: Under Attack mode pauses access to the site for every visitor: past the limit it is reported, with since when.
      name: 'under attack for a minute past 24 hours',
      snapshot: zone('under_attack', days(-1 - HOUR / 60)),
      findings: [
        {
          messageId: 'leftOn',
          severity: 'medium',
          resourceType: 'zone_setting',
          resourceName: 'security_level',
          data: { hours: 24, since: days(-1 - HOUR / 60), limit: 24 },
        },
      ],
    },
    {
      name: 'under attack for 30 days',
      snapshot: zone('under_attack', days(-30)),
      findings: [{ messageId: 'leftOn', message: ['720 hours', `since ${days(-30)}`, 'longer than 24 hours'] }],
    },
    { name: 'maxHours 1: two hours is too long', snapshot: zone('under_attack', days(-2 * HOUR)), options: { maxHours: 1 }, findings: [{ messageId: 'leftOn', data: { hours: 2, limit: 1 } }] },
    {
      // vendor API reference: zone settings: modified_on may come null or empty; the start is unknown, reported as such.
      name: 'under attack with no modified_on',
      snapshot: zone('under_attack', ''),
      findings: [{ messageId: 'sinceUnknown', severity: 'medium', resourceName: 'security_level' }],
    },
    { name: 'under attack with an unreadable modified_on', snapshot: zone('under_attack', 'yesterday'), findings: [{ messageId: 'sinceUnknown' }] },
    { name: 'unknown when the settings failed', snapshot: { zones: [{ name: 'a.example', unread: { zone_settings: 'failed' } }] }, findings: [{ status: 'unknown' }] },
    {
      name: 'unknown when security_level was not among the settings read',
      snapshot: { zones: [{ name: 'a.example', settings: { browser_check: 'on' } }] },
      findings: [{ status: 'unknown', message: 'did not read the zone setting security_level' }],
    },
  ],
});
