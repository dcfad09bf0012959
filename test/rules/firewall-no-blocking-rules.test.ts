import rule from '../../rules/firewall-no-blocking-rules.js';
import { dnsRecord, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: WAF custom rules: phase http_request_firewall_custom, on every plan (Free: 5 rules).
// vendor docs: rules language, actions: block, challenge (interactive), js_challenge and
// managed_challenge stop or challenge a request; skip and log let it through.
// vendor docs: rulesets: a rule's `enabled` defaults to true.
// vendor docs: proxy status: only proxied records are served by the edge and its rules.
const proxied = [dnsRecord('A', 'shop.example', '192.0.2.10', true)];
const rule_ = (id: string, action: string, enabled?: boolean): Item => ({
  id,
  action,
  expression: 'http.request.uri.path contains "/admin"',
  description: `${action} rule`,
  ...(enabled === undefined ? {} : { enabled }),
});
const zone = (customEntrypoint: Item | null, dnsRecords = proxied) => ({ zones: [{ name: 'shop.example', customEntrypoint, dnsRecords }] });
const entrypoint = (...rules: Item[]): Item => ({ id: 'ep-custom', phase: 'http_request_firewall_custom', rules });

testRule(rule, {
  valid: [
    { name: 'a block rule', snapshot: zone(entrypoint(rule_('a', 'block'))) },
    // vendor docs: actions: each challenge kind challenges the request.
    { name: 'a managed challenge rule', snapshot: zone(entrypoint(rule_('a', 'managed_challenge'))) },
    { name: 'an interactive challenge rule', snapshot: zone(entrypoint(rule_('a', 'challenge', true))) },
    { name: 'a JS challenge rule beside skip and log rules', snapshot: zone(entrypoint(rule_('a', 'skip'), rule_('b', 'log'), rule_('c', 'js_challenge'))) },
    // vendor docs: proxy status: with nothing proxied, custom rules see no traffic.
    { name: 'no custom rules, but nothing is proxied', snapshot: zone(null, [dnsRecord('A', 'shop.example', '192.0.2.10', false)]) },
    {
      // A blocking rule decides alone: the records are not needed, so their failed read does not make it unknown.
      name: 'a block rule, with the DNS records not read',
      snapshot: { zones: [{ name: 'shop.example', customEntrypoint: entrypoint(rule_('a', 'block')), unread: { dns_records: 'failed' as const } }] },
    },
  ],
  invalid: [
    {
      // Decision (docs silent): no custom rules at all is the plainest case of nothing stopping site-specific traffic.
      name: 'no custom rules entry point on a zone that proxies traffic',
      snapshot: zone(null),
      findings: [{ messageId: 'none', severity: 'low', resourceType: 'zone' }],
    },
    { name: 'an entry point with no rules', snapshot: zone(entrypoint()), findings: [{ messageId: 'none' }] },
    {
      // vendor docs: actions: skip and log let the request through.
      name: 'only skip and log rules',
      snapshot: zone(entrypoint(rule_('a', 'skip'), rule_('b', 'log'))),
      findings: [{ messageId: 'noneStopping', data: { enabled: 2, actions: 'log, skip', disabled: '' } }],
    },
    {
      // vendor docs: rulesets: a disabled rule does not run.
      name: 'the only block rule is disabled',
      snapshot: zone(entrypoint(rule_('a', 'block', false), rule_('b', 'log'))),
      findings: [{ messageId: 'noneStopping', data: { enabled: 1, actions: 'log', disabled: '; 1 disabled' } }],
    },
    {
      name: 'every rule disabled',
      snapshot: zone(entrypoint(rule_('a', 'block', false))),
      findings: [{ messageId: 'noneStopping', message: 'none of the zone\'s 0 enabled custom rule(s) blocks or challenges (none enabled); 1 disabled' }],
    },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'shop.example', dnsRecords: proxied, unread: { custom_entrypoint: 'failed' as const } }] }, findings: [{ status: 'unknown' }] },
    {
      name: 'no custom rules: unknown when the DNS records were not read',
      snapshot: { zones: [{ name: 'shop.example', customEntrypoint: null, unread: { dns_records: 'failed' as const } }] },
      findings: [{ status: 'unknown', message: 'dns_records' }],
    },
  ],
});
