import rule from '../../rules/custom-rules-disabled.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: rulesets: each rule has `enabled`, true when absent.
const zone = (...rules: Record<string, unknown>[]) => ({ zones: [{ name: 'shop.example', customEntrypoint: { id: 'ep', rules } }] });

testRule(rule, {
  valid: [
    { name: 'enabled, and enabled by default', snapshot: zone({ id: 'a', action: 'block', expression: 'true', enabled: true }, { id: 'b', action: 'log', expression: 'true' }) },
    { name: 'no entry point', snapshot: { zones: [{ name: 'a.example', customEntrypoint: null }] } },
  ],
  invalid: [
    {
      name: 'a disabled rule',
      snapshot: zone({ id: 'a', action: 'block', expression: 'true', enabled: true }, { id: 'b', description: 'old block', action: 'managed_challenge', expression: 'true', enabled: false }),
      findings: [{ messageId: 'disabled', severity: 'low', resourceId: 'b', message: 'old block (managed_challenge)' }],
    },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'a.example', unread: { custom_entrypoint: 'failed' } }] }, findings: [{ status: 'unknown' }] },
  ],
});
