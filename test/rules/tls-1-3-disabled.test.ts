import rule from '../../rules/tls-1-3-disabled.js';
import { locked } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: zone settings: tls_1_3 on | off | zrt (zrt is TLS 1.3 with 0-RTT).
const zone = (v: unknown) => ({ zones: [{ name: 'shop.example', settings: { tls_1_3: v } }] });

testRule(rule, {
  valid: [
    // vendor docs: TLS 1.3: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked setting with a sound value passes', snapshot: zone(locked('on')) },
    { name: 'on', snapshot: zone('on') },
    { name: 'zrt is TLS 1.3 with 0-RTT', snapshot: zone('zrt') },
  ],
  invalid: [
    // vendor docs: TLS 1.3: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked weak value fails, and the finding says it is locked', snapshot: zone(locked('off')), findings: [{ messageId: 'off', message: ['the value is locked', 'account policy holds it'] }] },
    { name: 'off', snapshot: zone('off'), findings: [{ messageId: 'off', severity: 'low', zone: 'shop.example' }] },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'a.example', settings: {} }] }, findings: [{ status: 'unknown', message: 'tls_1_3' }] },
  ],
});
