import rule from '../../rules/firewall-rule-quota.js';
import { firewall } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

const rules = (n: number) => firewall(Array.from({ length: n }, (_, i) => ({ expression: `ip.src eq 192.0.2.${i}` })));

testRule(rule, {
  valid: [
    { name: 'no rules', snapshot: { zones: [{ name: 'a.example', plan: 'free' }] } },
    { name: '15 of 20 on Pro (75%)', snapshot: { zones: [{ name: 'a.example', plan: 'pro', ...rules(15) }] } },
    { name: '79 of 100 on Business', snapshot: { zones: [{ name: 'a.example', plan: 'business', ...rules(79) }] } },
    { name: 'a raised quota for Pro', options: { quotas: { pro: 40 } }, snapshot: { zones: [{ name: 'a.example', plan: 'pro', ...rules(20) }] } },
    { name: 'a higher warning share', options: { warnAt: 0.9 }, snapshot: { zones: [{ name: 'a.example', plan: 'pro', ...rules(17) }] } },
    {
      // vendor docs: firewall rules upgrade: firewall rules became custom rules, and the firewall rules API shows those same
      // rules; custom-rules-quota counts them, so the quota is not counted a second time here.
      name: 'a zone whose rules are custom rules: counted once, by custom-rules-quota',
      snapshot: {
        zones: [
          { name: 'a.example', plan: 'free', ...rules(5), customEntrypoint: { rules: [{ id: 'r1', action: 'block', expression: 'ip.src eq 192.0.2.1', enabled: true }] } },
        ],
      },
    },
  ],
  invalid: [
    {
      name: 'exactly 80% of the Pro quota',
      snapshot: { zones: [{ name: 'a.example', plan: 'pro', ...rules(16) }] },
      findings: [{ messageId: 'nearQuota', severity: 'medium', message: '16 firewall rules of the pro plan quota of 20 (80%)' }],
    },
    {
      name: 'the Free quota reached',
      snapshot: { zones: [{ name: 'a.example', plan: 'free', ...rules(5) }] },
      findings: [{ messageId: 'atQuota', severity: 'high', data: { count: 5, quota: 5 } }],
    },
    {
      name: 'paused rules count against the quota too',
      snapshot: { zones: [{ name: 'a.example', plan: 'free', ...firewall(Array.from({ length: 5 }, (_, i) => ({ expression: `ip.src eq 192.0.2.${i}`, paused: true }))) }] },
      findings: [{ messageId: 'atQuota' }],
    },
    { name: 'the configured severity wins', severity: 'low', snapshot: { zones: [{ name: 'a.example', plan: 'free', ...rules(5) }] }, findings: [{ severity: 'low' }] },
    {
      name: 'unknown when the rules were not read',
      snapshot: { zones: [{ name: 'a.example', plan: 'pro', unread: { firewall_rules: 'failed' } }] },
      findings: [{ status: 'unknown', message: 'firewall_rules' }],
    },
    {
      name: 'unknown for a plan without a quota',
      snapshot: { zones: [{ name: 'a.example', plan: null, ...rules(3) }] },
      findings: [{ status: 'unknown', message: 'no rule quota is known' }],
    },
  ],
});
