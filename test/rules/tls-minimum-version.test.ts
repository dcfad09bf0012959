import rule from '../../rules/tls-minimum-version.js';
import { locked } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: zone settings: min_tls_version "1.0" | "1.1" | "1.2" | "1.3". RFC 8996 deprecates 1.0 and 1.1.
const zone = (v: unknown) => ({ zones: [{ name: 'shop.example', settings: { min_tls_version: v } }] });

testRule(rule, {
  valid: [
    // vendor docs: Minimum TLS Version: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked setting with a sound value passes', snapshot: zone(locked('1.2')) },
    { name: 'TLS 1.2', snapshot: zone('1.2') },
    { name: 'TLS 1.3', snapshot: zone('1.3') },
    { name: 'a lower minimum by option', options: { minimum: '1.1' }, snapshot: zone('1.1') },
  ],
  invalid: [
    // vendor docs: Minimum TLS Version: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked weak value fails, and the finding says it is locked', snapshot: zone(locked('1.0')), findings: [{ messageId: 'tooLow', message: ['the value is locked', 'account policy holds it'] }] },
    { name: 'TLS 1.0 is high', snapshot: zone('1.0'), findings: [{ messageId: 'tooLow', severity: 'high', data: { version: '1.0', minimum: '1.2' } }] },
    { name: 'TLS 1.1 is medium', snapshot: zone('1.1'), findings: [{ messageId: 'tooLow', severity: 'medium', message: 'accepts TLS 1.1' }] },
    { name: 'a stricter minimum by option', options: { minimum: '1.3' }, snapshot: zone('1.2'), findings: [{ messageId: 'tooLow', message: 'TLS 1.3 or later' }] },
    { name: 'an undocumented value', snapshot: zone('2.0'), findings: [{ messageId: 'unknownVersion', severity: 'low' }] },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'a.example', unread: { zone_settings: 'denied' } }] }, findings: [{ status: 'unknown' }] },
  ],
});
