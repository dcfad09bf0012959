import rule from '../../rules/bot-ai-bots-not-blocked.js';
import { dnsRecord } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: block AI bots: a managed rule that blocks verified AI crawlers and unverified AI
// scrapers, available on all plans. vendor docs: bots, plans: Free, Pro, Business and Bot
// Management for Enterprise list Block AI bots. vendor API reference: zone bot management config:
// ai_bots_protection is "block", "disabled" or "only_on_ad_pages" (the last not available to
// Enterprise customers). vendor docs: proxy status: only proxied records meet the edge's rules.
const proxied = [dnsRecord('A', 'shop.example', '192.0.2.10', true)];
const zone = (plan: 'free' | 'pro' | 'business' | 'enterprise', botManagement: Record<string, unknown>, dnsRecords = proxied) => ({
  zones: [{ name: 'shop.example', plan, botManagement, dnsRecords }],
});

testRule(rule, {
  valid: [
    // vendor API reference: the Free (Bot Fight Mode) shape carries ai_bots_protection; block blocks them.
    { name: 'Free: AI bots blocked', snapshot: zone('free', { fight_mode: true, enable_js: true, ai_bots_protection: 'block' }) },
    { name: 'Business: AI bots blocked', snapshot: zone('business', { sbfm_definitely_automated: 'block', ai_bots_protection: 'block' }) },
    { name: 'Bot Management: AI bots blocked', snapshot: zone('enterprise', { auto_update_model: true, ai_bots_protection: 'block' }) },
    // An answer without the field: the zone is not offered the setting (absent means not offered, not a failure).
    { name: 'an answer without ai_bots_protection: not offered, not applicable', snapshot: zone('pro', { sbfm_definitely_automated: 'block', enable_js: true }) },
    // vendor docs: proxy status: the rule acts on proxied traffic only.
    { name: 'disabled, but nothing is proxied', snapshot: zone('pro', { sbfm_definitely_automated: 'block', ai_bots_protection: 'disabled' }, [dnsRecord('A', 'shop.example', '192.0.2.10', false)]) },
    {
      name: 'blocked, with the DNS records not read',
      snapshot: { zones: [{ name: 'shop.example', plan: 'free' as const, botManagement: { fight_mode: true, ai_bots_protection: 'block' }, unread: { dns_records: 'failed' as const } }] },
    },
    {
      // vendor API reference: only_on_ad_pages blocks them on pages with ads only: a choice the zone made; it passes with a note.
      name: 'Business: only on ad pages passes with a note',
      snapshot: zone('business', { sbfm_definitely_automated: 'block', ai_bots_protection: 'only_on_ad_pages' }),
      notes: [{ messageId: 'adPagesOnly', resourceType: 'bot_setting', resourceName: 'ai_bots_protection' }],
    },
  ],
  invalid: [
    {
      // vendor API reference: ai_bots_protection "disabled": the AI bots rule does not run.
      name: 'Free: disabled',
      snapshot: zone('free', { fight_mode: true, enable_js: true, ai_bots_protection: 'disabled' }),
      findings: [{ messageId: 'notBlocked', severity: 'low', resourceType: 'bot_setting', resourceName: 'ai_bots_protection', data: { field: 'ai_bots_protection' } }],
    },
    { name: 'Pro: disabled', snapshot: zone('pro', { sbfm_definitely_automated: 'block', ai_bots_protection: 'disabled' }), findings: [{ messageId: 'notBlocked' }] },
    { name: 'Bot Management: disabled', snapshot: zone('enterprise', { auto_update_model: true, ai_bots_protection: 'disabled' }), findings: [{ messageId: 'notBlocked' }] },
    { name: 'a value the vendor does not document: unknown', snapshot: zone('pro', { ai_bots_protection: 'challenge' }), findings: [{ status: 'unknown', message: '"challenge"' }] },
    { name: 'unknown when the read was denied', snapshot: { zones: [{ name: 'shop.example', plan: 'pro' as const, unread: { bot_management: 'denied' as const } }] }, findings: [{ status: 'unknown' }] },
    {
      name: 'disabled, with the DNS records not read',
      snapshot: { zones: [{ name: 'shop.example', plan: 'pro' as const, botManagement: { ai_bots_protection: 'disabled' }, unread: { dns_records: 'failed' as const } }] },
      findings: [{ status: 'unknown', message: 'dns_records' }],
    },
  ],
});
