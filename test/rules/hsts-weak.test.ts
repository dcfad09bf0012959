import rule from '../../rules/hsts-weak.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: zone settings: security_header value {strict_transport_security: {enabled, max_age, include_subdomains, preload, nosniff}}.
// RFC 6797, 6.1.1: max-age=0 tells the browser to forget the host as an HSTS host.
const hsts = (h: Record<string, unknown>) => ({
  zones: [{ name: 'shop.example', settings: { security_header: { strict_transport_security: { enabled: true, max_age: 31_536_000, include_subdomains: true, preload: false, nosniff: true, ...h } } } }],
});

testRule(rule, {
  valid: [
    { name: 'a year, with subdomains', snapshot: hsts({}) },
    { name: 'exactly six months', snapshot: hsts({ max_age: 15_552_000 }) },
    { name: 'subdomains not required by option', options: { requireSubdomains: false }, snapshot: hsts({ include_subdomains: false }) },
  ],
  invalid: [
    { name: 'disabled', snapshot: hsts({ enabled: false }), findings: [{ messageId: 'off', severity: 'medium' }] },
    { name: 'enabled with max-age 0 is off', snapshot: hsts({ max_age: 0 }), findings: [{ messageId: 'off' }] },
    { name: 'a day is too short', snapshot: hsts({ max_age: 86_400 }), findings: [{ messageId: 'shortMaxAge', message: '86,400 seconds', data: { minDays: 180 } }] },
    { name: 'without subdomains', snapshot: hsts({ include_subdomains: false }), findings: [{ messageId: 'noSubdomains', severity: 'low' }] },
    { name: 'short and without subdomains', snapshot: hsts({ max_age: 300, include_subdomains: false }), findings: [{ messageId: 'shortMaxAge', resourceName: 'security_header max-age' }, { messageId: 'noSubdomains', resourceName: 'security_header includeSubDomains' }] },
    {
      name: 'a value without the HSTS object is off',
      snapshot: { zones: [{ name: 'a.example', settings: { security_header: {} } }] },
      findings: [{ messageId: 'off' }],
    },
  ],
});
