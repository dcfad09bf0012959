import rule from '../../rules/security-level-weak.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: zone settings: security_level off | essentially_off | low | medium | high | under_attack; browser_check on | off.
const zone = (level: unknown, browser: unknown) => ({ zones: [{ name: 'shop.example', settings: { security_level: level, browser_check: browser } }] });

testRule(rule, {
  valid: [
    { name: 'medium with the browser check', snapshot: zone('medium', 'on') },
    { name: 'low still challenges', snapshot: zone('low', 'on') },
    { name: 'under attack', snapshot: zone('under_attack', 'on') },
  ],
  invalid: [
    { name: 'essentially off', snapshot: zone('essentially_off', 'on'), findings: [{ messageId: 'weak', severity: 'medium', message: 'essentially_off' }] },
    { name: 'off', snapshot: zone('off', 'on'), findings: [{ messageId: 'weak', message: 'never challenged' }] },
    { name: 'browser check off', snapshot: zone('high', 'off'), findings: [{ messageId: 'browserCheckOff', severity: 'low' }] },
    {
      // Two findings, each on its own setting, so each keeps its fingerprint from scan to scan.
      name: 'both weak: one finding per setting',
      snapshot: zone('essentially_off', 'off'),
      findings: [
        { messageId: 'weak', resourceType: 'zone_setting', resourceName: 'security_level' },
        { messageId: 'browserCheckOff', resourceType: 'zone_setting', resourceName: 'browser_check' },
      ],
    },
    { name: 'unknown when the settings failed', snapshot: { zones: [{ name: 'a.example', unread: { zone_settings: 'failed' } }] }, findings: [{ status: 'unknown' }] },
  ],
});
