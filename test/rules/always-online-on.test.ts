import rule from '../../rules/always-online-on.js';
import { locked } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor API reference: zone settings, always_online: value on | off, default on.
const zone = (value: unknown) => ({ zones: [{ name: 'shop.example', settings: { always_online: value } }] });

testRule(rule, {
  valid: [
    // vendor docs: Always Online: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked setting with a sound value passes', snapshot: zone(locked('off')) },
    // vendor docs: Always Online: off, nothing is shared with the Internet Archive and no archived copy is served.
    { name: 'off', snapshot: zone('off') },
  ],
  invalid: [
    // vendor docs: Always Online: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked weak value fails, and the finding says it is locked', snapshot: zone(locked('on')), findings: [{ messageId: 'on', message: ['the value is locked', 'account policy holds it'] }] },
    {
      // vendor docs: Always Online: the hostname and popular URL paths go to the Internet Archive's crawler, which
      // ignores robots.txt; archived copies are served when the origin is unreachable. Prowler (zone_always_online_disabled) reports on as well.
      name: 'on (the default)',
      snapshot: zone('on'),
      findings: [{ messageId: 'on', severity: 'low', resourceType: 'zone_setting', resourceName: 'always_online', message: 'Internet Archive' }],
    },
    { name: 'unknown when the settings failed', snapshot: { zones: [{ name: 'a.example', unread: { zone_settings: 'failed' } }] }, findings: [{ status: 'unknown' }] },
    {
      name: 'unknown when always_online was not among the settings read',
      snapshot: { zones: [{ name: 'a.example', settings: { ssl: 'strict' } }] },
      findings: [{ status: 'unknown', message: 'did not read the zone setting always_online' }],
    },
  ],
});
