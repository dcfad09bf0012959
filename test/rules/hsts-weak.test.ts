import rule from '../../rules/hsts-weak.js';
import { locked } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: zone settings: security_header value {strict_transport_security: {enabled, max_age, include_subdomains, preload, nosniff}}.
// RFC 6797, 6.1.1: max-age=0 tells the browser to forget the host as an HSTS host.
// hstspreload.org submission requirements: a header with the preload directive requests inclusion,
// accepted only with max-age >= 31536000 seconds (1 year) and the includeSubDomains directive.
const hsts = (h: Record<string, unknown>) => ({
  zones: [{ name: 'shop.example', settings: { security_header: { strict_transport_security: { enabled: true, max_age: 31_536_000, include_subdomains: true, preload: false, nosniff: true, ...h } } } }],
});

testRule(rule, {
  valid: [
    // vendor docs: HTTP Strict Transport Security (HSTS): available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked setting with a sound value passes', snapshot: { zones: [{ name: 'shop.example', settings: { security_header: locked({ strict_transport_security: { enabled: true, max_age: 31_536_000, include_subdomains: true, preload: false, nosniff: true } }) } }] } },
    { name: 'a year, with subdomains', snapshot: hsts({}) },
    { name: 'exactly six months', snapshot: hsts({ max_age: 15_552_000 }) },
    { name: 'subdomains not required by option', options: { requireSubdomains: false }, snapshot: hsts({ include_subdomains: false }) },
    // hstspreload.org: max-age of at least 31536000 with includeSubDomains and preload is accepted.
    { name: 'a preload request with a year and subdomains', snapshot: hsts({ preload: true }) },
    { name: 'a preload request with two years', snapshot: hsts({ preload: true, max_age: 63_072_000 }) },
    // The preload requirements apply only when preload is asked for.
    { name: 'six months without preload needs nothing more', snapshot: hsts({ max_age: 15_552_000, preload: false }) },
  ],
  invalid: [
    // vendor docs: HTTP Strict Transport Security (HSTS): available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked weak value fails, and the finding says it is locked', snapshot: { zones: [{ name: 'shop.example', settings: { security_header: locked({ strict_transport_security: { enabled: false, max_age: 0 } }) } }] }, findings: [{ messageId: 'off', message: ['the value is locked', 'account policy holds it'] }] },
    { name: 'disabled', snapshot: hsts({ enabled: false }), findings: [{ messageId: 'off', severity: 'medium' }] },
    { name: 'enabled with max-age 0 is off', snapshot: hsts({ max_age: 0 }), findings: [{ messageId: 'off' }] },
    { name: 'a day is too short', snapshot: hsts({ max_age: 86_400 }), findings: [{ messageId: 'shortMaxAge', message: '86,400 seconds', data: { minDays: 180 } }] },
    { name: 'without subdomains', snapshot: hsts({ include_subdomains: false }), findings: [{ messageId: 'noSubdomains', severity: 'low' }] },
    { name: 'short and without subdomains', snapshot: hsts({ max_age: 300, include_subdomains: false }), findings: [{ messageId: 'shortMaxAge', resourceName: 'security_header max-age' }, { messageId: 'noSubdomains', resourceName: 'security_header includeSubDomains' }] },
    {
      // hstspreload.org: max-age must be at least 31536000 (1 year); six months passes our own minimum but not theirs.
      name: 'a preload request with six months would be refused',
      snapshot: hsts({ preload: true, max_age: 15_552_000 }),
      findings: [{ messageId: 'preloadRefused', severity: 'low', resourceName: 'security_header preload', message: 'a max-age of at least one year (31,536,000 seconds; it is 15,552,000)' }],
    },
    {
      // hstspreload.org: the includeSubDomains directive must be specified.
      name: 'a preload request without subdomains would be refused, even when subdomains are not required by option',
      options: { requireSubdomains: false },
      snapshot: hsts({ preload: true, include_subdomains: false }),
      findings: [{ messageId: 'preloadRefused', message: 'it needs includeSubDomains', data: { missing: 'includeSubDomains' } }],
    },
    {
      // hstspreload.org: both requirements; each weakness keeps its own finding besides.
      name: 'a preload request missing both says both',
      snapshot: hsts({ preload: true, max_age: 86_400, include_subdomains: false }),
      findings: [
        { messageId: 'shortMaxAge' },
        { messageId: 'noSubdomains' },
        { messageId: 'preloadRefused', message: ['a max-age of at least one year', 'it is 86,400', 'and includeSubDomains'] },
      ],
    },
    {
      // RFC 6797, 6.1.1: with HSTS off, a preload flag asks nothing: only the off finding.
      name: 'preload on disabled HSTS is just off',
      snapshot: hsts({ enabled: false, preload: true, max_age: 300 }),
      findings: [{ messageId: 'off' }],
    },
    {
      name: 'a value without the HSTS object is off',
      snapshot: { zones: [{ name: 'a.example', settings: { security_header: {} } }] },
      findings: [{ messageId: 'off' }],
    },
  ],
});
