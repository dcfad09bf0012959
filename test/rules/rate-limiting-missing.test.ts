import rule from '../../rules/rate-limiting-missing.js';
import { dnsRecord, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: WAF, rate limiting rules: available on every plan (Free to Enterprise); a rule has
// an expression, an action and a `ratelimit` object, and is deployed to the zone's `http_ratelimit`
// phase entry point (create a rate limiting rule via API).
// vendor docs: rulesets: a rule's `enabled` defaults to true.
// vendor docs: proxy status: only proxied records are served by the edge and its rules.
const proxied = [dnsRecord('A', 'shop.example', '192.0.2.10', true)];
const dnsOnly = [dnsRecord('A', 'shop.example', '192.0.2.10', false)];
const limit = (action: string, enabled?: boolean): Item => ({
  id: `rl-${action}-${String(enabled)}`,
  action,
  expression: 'http.request.uri.path eq "/login"',
  description: `login ${action}`,
  ...(enabled === undefined ? {} : { enabled }),
  ratelimit: { characteristics: ['ip.src', 'cf.colo.id'], period: 60, requests_per_period: 10, mitigation_timeout: 600 },
});
const entrypoint = (...rules: Item[]): Item => ({ id: 'ep-rl', phase: 'http_ratelimit', kind: 'zone', version: '3', rules });
const zone = (rateLimitEntrypoint: Item | null, dnsRecords = proxied, plan: 'free' | 'pro' | 'business' | 'enterprise' = 'pro') => ({
  zones: [{ name: 'shop.example', plan, rateLimitEntrypoint, dnsRecords }],
});

testRule(rule, {
  valid: [
    { name: 'a blocking rate limiting rule', snapshot: zone(entrypoint(limit('block'))) },
    // vendor docs: rate limiting rules are available on the Free plan too.
    { name: 'Free: a managed challenge rule', snapshot: zone(entrypoint(limit('managed_challenge')), proxied, 'free') },
    { name: 'one enabled rule besides disabled and logging ones', snapshot: zone(entrypoint(limit('block', false), limit('log'), limit('challenge', true))) },
    // vendor docs: proxy status: a zone proxying nothing has no traffic for rate limiting to act on.
    { name: 'no rules, but nothing is proxied', snapshot: zone(null, dnsOnly) },
    { name: 'no rules on a zone without records', snapshot: zone(null, []) },
    {
      // A rule that acts decides alone: the records are not needed, so their failed read does not make it unknown.
      name: 'a blocking rule, with the DNS records not read',
      snapshot: { zones: [{ name: 'shop.example', rateLimitEntrypoint: entrypoint(limit('block')), unread: { dns_records: 'failed' as const } }] },
    },
  ],
  invalid: [
    {
      // vendor docs: create a rate limiting rule via API: no http_ratelimit entry point means no rate limiting rules.
      name: 'no entry point on a zone that proxies traffic',
      snapshot: zone(null),
      findings: [{ messageId: 'none', severity: 'medium', resourceType: 'zone' }],
    },
    { name: 'an entry point with no rules', snapshot: zone(entrypoint()), findings: [{ messageId: 'none' }] },
    {
      // vendor docs: rulesets: a disabled rule does not run.
      name: 'every rule disabled',
      snapshot: zone(entrypoint(limit('block', false), limit('managed_challenge', false))),
      findings: [{ messageId: 'disabled', severity: 'medium', data: { rules: 2 } }],
    },
    {
      // vendor docs: rate limiting rules: the Log action records matching requests and takes no action on them.
      name: 'only logging rules',
      snapshot: zone(entrypoint(limit('log'), limit('block', false))),
      findings: [{ messageId: 'logOnly', severity: 'low', data: { rules: 1 } }],
    },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'shop.example', dnsRecords: proxied, unread: { ratelimit_entrypoint: 'failed' as const } }] }, findings: [{ status: 'unknown' }] },
    {
      name: 'no rules: unknown when the DNS records were not read',
      snapshot: { zones: [{ name: 'shop.example', rateLimitEntrypoint: null, unread: { dns_records: 'failed' as const } }] },
      findings: [{ status: 'unknown', message: 'dns_records' }],
    },
  ],
});
