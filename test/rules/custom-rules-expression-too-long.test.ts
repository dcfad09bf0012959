import rule from '../../rules/custom-rules-expression-too-long.js';
import { testRule } from '../support/rule-tester.js';

// spec: Limits: a rule expression is at most 4,096 characters; vendor docs: the custom rules phase keeps it.
const expr = (n: number) => `ip.src in {${'192.0.2.1 '.repeat(n)}}`.slice(0, n);
const zone = (...lengths: number[]) => ({
  zones: [{ name: 'shop.example', customEntrypoint: { id: 'ep', rules: lengths.map((n, i) => ({ id: `rule${i}`, description: i ? '' : 'block scanners', action: 'block', expression: expr(n) })) } }],
});

testRule(rule, {
  valid: [
    { name: 'exactly 4,096', snapshot: zone(4096, 10) },
    { name: 'no entry point', snapshot: { zones: [{ name: 'a.example', customEntrypoint: null }] } },
  ],
  invalid: [
    { name: 'one over', snapshot: zone(4097), findings: [{ messageId: 'tooLong', resourceType: 'custom_rule', resourceId: 'rule0', resourceName: 'block scanners', data: { length: 4097 } }] },
    { name: 'each rule over is its own finding, named by id without a description', snapshot: zone(5000, 10, 6000), findings: [{ resourceId: 'rule0' }, { resourceId: 'rule2', message: 'custom rule rule2' }] },
    { name: 'a lower limit by option', options: { limit: 100 }, snapshot: zone(101), findings: [{ messageId: 'tooLong' }] },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'a.example', unread: { custom_entrypoint: 'denied' } }] }, findings: [{ status: 'unknown' }] },
  ],
});
