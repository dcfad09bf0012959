import rule from '../../rules/challenge-passage-long.js';
import { locked } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor API reference: zone settings, challenge_ttl: seconds, one of 300, 900, 1800, 2700, 3600, 7200, 10800,
// 14400, 28800, 57600, 86400, 604800, 2592000, 31536000; default 1800.
// vendor docs: Challenge Passage: the cf_clearance cookie lasts 30 minutes by default; the vendor recommends 15 to 45 minutes.
const zone = (value: unknown) => ({ zones: [{ name: 'shop.example', settings: { challenge_ttl: value } }] });

testRule(rule, {
  valid: [
    // vendor docs: Challenge Passage: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked setting with a sound value passes', snapshot: zone(locked(1800)) },
    { name: 'the default, 30 minutes', snapshot: zone(1800) },
    { name: '15 minutes, the bottom of the recommended range', snapshot: zone(900) },
    // A shorter passage challenges more often: stricter, not reported.
    { name: '5 minutes', snapshot: zone(300) },
    // Boundary: 45 minutes is the top of the vendor's recommendation and the default limit.
    { name: '45 minutes, exactly the limit', snapshot: zone(2700) },
    { name: 'one hour with maxSeconds 3600', snapshot: zone(3600), options: { maxSeconds: 3600 } },
  ],
  invalid: [
    // vendor docs: Challenge Passage: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked weak value fails, and the finding says it is locked', snapshot: zone(locked(86400)), findings: [{ messageId: 'long', message: ['the value is locked', 'account policy holds it'] }] },
    {
      // vendor docs: Challenge Passage: one hour is past the recommended 15 to 45 minutes.
      name: 'one hour, the next value past the limit',
      snapshot: zone(3600),
      findings: [{ messageId: 'long', severity: 'low', resourceType: 'zone_setting', resourceName: 'challenge_ttl', message: '1 hour (3,600 seconds)', data: { seconds: 3600, limit: 2700 } }],
    },
    { name: 'a year, the longest value', snapshot: zone(31_536_000), findings: [{ messageId: 'long', message: '1 year (31,536,000 seconds)' }] },
    { name: '30 days', snapshot: zone(2_592_000), findings: [{ messageId: 'long', message: '30 days' }] },
    { name: 'the default is too long for maxSeconds 900', snapshot: zone(1800), options: { maxSeconds: 900 }, findings: [{ messageId: 'long', message: '30 minutes', data: { limit: 900 } }] },
    // vendor API reference: the value is a number; anything else cannot be compared.
    { name: 'unknown when the value is not a number', snapshot: zone('1800'), findings: [{ status: 'unknown', resourceName: 'challenge_ttl', message: 'not a number of seconds' }] },
    { name: 'unknown when the settings failed', snapshot: { zones: [{ name: 'a.example', unread: { zone_settings: 'failed' } }] }, findings: [{ status: 'unknown' }] },
    {
      name: 'unknown when challenge_ttl was not among the settings read',
      snapshot: { zones: [{ name: 'a.example', settings: { ssl: 'strict' } }] },
      findings: [{ status: 'unknown', message: 'did not read the zone setting challenge_ttl' }],
    },
  ],
});
