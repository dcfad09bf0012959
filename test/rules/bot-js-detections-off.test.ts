import rule from '../../rules/bot-js-detections-off.js';
import botFightModeOff from '../../rules/bot-fight-mode-off.js';
import { dnsRecord } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: JavaScript detections: for Free customers (Bot Fight Mode) they are automatically
// enabled and cannot be disabled; for Super Bot Fight Mode and Bot Management for Enterprise they
// are optional. vendor docs: bots, plans: Pro, Business and Bot Management for Enterprise list
// JavaScript Detections among their features. vendor API reference: zone bot management config:
// enable_js (boolean) in every configuration shape; auto_update_model marks the Bot Management
// subscription's shape. vendor docs: proxy status: only proxied records meet the edge's bot products.
const proxied = [dnsRecord('A', 'shop.example', '192.0.2.10', true)];
const zone = (plan: 'free' | 'pro' | 'business' | 'enterprise' | null, botManagement: Record<string, unknown>, dnsRecords = proxied) => ({
  zones: [{ name: 'shop.example', plan, botManagement, dnsRecords }],
});
const SBFM_BLOCKING = { sbfm_definitely_automated: 'block', sbfm_likely_automated: 'managed_challenge' };
const BM = { auto_update_model: true, suppress_session_score: false, using_latest_model: true };

testRule(rule, {
  valid: [
    // vendor docs: JavaScript detections: optional on Super Bot Fight Mode, here on.
    { name: 'Business: JavaScript detections on', snapshot: zone('business', { ...SBFM_BLOCKING, enable_js: true }) },
    { name: 'Pro: JavaScript detections on', snapshot: zone('pro', { sbfm_definitely_automated: 'managed_challenge', enable_js: true }) },
    { name: 'Bot Management: JavaScript detections on', snapshot: zone('enterprise', { ...BM, enable_js: true }) },
    // vendor docs: JavaScript detections: always on with Bot Fight Mode and cannot be disabled, so the answer's enable_js is not the zone's choice.
    { name: 'Free: not applicable, whatever enable_js says', snapshot: zone('free', { fight_mode: true, enable_js: false }) },
    // vendor docs: proxy status: JavaScript is injected into proxied HTML responses only.
    { name: 'Business: off, but nothing is proxied', snapshot: zone('business', { ...SBFM_BLOCKING, enable_js: false }, [dnsRecord('A', 'shop.example', '192.0.2.10', false)]) },
    // A passing setting needs no records: their failed read does not make it unknown.
    {
      name: 'Pro: on, with the DNS records not read',
      snapshot: { zones: [{ name: 'shop.example', plan: 'pro' as const, botManagement: { sbfm_definitely_automated: 'block', enable_js: true }, unread: { dns_records: 'failed' as const } }] },
    },
  ],
  invalid: [
    {
      // vendor docs: JavaScript detections: optional on Super Bot Fight Mode; off, the detection does without them.
      name: 'Business: off while Super Bot Fight Mode acts on bots',
      snapshot: zone('business', { ...SBFM_BLOCKING, enable_js: false }),
      findings: [{ messageId: 'off', severity: 'low', resourceType: 'bot_setting', resourceName: 'enable_js', data: { product: 'Super Bot Fight Mode', field: 'enable_js' } }],
    },
    {
      // vendor docs: JavaScript detections: optional for Bot Management for Enterprise.
      name: 'Bot Management: off',
      snapshot: zone('enterprise', { ...BM, enable_js: false }),
      findings: [{ messageId: 'off', message: '(Bot Management for Enterprise)' }],
    },
    {
      // vendor docs: plans, Business footnote: Enterprise without Bot Management has Super Bot Fight Mode.
      name: 'Enterprise without Bot Management: off',
      snapshot: zone('enterprise', { ...SBFM_BLOCKING, enable_js: false }),
      findings: [{ messageId: 'off', data: { product: 'Super Bot Fight Mode' } }],
    },
    {
      // Only part of the traffic allowed: the detections still feed the class that is challenged.
      name: 'Business: off, likely automated allowed but definitely automated blocked',
      snapshot: zone('business', { sbfm_definitely_automated: 'block', sbfm_likely_automated: 'allow', enable_js: false }),
      findings: [{ messageId: 'off' }],
    },
    {
      // One problem, one finding: bot-fight-mode-off is not audited here (it does not run), so the finding is this rule's.
      name: 'Pro: off, Super Bot Fight Mode allowing everything, bot-fight-mode-off not running',
      snapshot: zone('pro', { sbfm_definitely_automated: 'allow', enable_js: false }),
      findings: [{ messageId: 'off' }],
    },
    {
      // One problem, one finding: Super Bot Fight Mode letting every class through is bot-fight-mode-off's; it says it, this rule does not.
      name: 'Pro: off, Super Bot Fight Mode allowing everything: left to bot-fight-mode-off',
      alongside: [botFightModeOff],
      snapshot: zone('pro', { sbfm_definitely_automated: 'allow', enable_js: false }),
      findings: [{ rule: 'bot-fight-mode-off', messageId: 'definitelyAllowed' }],
    },
    {
      name: 'Business: off, both classes allowed: left to bot-fight-mode-off',
      alongside: [botFightModeOff],
      snapshot: zone('business', { sbfm_definitely_automated: 'allow', sbfm_likely_automated: 'allow', enable_js: false }),
      findings: [{ rule: 'bot-fight-mode-off', messageId: 'definitelyAllowed' }, { rule: 'bot-fight-mode-off', messageId: 'likelyAllowed' }],
    },
    {
      // As above with bot-fight-mode-off switched off: nothing else says it, so this rule does.
      name: 'Pro: off, allowing everything, bot-fight-mode-off disabled: reported here',
      alongside: [botFightModeOff],
      settingsOf: { 'bot-fight-mode-off': { enabled: false } },
      snapshot: zone('pro', { sbfm_definitely_automated: 'allow', enable_js: false }),
      findings: [{ messageId: 'off' }],
    },
    { name: 'unknown when not read (a denied read)', snapshot: { zones: [{ name: 'shop.example', plan: 'pro' as const, unread: { bot_management: 'denied' as const } }] }, findings: [{ status: 'unknown' }] },
    { name: 'unknown when enable_js is missing', snapshot: zone('business', SBFM_BLOCKING), findings: [{ status: 'unknown', message: 'enable_js' }] },
    { name: 'no plan and no known field: unknown', snapshot: zone(null, { enable_js: false }), findings: [{ status: 'unknown', message: 'plan' }] },
    {
      // Whether anything is proxied decides a failure: without the records, unknown.
      name: 'Business: off, with the DNS records not read',
      snapshot: { zones: [{ name: 'shop.example', plan: 'business' as const, botManagement: { ...SBFM_BLOCKING, enable_js: false }, unread: { dns_records: 'failed' as const } }] },
      findings: [{ status: 'unknown', message: 'dns_records' }],
    },
  ],
});
