import rule from '../../rules/https-not-enforced.js';
import { locked } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: zone settings: always_use_https on | off; automatic_https_rewrites on | off.
const zone = (always: unknown, rewrites: unknown) => ({ zones: [{ name: 'shop.example', settings: { always_use_https: always, automatic_https_rewrites: rewrites } }] });

testRule(rule, {
  valid: [
    { name: 'both on', snapshot: zone('on', 'on') },
    // vendor docs: Always Use HTTPS: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked setting with a sound value passes', snapshot: zone(locked('on'), locked('on')) },
  ],
  invalid: [
    // vendor docs: Always Use HTTPS: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked weak value fails, and the finding says it is locked', snapshot: zone(locked('off'), 'on'), findings: [{ messageId: 'notEnforced', message: ['the value is locked', 'account policy holds it'] }] },
    { name: 'HTTPS not enforced', snapshot: zone('off', 'on'), findings: [{ messageId: 'notEnforced', severity: 'medium' }] },
    { name: 'rewrites off', snapshot: zone('on', 'off'), findings: [{ messageId: 'rewritesOff', severity: 'low' }] },
    { name: 'both off: two findings', snapshot: zone('off', 'off'), findings: [{ messageId: 'notEnforced', resourceName: 'always_use_https' }, { messageId: 'rewritesOff', resourceName: 'automatic_https_rewrites' }] },
    {
      name: 'unknown when one of the two was not read',
      snapshot: { zones: [{ name: 'a.example', settings: { always_use_https: 'on' } }] },
      findings: [{ status: 'unknown', message: 'automatic_https_rewrites' }],
    },
  ],
});
