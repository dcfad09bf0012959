import { defineRule } from '../src/policy/rule.js';
import { settingOrAnswer, settingRef } from '../src/policy/zone-security.js';

export default defineRule({
  meta: {
    id: 'security-level-weak',
    title: 'The security level challenges visitors with a bad reputation, and the browser check runs',
    description:
      'The security level decides which visitors with a poor IP reputation are challenged. `essentially_off` (and `off`, Enterprise) challenge only the worst offenders or no one. The browser integrity check stops requests with headers that only bots and spam tools send.',
    severity: 'medium',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone setting (security_level, browser_check)',
    reads: ['setting:security_level', 'setting:browser_check'],
    messages: {
      weak: 'security level is {{level}}: visitors with a poor reputation are {{effect}}',
      browserCheckOff: 'the browser integrity check is off: requests with headers typical of bots are not stopped',
    },
    remediation: 'Set the security level to `medium` or higher (`PATCH /zones/{zone_id}/settings/security_level`) and turn the browser check on (`.../browser_check` with `on`); exempt known API clients with a skip rule instead.',
    references: ['vendor docs: zone settings (security_level: off, essentially_off, low, medium, high, under_attack; browser_check: on, off)'],
  },
  defaultOptions: {},
  check(ctx) {
    const level = settingOrAnswer(ctx, 'security_level');
    if (!level) return;
    const browser = settingOrAnswer(ctx, 'browser_check');
    if (!browser) return;
    let failed = false;
    if (level.value === 'essentially_off' || level.value === 'off') {
      const effect = level.value === 'off' ? 'never challenged' : 'challenged only when they are the most threatening';
      ctx.fail(settingRef(ctx, 'security_level'), 'weak', { level: level.value, effect });
      failed = true;
    }
    if (browser.value === 'off') {
      ctx.fail(settingRef(ctx, 'browser_check'), 'browserCheckOff', { browser_check: 'off' }, 'low');
      failed = true;
    }
    if (!failed) ctx.pass();
  },
});
