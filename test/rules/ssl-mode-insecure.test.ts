import rule from '../../rules/ssl-mode-insecure.js';
import { NOT_OFFERED } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: zone settings: ssl value off | flexible | full | strict; only strict validates the origin certificate.
const zone = (ssl: unknown) => ({ zones: [{ name: 'shop.example', settings: { ssl } }] });

testRule(rule, {
  valid: [
    { name: 'strict validates the origin certificate', snapshot: zone('strict') },
    { name: 'full passes when the option accepts it', options: { acceptFull: true }, snapshot: zone('full') },
    // vendor docs: zone settings: a setting the plan does not offer answers an error: not applicable.
    { name: 'a plan that does not offer the setting is not applicable', snapshot: zone(NOT_OFFERED) },
  ],
  invalid: [
    { name: 'off serves everything in clear text', snapshot: zone('off'), findings: [{ messageId: 'off', severity: 'critical', resourceType: 'zone', zone: 'shop.example' }] },
    { name: 'flexible sends origin traffic in clear', snapshot: zone('flexible'), findings: [{ messageId: 'flexible', severity: 'high', message: 'edge to the origin in clear text' }] },
    { name: 'full does not validate the origin', snapshot: zone('full'), findings: [{ messageId: 'notStrict', severity: 'low' }] },
    { name: 'an undocumented mode is reported as such', snapshot: zone('strict_only'), findings: [{ messageId: 'unknownMode', message: '"strict_only"' }] },
    {
      name: 'unknown when the settings were not read',
      snapshot: { zones: [{ name: 'a.example', unread: { zone_settings: 'failed' } }] },
      findings: [{ status: 'unknown', message: 'zone_settings could not be read' }],
    },
    {
      name: 'unknown when the setting was not among those read',
      snapshot: { zones: [{ name: 'a.example', settings: { tls_1_3: 'on' } }] },
      findings: [{ status: 'unknown', message: 'did not read the zone setting ssl' }],
    },
  ],
});
