import rule from '../../rules/email-obfuscation-off.js';
import { locked } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor API reference: zone settings, email_obfuscation: value on | off, default on.
const zone = (value: unknown) => ({ zones: [{ name: 'shop.example', settings: { email_obfuscation: value } }] });

testRule(rule, {
  valid: [
    // vendor docs: Email Address Obfuscation: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked setting with a sound value passes', snapshot: zone(locked('on')) },
    // vendor docs: Scrape Shield, Email Address Obfuscation: on, addresses are encoded in HTML pages and visible to visitors only.
    { name: 'on', snapshot: zone('on') },
    // vendor API reference: zone settings: a setting the plan does not offer answers 200 with editable: false, held at a
    // value (off here) that is not the zone's choice: not applicable, never judged by that value.
  ],
  invalid: [
    // vendor docs: Email Address Obfuscation: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked weak value fails, and the finding says it is locked', snapshot: zone(locked('off')), findings: [{ messageId: 'off', message: ['the value is locked', 'account policy holds it'] }] },
    // vendor docs: Scrape Shield, Email Address Obfuscation: off, the addresses are plain text in the page for bots to harvest.
    { name: 'off', snapshot: zone('off'), findings: [{ messageId: 'off', severity: 'low', resourceType: 'zone_setting', resourceName: 'email_obfuscation' }] },
    { name: 'unknown when the settings failed', snapshot: { zones: [{ name: 'a.example', unread: { zone_settings: 'failed' } }] }, findings: [{ status: 'unknown' }] },
    {
      name: 'unknown when email_obfuscation was not among the settings read',
      snapshot: { zones: [{ name: 'a.example', settings: { ssl: 'strict' } }] },
      findings: [{ status: 'unknown', message: 'did not read the zone setting email_obfuscation' }],
    },
  ],
});
