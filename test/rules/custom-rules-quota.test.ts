import rule from '../../rules/custom-rules-quota.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: rulesets: GET .../phases/http_request_firewall_custom/entrypoint answers {rules: [...]},
// 404 code 10003 (stored as no object) before any rule exists. Quotas per plan as for firewall rules.
const rules = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `c${i}`, action: 'block', expression: `ip.src eq 192.0.2.${i % 250}`, enabled: true }));
const zone = (plan: 'free' | 'pro' | 'business' | 'enterprise' | null, n: number | null) => ({
  zones: [{ name: 'shop.example', plan, customEntrypoint: n === null ? null : { id: 'ep', phase: 'http_request_firewall_custom', rules: rules(n) } }],
});

testRule(rule, {
  valid: [
    { name: 'no entry point yet: no rules', snapshot: zone('free', null) },
    { name: 'under 80% of the Pro quota', snapshot: zone('pro', 15) },
    { name: 'a larger quota by option', options: { quotas: { free: 50 } }, snapshot: zone('free', 5) },
  ],
  invalid: [
    { name: 'Free at 5', snapshot: zone('free', 5), findings: [{ messageId: 'atQuota', severity: 'high', data: { count: 5, quota: 5, plan: 'free' } }] },
    { name: 'Pro at 16 of 20', snapshot: zone('pro', 16), findings: [{ messageId: 'nearQuota', severity: 'medium', data: { percent: 80 } }] },
    { name: 'no quota for the plan', snapshot: zone(null, 1), findings: [{ status: 'unknown', message: 'set options.quotas' }] },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'a.example', unread: { custom_entrypoint: 'failed' } }] }, findings: [{ status: 'unknown' }] },
  ],
});
