import { describe, expect, it } from 'vitest';
import { ZONE_SETTINGS } from '../../../src/api/endpoints.js';
import { parseZoneSetting } from '../../../src/cloudflare/zone-settings/setting.js';
import { OFFERED_ON_EVERY_PLAN, offeredOnEveryPlan } from '../../../src/cloudflare/zone-settings/availability.js';

const answer = (id: string, value: unknown, editable: boolean) => JSON.stringify({ id, value, editable, modified_on: '2026-10-01T00:00:00.000000Z' });

describe('settings every plan offers', () => {
  it('has one entry for each setting a rule may read', () => {
    expect(Object.keys(OFFERED_ON_EVERY_PLAN).sort()).toEqual([...ZONE_SETTINGS].sort());
  });

  it('holds only the previous WAF switch back from some plans', () => {
    // vendor docs: WAF managed rules (previous version): Pro, Business and Enterprise; every other
    // setting read has the four plans in its page's availability table.
    expect(ZONE_SETTINGS.filter((id) => !offeredOnEveryPlan(id))).toEqual(['waf']);
    // An id no rule reads is not assumed to be on every plan.
    expect(offeredOnEveryPlan('image_resizing')).toBe(false);
  });
});

describe('parseZoneSetting', () => {
  it('reads editable: false on a setting every plan offers as a locked value, judged', () => {
    // vendor API reference, zone settings: editable, whether the setting can be modified for the zone.
    expect(parseZoneSetting(answer('min_tls_version', '1.0', false))).toMatchObject({ offered: true, value: '1.0', editable: false, locked: true });
    expect(parseZoneSetting(answer('ssl', 'flexible', true))).toMatchObject({ offered: true, value: 'flexible', locked: false });
  });

  it('reads editable: false on a setting some plans lack as not offered', () => {
    expect(parseZoneSetting(answer('waf', 'off', false))).toMatchObject({ offered: false, id: 'waf' });
  });

  it('carries development_mode time_remaining', () => {
    // vendor API reference, zone settings, development_mode: time_remaining, seconds until it expires.
    expect(parseZoneSetting(JSON.stringify({ id: 'development_mode', value: 'on', editable: true, modified_on: '', time_remaining: 3600 }))).toMatchObject({ timeRemaining: 3600, modifiedOn: '' });
  });
});
