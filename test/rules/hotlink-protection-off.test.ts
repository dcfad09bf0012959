import rule from '../../rules/hotlink-protection-off.js';
import { locked } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor API reference: zone settings, hotlink_protection: value on | off, default off.
const zone = (value: unknown) => ({ zones: [{ name: 'shop.example', settings: { hotlink_protection: value } }] });

testRule(rule, {
  valid: [
    // vendor docs: Hotlink Protection: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked setting with a sound value passes', snapshot: zone(locked('on')) },
    // vendor docs: Scrape Shield, Hotlink Protection: on, image requests whose Referer is another site are denied.
    { name: 'on', snapshot: zone('on') },
    // vendor API reference: zone settings: a setting the plan does not offer answers 200 with editable: false, held at a
    // value (off here) that is not the zone's choice: not applicable, never judged by that value.
  ],
  invalid: [
    // vendor docs: Hotlink Protection: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked weak value fails, and the finding says it is locked', snapshot: zone(locked('off')), findings: [{ messageId: 'off', message: ['the value is locked', 'account policy holds it'] }] },
    // vendor docs: Scrape Shield, Hotlink Protection: off (the default), any site can embed the zone's images.
    { name: 'off', snapshot: zone('off'), findings: [{ messageId: 'off', severity: 'low', resourceType: 'zone_setting', resourceName: 'hotlink_protection' }] },
    { name: 'unknown when the settings failed', snapshot: { zones: [{ name: 'a.example', unread: { zone_settings: 'failed' } }] }, findings: [{ status: 'unknown' }] },
    {
      name: 'unknown when hotlink_protection was not among the settings read',
      snapshot: { zones: [{ name: 'a.example', settings: { ssl: 'strict' } }] },
      findings: [{ status: 'unknown', message: 'did not read the zone setting hotlink_protection' }],
    },
  ],
});
