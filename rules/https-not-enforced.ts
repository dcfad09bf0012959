import { defineRule } from '../src/policy/rule.js';
import { passUnlessFailed, settingOrAnswer, settingRef } from '../src/policy/checks/zone-security.js';

export default defineRule({
  meta: {
    id: 'https-not-enforced',
    title: 'Visitors are always served over HTTPS',
    description:
      'Without Always Use HTTPS, a visitor who types the name or follows an http:// link is served in clear text, where the page can be read and altered on the way. Automatic HTTPS rewrites fix pages that still link their own resources over http://, which browsers otherwise block or load in clear.',
    severity: 'medium',
    category: 'tls',
    scope: 'zone',
    resource: 'zone setting (always_use_https, automatic_https_rewrites)',
    reads: ['setting:always_use_https', 'setting:automatic_https_rewrites'],
    messages: {
      notEnforced: 'Always Use HTTPS is off: plain http:// requests are served in clear text instead of being redirected{{locked}}',
      rewritesOff: 'automatic HTTPS rewrites are off: pages that link resources over http:// load them in clear text or not at all{{locked}}',
    },
    remediation: 'Turn on Always Use HTTPS (`PATCH /zones/{zone_id}/settings/always_use_https` with `on`) and automatic HTTPS rewrites (`.../automatic_https_rewrites` with `on`).',
    references: ['vendor docs: zone settings (always_use_https: on, off; automatic_https_rewrites: on, off)'],
  },
  defaultOptions: {},
  check(ctx) {
    const enforce = settingOrAnswer(ctx, 'always_use_https');
    if (!enforce) return;
    const rewrites = settingOrAnswer(ctx, 'automatic_https_rewrites');
    if (!rewrites) return;
    passUnlessFailed(ctx, (fail) => {
      if (enforce.value === 'off') fail(settingRef(ctx, 'always_use_https'), 'notEnforced', { locked: enforce.lockedNote, always_use_https: 'off' });
      if (rewrites.value === 'off') {
        fail(settingRef(ctx, 'automatic_https_rewrites'), 'rewritesOff', { locked: rewrites.lockedNote, automatic_https_rewrites: 'off' }, 'low');
      }
    });
  },
});
