import { botSetting, failWhereProxied, PROXY_STATUS_REFERENCE, readBotSettings } from '../src/policy/checks/bot-products.js';
import { defineRule } from '../src/policy/rule.js';

/** The values of `ai_bots_protection` (vendor API reference: zone bot management config). */
const BLOCKED = 'block';
const DISABLED = 'disabled';
const AD_PAGES_ONLY = 'only_on_ad_pages';

export default defineRule({
  meta: {
    id: 'bot-ai-bots-not-blocked',
    title: 'AI scrapers and crawlers are blocked where the plan offers it',
    description:
      'Block AI bots (`ai_bots_protection`) is a managed rule that blocks the crawlers AI companies train and answer with, verified ones included, and scrapers that pose as browsers (vendor docs: block AI bots). The vendor offers it on every plan, and its answer carries the field where the zone has it: a zone whose answer has no `ai_bots_protection` is not offered the setting and passes as not applicable. `disabled` fails (low: the content is public anyway, so this is about who may copy it and the load they put on the origin; a team that lets AI crawlers in on purpose, for example to be found by AI search, switches the rule off). `block` passes; `only_on_ad_pages` (not offered to Enterprise zones) blocks them on the pages that show ads only, a choice the zone made: it passes with a note. Only proxied traffic meets the rule: a zone proxying nothing passes. A value the vendor has not documented is *unknown*.',
    severity: 'low',
    category: 'firewall',
    scope: 'zone',
    resource: 'bot_setting',
    reads: ['bot_management'],
    messages: {
      notBlocked: 'AI scrapers and crawlers are not blocked (ai_bots_protection: disabled): the crawlers AI companies train with may copy the zone\'s content',
      adPagesOnly: 'AI scrapers and crawlers are blocked only on pages that show ads (ai_bots_protection: only_on_ad_pages)',
    },
    remediation:
      '`PUT /zones/{zone_id}/bot_management` with `{"ai_bots_protection": "block"}` (or Security > Settings > Bot traffic > Block AI bots in the dashboard). To let some AI crawlers in, allow them in AI Crawl Control rather than turning the protection off.',
    references: [
      'vendor docs: block AI bots (blocks verified AI crawlers and unverified AI scrapers; available on all plans)',
      'vendor docs: bots, plans (Free, Pro, Business and Bot Management for Enterprise list Block AI bots)',
      'vendor API reference: zone bot management config (ai_bots_protection: block, disabled, only_on_ad_pages, the last not available to Enterprise customers)',
      PROXY_STATUS_REFERENCE,
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const bots = readBotSettings(ctx);
    if (!bots) return;
    const setting = bots.aiBotsProtection;
    // Not in the answer: the zone is not offered the setting, so there is nothing to turn on.
    if (setting === null || setting === BLOCKED) return ctx.pass();
    if (setting === AD_PAGES_ONLY) return ctx.pass(botSetting(ctx.zone.id, 'ai_bots_protection'), 'adPagesOnly');
    if (setting !== DISABLED) return ctx.unknown(ctx.zone.resource, `the bot management answer has ai_bots_protection "${setting}", which the vendor does not document`);
    failWhereProxied(ctx, [{ field: 'ai_bots_protection', messageId: 'notBlocked' }]);
  },
});
