import rule from '../../rules/tls-1-3-disabled.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: zone settings: tls_1_3 on | off | zrt (zrt is TLS 1.3 with 0-RTT).
const zone = (v: unknown) => ({ zones: [{ name: 'shop.example', settings: { tls_1_3: v } }] });

testRule(rule, {
  valid: [
    { name: 'on', snapshot: zone('on') },
    { name: 'zrt is TLS 1.3 with 0-RTT', snapshot: zone('zrt') },
  ],
  invalid: [
    { name: 'off', snapshot: zone('off'), findings: [{ messageId: 'off', severity: 'low', zone: 'shop.example' }] },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'a.example', settings: {} }] }, findings: [{ status: 'unknown', message: 'tls_1_3' }] },
  ],
});
