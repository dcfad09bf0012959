import rule from '../../rules/always-online-on.js';
import { NOT_OFFERED } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor API reference: zone settings, always_online: value on | off, default on.
const zone = (value: unknown) => ({ zones: [{ name: 'shop.example', settings: { always_online: value } }] });

testRule(rule, {
  valid: [
    // vendor docs: Always Online: off, nothing is shared with the Internet Archive and no archived copy is served.
    { name: 'off', snapshot: zone('off') },
    // vendor API reference: zone settings: a setting the plan does not offer answers 200 with editable: false; not judged by its value.
    { name: 'a plan that does not offer the setting is not applicable', snapshot: zone(NOT_OFFERED) },
  ],
  invalid: [
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
