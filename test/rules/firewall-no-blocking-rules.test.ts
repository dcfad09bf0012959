import rule from '../../rules/firewall-no-blocking-rules.js';
import { dnsRecord, firewall, type Item } from '../support/snapshot-fixture.js';
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

// vendor docs: Firewall rules upgrade: the vendor upgraded firewall rules into custom rules with the
// same protection; the firewall rules API (API spec: firewall rule `action`, `paused`, its filter's
// `paused`) still answers for them. The peer's own cases (Prowler, zone_firewall_blocking_rules_configured)
// are zones whose firewall rules block and challenge, and no custom rules entry point.
const withFirewall = (fw: ReturnType<typeof firewall>, customEntrypoint: Item | null = null) => ({ zones: [{ name: 'shop.example', customEntrypoint, dnsRecords: proxied, ...fw }] });
const blockAndChallenge = firewall([
  { expression: 'ip.src in {198.51.100.0/24}', action: 'block', description: 'Block bad actors' },
  { expression: 'cf.threat_score gt 14', action: 'challenge', description: 'Challenge suspicious' },
]);
/** The same firewall rule as the firewall rules API and the custom rules entry point show it after the upgrade. */
const upgraded = firewall([{ expression: 'http.request.uri.path contains "/wp-login.php"', action: 'block', paused: true }]);
const upgradedRule = upgraded.firewallRules[0]!;
const asCustomRule = (over: Item): Item => ({ action: 'block', expression: 'http.request.uri.path contains "/wp-login.php"', description: '', enabled: false, ...over });

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
    // vendor docs: Firewall rules upgrade: firewall rules that block and challenge protect as custom rules do.
    { name: 'active firewall rules that block and challenge, no custom rules', snapshot: withFirewall(blockAndChallenge) },
    { name: 'a JS challenge firewall rule beside a log custom rule', snapshot: withFirewall(firewall([{ expression: 'ip.geoip.country eq "T1"', action: 'js_challenge' }]), entrypoint(rule_('a', 'log'))) },
    { name: 'a managed challenge firewall rule', snapshot: withFirewall(firewall([{ expression: 'ip.geoip.country eq "T1"', action: 'managed_challenge' }])) },
    // A blocking custom rule decides alone: firewall rules not read do not make it unknown.
    { name: 'a block custom rule, the firewall rules not read', snapshot: { zones: [{ name: 'shop.example', customEntrypoint: entrypoint(rule_('a', 'block')), dnsRecords: proxied, unread: { firewall_rules: 'failed' as const } }] } },
    // vendor docs: Firewall rules upgrade: a retired firewall rules API (410) holds nothing beyond the custom rules, which decide.
    { name: 'the firewall rules API retired, a challenge custom rule', snapshot: { zones: [{ name: 'shop.example', customEntrypoint: entrypoint(rule_('a', 'challenge')), dnsRecords: proxied, unread: { firewall_rules: 'retired' as const } }] } },
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
      findings: [{ messageId: 'noneStopping', data: { enabled: 2, active: 0, actions: 'log, skip', disabled: '' } }],
    },
    {
      // vendor docs: rulesets: a disabled rule does not run.
      name: 'the only block rule is disabled',
      snapshot: zone(entrypoint(rule_('a', 'block', false), rule_('b', 'log'))),
      findings: [{ messageId: 'noneStopping', data: { enabled: 1, active: 0, actions: 'log', disabled: '; 1 custom rule(s) disabled' } }],
    },
    {
      name: 'every rule disabled',
      snapshot: zone(entrypoint(rule_('a', 'block', false))),
      findings: [{ messageId: 'noneStopping', message: 'none of the zone\'s 0 enabled custom rule(s) and 0 active firewall rule(s) blocks or challenges (none enabled); 1 custom rule(s) disabled' }],
    },
    // The peer's case of a zone whose only firewall rule logs: log lets the request through (vendor docs: actions).
    { name: 'an active firewall rule that only logs', snapshot: withFirewall(firewall([{ expression: 'ip.src eq 192.0.2.7', action: 'log' }])), findings: [{ messageId: 'noneStopping', data: { enabled: 0, active: 1, actions: 'log', disabled: '' } }] },
    // API spec: a paused firewall rule, or one whose filter is paused or deleted, does not run.
    {
      name: 'blocking firewall rules that are paused or whose filter does not run',
      snapshot: withFirewall(
        firewall([
          { expression: 'ip.src eq 192.0.2.8', action: 'block', paused: true },
          { expression: 'ip.src eq 192.0.2.9', action: 'challenge', filterPaused: true },
          { expression: 'ip.src eq 192.0.2.10', action: 'block', filterDeleted: true },
        ]),
      ),
      findings: [{ messageId: 'noneStopping', data: { enabled: 0, active: 0, actions: 'none enabled', disabled: '; 3 firewall rule(s) paused or without a running filter' } }],
    },
    // vendor docs: Firewall rules upgrade: the firewall rules API shows the custom rules it became; one
    // rule met in both lists is counted once (the custom rule: here disabled), matched by id, by ref, or by action and expression.
    {
      name: 'an upgraded rule listed by both APIs, by the same id',
      snapshot: withFirewall({ ...upgraded, firewallRules: [{ ...upgradedRule, paused: false }] }, entrypoint(asCustomRule({ id: upgradedRule['id'] }))),
      findings: [{ messageId: 'noneStopping', data: { enabled: 0, active: 0, disabled: '; 1 custom rule(s) disabled' } }],
    },
    {
      name: 'an upgraded rule listed by both APIs, the custom rule naming it in ref',
      snapshot: withFirewall({ ...upgraded, firewallRules: [{ ...upgradedRule, paused: false }] }, entrypoint(asCustomRule({ id: 'c1', ref: upgradedRule['id'], expression: 'true' }))),
      findings: [{ messageId: 'noneStopping', data: { enabled: 0, active: 0, disabled: '; 1 custom rule(s) disabled' } }],
    },
    {
      name: 'an upgraded rule listed by both APIs, by the same action and expression',
      snapshot: withFirewall(upgraded, entrypoint(asCustomRule({ id: 'c2' }))),
      findings: [{ messageId: 'noneStopping', data: { enabled: 0, active: 0, disabled: '; 1 custom rule(s) disabled' } }],
    },
    // "Unreadable is not failing": firewall rules not read may hold a blocking rule.
    {
      name: 'no blocking custom rule, the firewall rules not read',
      snapshot: { zones: [{ name: 'shop.example', customEntrypoint: entrypoint(rule_('a', 'log')), dnsRecords: proxied, unread: { firewall_rules: 'denied' as const } }] },
      findings: [{ status: 'unknown', message: 'the firewall rules were not read' }],
    },
    // vendor docs: Firewall rules upgrade: with the API retired (410), the custom rules decide.
    {
      name: 'the firewall rules API retired, only a log custom rule',
      snapshot: { zones: [{ name: 'shop.example', customEntrypoint: entrypoint(rule_('a', 'log')), dnsRecords: proxied, unread: { firewall_rules: 'retired' as const } }] },
      findings: [{ messageId: 'noneStopping', data: { enabled: 1, active: 0 } }],
    },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'shop.example', dnsRecords: proxied, unread: { custom_entrypoint: 'failed' as const } }] }, findings: [{ status: 'unknown' }] },
    {
      name: 'no custom rules: unknown when the DNS records were not read',
      snapshot: { zones: [{ name: 'shop.example', customEntrypoint: null, unread: { dns_records: 'failed' as const } }] },
      findings: [{ status: 'unknown', message: 'dns_records' }],
    },
  ],
});
