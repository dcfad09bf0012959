import rule from '../../rules/development-mode-on.js';
import { days, locked } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor API reference: zone settings, development_mode: value on | off; once on, it lasts 3 hours
// and then turns itself off; modified_on is when the setting last changed.
const zone = (value: unknown, modifiedOn?: string, answer?: Record<string, unknown>) => ({
  zones: [
    {
      name: 'shop.example',
      settings: { development_mode: value },
      ...(modifiedOn !== undefined ? { settingsModifiedOn: { development_mode: modifiedOn } } : {}),
      ...(answer ? { settingsAnswer: { development_mode: answer } } : {}),
    },
  ],
});
// vendor API reference: zones, development_mode: the zone list carries the seconds Development Mode
// has left (positive while on), negative once it has expired, 0 if it was never enabled (api-facts).
const listed = (seconds: number, setting?: unknown) => ({
  zones: [{ name: 'shop.example', developmentMode: seconds, ...(setting === undefined ? {} : { settings: { development_mode: setting } }) }],
});

testRule(rule, {
  valid: [
    // vendor docs: Development Mode: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked setting with a sound value passes', snapshot: zone(locked('off')) },
    // vendor docs: Development Mode: off, the edge cache serves cacheable content.
    { name: 'off', snapshot: zone('off') },
    // vendor docs: Development Mode: it turns itself off three hours after it was turned on; an answer
    // "on" read four hours ago (carried forward by an incremental night) is off by now.
    { name: 'on, but turned on more than 3 hours ago: it has ended by itself', snapshot: zone('on', days(-4 / 24)) },
    // The zone list: never on (0), expired an hour ago (negative); the setting need not be read.
    { name: 'the zone list says never on', snapshot: listed(0) },
    { name: 'the zone list says it expired an hour ago', snapshot: listed(-3600) },
    // The zone list decides over a setting answer carried from an earlier night.
    { name: 'the zone list says expired, a setting read before said on', snapshot: listed(-60, 'on') },
    // vendor API reference: zone settings, development_mode: time_remaining, seconds until it expires;
    // modified_on may be null or empty. Judged by the time left when it was read (the scan's start).
    { name: 'the setting says on with no time remaining', snapshot: zone('on', '', { time_remaining: 0 }) },
  ],
  invalid: [
    {
      // vendor docs: Development Mode: it suspends edge caching (and Polish) for three hours unless turned off before.
      name: 'on, turned on an hour ago',
      snapshot: zone('on', days(-1 / 24)),
      findings: [{ messageId: 'on', severity: 'low', resourceType: 'zone_setting', resourceName: 'development_mode', message: `since ${days(-1 / 24)}, until ${days(2 / 24)}` }],
    },
    {
      // The zone list: 1,800 seconds left when the scan read it (at its start, ctx.now).
      name: 'the zone list says on, half an hour left',
      snapshot: listed(1800),
      findings: [{ messageId: 'on', severity: 'low', resourceName: 'development_mode', data: { until: days(0.5 / 24) }, message: `Development Mode is on (until ${days(0.5 / 24)})` }],
    },
    {
      // The zone list decides over a setting answer that said off on an earlier night.
      name: 'the zone list says on, a setting read before said off',
      snapshot: listed(600, 'off'),
      findings: [{ messageId: 'on', data: { until: days(10 / 1440) } }],
    },
    {
      // No development_mode in the zone list: the setting's time_remaining decides, not modified_on
      // (here "" as the API may send it).
      name: 'the setting says on with an hour remaining',
      snapshot: zone('on', '', { time_remaining: 3600 }),
      findings: [{ messageId: 'on', data: { until: days(1 / 24) }, message: `Development Mode is on (until ${days(1 / 24)})` }],
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
