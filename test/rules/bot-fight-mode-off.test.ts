import rule from '../../rules/bot-fight-mode-off.js';
import { dnsRecord } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: bots, plans: Free zones get Bot Fight Mode; Pro zones Super Bot Fight Mode
// (definitely automated); Business zones and Enterprise zones without Bot Management Super Bot
// Fight Mode with definitely and likely automated; Bot Management for Enterprise replaces them.
// vendor API reference: zone bot management config: fight_mode (boolean); sbfm_definitely_automated
// and sbfm_likely_automated (allow, block, managed_challenge); auto_update_model is the Bot
// Management subscription's own field.
// vendor docs: proxy status: only proxied records are served by the edge and its security features.
const proxied = [dnsRecord('A', 'shop.example', '192.0.2.10', true)];
const zone = (plan: 'free' | 'pro' | 'business' | 'enterprise' | null, botManagement: Record<string, unknown>, dnsRecords = proxied) => ({
  zones: [{ name: 'shop.example', plan, botManagement, dnsRecords }],
});

testRule(rule, {
  valid: [
    // vendor docs: Bot Fight Mode: when enabled, traffic matching known bot patterns is challenged.
    { name: 'Free: Bot Fight Mode on', snapshot: zone('free', { enable_js: true, fight_mode: true }) },
    // vendor docs: plans: Super Bot Fight Mode (Pro): the customer chooses to allow, block or challenge definitely automated traffic.
    { name: 'Pro: definitely automated challenged', snapshot: zone('pro', { sbfm_definitely_automated: 'managed_challenge', sbfm_verified_bots: 'allow' }) },
    { name: 'Pro: definitely automated blocked', snapshot: zone('pro', { sbfm_definitely_automated: 'block' }) },
    // vendor API reference: "clean up configuration for SBFM Pro plan" sets sbfm_likely_automated: likely automated is not a Pro feature, so a lingering allow is not judged.
    { name: 'Pro: a lingering likely-automated allow is not a Pro setting', snapshot: zone('pro', { sbfm_definitely_automated: 'block', sbfm_likely_automated: 'allow' }) },
    // vendor API reference: "clean up configuration for SBFM Pro plan" clears fight_mode: a Free-plan field left over is not judged on Pro.
    { name: 'Pro: a lingering fight_mode false is not judged', snapshot: zone('pro', { fight_mode: false, sbfm_definitely_automated: 'managed_challenge' }) },
    { name: 'Business: both classes challenged', snapshot: zone('business', { sbfm_definitely_automated: 'block', sbfm_likely_automated: 'managed_challenge' }) },
    // vendor docs: plans, Business footnote: Enterprise without Bot Management gets Super Bot Fight Mode as Business does.
    { name: 'Enterprise without Bot Management: both classes challenged', snapshot: zone('enterprise', { sbfm_definitely_automated: 'managed_challenge', sbfm_likely_automated: 'managed_challenge' }) },
    // vendor docs: plans: Bot Management for Enterprise replaces and disables the other bot products; its
    // mitigation is custom rules on the bot score (vendor API reference: BM subscription clean-up: custom rules in place).
    { name: 'Enterprise Bot Management: not applicable, whatever Super Bot Fight Mode fields linger', snapshot: zone('enterprise', { auto_update_model: true, suppress_session_score: false, sbfm_definitely_automated: 'allow' }) },
    // vendor docs: proxy status: a zone proxying nothing sends no traffic through the bot products.
    { name: 'Free: off, but nothing is proxied', snapshot: zone('free', { fight_mode: false }, [dnsRecord('A', 'shop.example', '192.0.2.10', false)]) },
    {
      // A passing setting needs no records: their failed read does not make it unknown.
      name: 'Pro: challenged, with the DNS records not read',
      snapshot: { zones: [{ name: 'shop.example', plan: 'pro' as const, botManagement: { sbfm_definitely_automated: 'block' }, unread: { dns_records: 'failed' as const } }] },
    },
    // Without a plan the answer's shape decides (vendor API reference: the four config shapes).
    { name: 'no plan: a Bot Fight Mode answer with it on', snapshot: zone(null, { fight_mode: true }) },
  ],
  invalid: [
    {
      // vendor docs: Bot Fight Mode off: nothing challenges known bot patterns; low, as the vendor warns it may challenge API and mobile traffic.
      name: 'Free: Bot Fight Mode off',
      snapshot: zone('free', { enable_js: true, fight_mode: false }),
      findings: [{ messageId: 'fightModeOff', severity: 'low', resourceType: 'bot_setting', resourceName: 'fight_mode' }],
    },
    {
      // vendor docs: Super Bot Fight Mode: definitely automated set to allow lets that traffic through.
      name: 'Pro: definitely automated allowed',
      snapshot: zone('pro', { sbfm_definitely_automated: 'allow' }),
      findings: [{ messageId: 'definitelyAllowed', severity: 'medium', data: { plan: 'pro' } }],
    },
    {
      name: 'Business: both classes allowed, each its own finding',
      snapshot: zone('business', { sbfm_definitely_automated: 'allow', sbfm_likely_automated: 'allow' }),
      findings: [
        { messageId: 'definitelyAllowed', severity: 'medium', resourceName: 'sbfm_definitely_automated' },
        { messageId: 'likelyAllowed', severity: 'low', resourceName: 'sbfm_likely_automated', data: { plan: 'business' } },
      ],
    },
    {
      // vendor docs: plans, Business footnote: Enterprise without Bot Management: Super Bot Fight Mode with likely automated.
      name: 'Enterprise without Bot Management: likely automated allowed',
      snapshot: zone('enterprise', { sbfm_definitely_automated: 'block', sbfm_likely_automated: 'allow' }),
      findings: [{ messageId: 'likelyAllowed', data: { plan: 'enterprise' } }],
    },
    { name: 'no plan: a Bot Fight Mode answer with it off', snapshot: zone(null, { fight_mode: false }), findings: [{ messageId: 'fightModeOff' }] },
    {
      // vendor API reference: sbfm_likely_automated belongs to the Business-level config: without a plan, its presence says which product this is.
      name: 'no plan: a Super Bot Fight Mode answer with likely automated, definitely automated allowed',
      snapshot: zone(null, { sbfm_definitely_automated: 'allow', sbfm_likely_automated: 'block' }),
      findings: [{ messageId: 'definitelyAllowed', message: 'on this zone (unknown plan)' }],
    },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'shop.example', unread: { bot_management: 'failed' as const } }] }, findings: [{ status: 'unknown' }] },
    { name: 'unknown when the answer is empty', snapshot: zone('pro', {}), findings: [{ status: 'unknown', message: 'definitely automated' }] },
    { name: 'Free: unknown when fight_mode is not a boolean', snapshot: zone('free', { fight_mode: 'on' }), findings: [{ status: 'unknown', message: 'fight_mode' }] },
    { name: 'no plan and no known field: unknown', snapshot: zone(null, { enable_js: true }), findings: [{ status: 'unknown', message: 'plan' }] },
    {
      // Whether anything is proxied decides a failure: without the records, unknown.
      name: 'Free: off, with the DNS records not read',
      snapshot: { zones: [{ name: 'shop.example', plan: 'free' as const, botManagement: { fight_mode: false }, unread: { dns_records: 'failed' as const } }] },
      findings: [{ status: 'unknown', message: 'dns_records' }],
    },
  ],
});
