import rule from '../../rules/development-mode-on.js';
import { NOT_OFFERED, days } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor API reference: zone settings, development_mode: value on | off; once on, it lasts 3 hours
// and then turns itself off; modified_on is when the setting last changed.
const zone = (value: unknown, modifiedOn?: string) => ({
  zones: [{ name: 'shop.example', settings: { development_mode: value }, ...(modifiedOn !== undefined ? { settingsModifiedOn: { development_mode: modifiedOn } } : {}) }],
});

testRule(rule, {
  valid: [
    // vendor docs: Development Mode: off, the edge cache serves cacheable content.
    { name: 'off', snapshot: zone('off') },
    // vendor API reference: zone settings: a setting the plan does not offer answers 200 with editable: false; not judged by its value.
    { name: 'a plan that does not offer the setting is not applicable', snapshot: zone(NOT_OFFERED) },
    // vendor docs: Development Mode: it turns itself off three hours after it was turned on; an answer
    // "on" read four hours ago (carried forward by an incremental night) is off by now.
    { name: 'on, but turned on more than 3 hours ago: it has ended by itself', snapshot: zone('on', days(-4 / 24)) },
  ],
  invalid: [
    {
      // vendor docs: Development Mode: it suspends edge caching (and Polish) for three hours unless turned off before.
      name: 'on, turned on an hour ago',
      snapshot: zone('on', days(-1 / 24)),
      findings: [{ messageId: 'on', severity: 'low', resourceType: 'zone_setting', resourceName: 'development_mode', message: `since ${days(-1 / 24)}` }],
    },
    {
      // vendor API reference: zone settings: modified_on may be null or empty; the finding still stands, its start unrecorded.
      name: 'on with no modified_on',
      snapshot: zone('on', ''),
      findings: [{ messageId: 'on', message: 'since an unrecorded time' }],
    },
    // The settings were not read: nothing to judge.
    { name: 'unknown when the settings failed', snapshot: { zones: [{ name: 'a.example', unread: { zone_settings: 'failed' } }] }, findings: [{ status: 'unknown' }] },
    {
      name: 'unknown when development_mode was not among the settings read',
      snapshot: { zones: [{ name: 'a.example', settings: { ssl: 'strict' } }] },
      findings: [{ status: 'unknown', message: 'did not read the zone setting development_mode' }],
    },
  ],
});
