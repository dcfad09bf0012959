import rule from '../../rules/bot-model-auto-update-off.js';
import { dnsRecord } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: machine learning models: the vendor encourages Enterprise customers to enable
// auto-updates to its models; a zone on an older model uses one no longer maintained or monitored.
// vendor API reference: zone bot management config: auto_update_model belongs to the Bot
// Management subscription's shape; using_latest_model (read-only) says whether the zone runs the
// latest model. vendor docs: bots, plans: Bot Management for Enterprise replaces the other products.
// vendor docs: proxy status: only proxied records meet the edge's bot detection.
const proxied = [dnsRecord('A', 'shop.example', '192.0.2.10', true)];
const zone = (plan: 'free' | 'pro' | 'business' | 'enterprise' | null, botManagement: Record<string, unknown>, dnsRecords = proxied) => ({
  zones: [{ name: 'shop.example', plan, botManagement, dnsRecords }],
});

testRule(rule, {
  valid: [
    { name: 'Bot Management: auto-updates on', snapshot: zone('enterprise', { auto_update_model: true, using_latest_model: true, enable_js: true }) },
    // vendor docs: bots, plans: only Bot Management for Enterprise has the setting.
    { name: 'Free: not applicable', snapshot: zone('free', { fight_mode: true, using_latest_model: true }) },
    { name: 'Business: not applicable', snapshot: zone('business', { sbfm_definitely_automated: 'block', suppress_session_score: false, using_latest_model: true }) },
    { name: 'Enterprise without Bot Management: not applicable', snapshot: zone('enterprise', { sbfm_definitely_automated: 'block', sbfm_likely_automated: 'block' }) },
    // vendor API reference: "clean up configuration" bodies: a field of another product can linger after a plan change; the plan decides.
    { name: 'Business: a lingering auto_update_model false is not judged', snapshot: zone('business', { sbfm_definitely_automated: 'block', auto_update_model: false }) },
    { name: 'Bot Management: off, but nothing is proxied', snapshot: zone('enterprise', { auto_update_model: false }, [dnsRecord('A', 'shop.example', '192.0.2.10', false)]) },
  ],
  invalid: [
    {
      // vendor docs: machine learning models: without auto-updates the zone stays on today's model when a newer one is released.
      name: 'Bot Management: off, still on the latest model',
      snapshot: zone('enterprise', { auto_update_model: false, using_latest_model: true }),
      findings: [{ messageId: 'off', severity: 'low', resourceType: 'bot_setting', resourceName: 'auto_update_model' }],
    },
    {
      // vendor docs: machine learning models, risks of not updating: a model no longer maintained or monitored.
      name: 'Bot Management: off, on an older model',
      snapshot: zone('enterprise', { auto_update_model: false, using_latest_model: false }),
      findings: [{ messageId: 'offOlderModel', severity: 'medium' }],
    },
    { name: 'Bot Management: off, the answer silent on the model in use', snapshot: zone('enterprise', { auto_update_model: false }), findings: [{ messageId: 'off', severity: 'low' }] },
    // Without a plan, the subscription's own field says Bot Management.
    { name: 'no plan: a Bot Management answer with auto-updates off', snapshot: zone(null, { auto_update_model: false, using_latest_model: false }), findings: [{ messageId: 'offOlderModel' }] },
    { name: 'unknown when the read was denied', snapshot: { zones: [{ name: 'shop.example', plan: 'enterprise' as const, unread: { bot_management: 'denied' as const } }] }, findings: [{ status: 'unknown' }] },
    { name: 'unknown when auto_update_model is not a boolean', snapshot: zone('enterprise', { auto_update_model: 'no' }), findings: [{ status: 'unknown', message: 'auto_update_model' }] },
    {
      name: 'Bot Management: off, with the DNS records not read',
      snapshot: { zones: [{ name: 'shop.example', plan: 'enterprise' as const, botManagement: { auto_update_model: false }, unread: { dns_records: 'failed' as const } }] },
      findings: [{ status: 'unknown', message: 'dns_records' }],
    },
  ],
});
