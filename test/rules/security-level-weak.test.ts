import rule from '../../rules/security-level-weak.js';
import { locked } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: zone settings: security_level off | essentially_off | low | medium | high | under_attack; browser_check on | off.
// vendor docs: security level: the threat score is always 0 (zero) and the setting now only turns
// Under Attack mode on or off, so no threshold value challenges anyone by reputation any more.
const zone = (level: unknown, browser: unknown) => ({ zones: [{ name: 'shop.example', settings: { security_level: level, browser_check: browser } }] });
const browserOnly = (browser: unknown) => ({ zones: [{ name: 'shop.example', settings: { browser_check: browser } }] });

testRule(rule, {
  valid: [
    // vendor docs: Browser Integrity Check: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked setting with a sound value passes', snapshot: browserOnly(locked('on')) },
    { name: 'medium with the browser check', snapshot: zone('medium', 'on') },
    { name: 'low still passes', snapshot: zone('low', 'on') },
    { name: 'under attack', snapshot: zone('under_attack', 'on') },
    // vendor docs: security level: the threat score is always 0, so essentially_off (which challenged
    // scores 50-100) challenges the same visitors as medium or high: nobody by reputation.
    { name: 'essentially_off is no weaker than any other level today', snapshot: zone('essentially_off', 'on') },
    // vendor docs: security level: off never challenged by reputation; with every score 0, neither does
    // any threshold level, so off and essentially_off are the same setting today.
    { name: 'off is no weaker than any other level today', snapshot: zone('off', 'on') },
    // The security level is not read any more: the browser check alone decides.
    { name: 'judged without the security level', snapshot: browserOnly('on') },
  ],
  invalid: [
    // vendor docs: Browser Integrity Check: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked weak value fails, and the finding says it is locked', snapshot: browserOnly(locked('off')), findings: [{ messageId: 'browserCheckOff', message: ['the value is locked', 'account policy holds it'] }] },
    // vendor docs: browser integrity check: it denies requests with headers abused by spammers; off, they pass.
    { name: 'browser check off', snapshot: zone('high', 'off'), findings: [{ messageId: 'browserCheckOff', severity: 'low', resourceType: 'zone_setting', resourceName: 'browser_check' }] },
    {
      // The level that used to be reported is no finding of its own any more: one finding, on the browser check.
      name: 'essentially_off with the browser check off: only the browser check',
      snapshot: zone('essentially_off', 'off'),
      findings: [{ messageId: 'browserCheckOff', resourceType: 'zone_setting', resourceName: 'browser_check' }],
    },
    { name: 'unknown when the settings failed', snapshot: { zones: [{ name: 'a.example', unread: { zone_settings: 'failed' } }] }, findings: [{ status: 'unknown' }] },
    {
      name: 'unknown when the browser check was not among the settings read',
      snapshot: { zones: [{ name: 'a.example', settings: { security_level: 'medium' } }] },
      findings: [{ status: 'unknown', message: 'did not read the zone setting browser_check' }],
    },
  ],
});
