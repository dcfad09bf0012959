import { failWhereProxied, PROXY_STATUS_REFERENCE, readBotProduct, type BotFailure } from '../src/policy/checks/bot-products.js';
import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'bot-fight-mode-off',
    title: 'The plan\'s bot protection challenges or blocks automated traffic',
    description:
      'Every plan comes with a domain-wide bot product, judged by what the zone\'s plan offers. Free: Bot Fight Mode (`fight_mode`), off means requests matching known bot patterns reach the origin unchallenged (low: the vendor warns it may challenge API and mobile app traffic and it cannot be skipped, so turning it off can be deliberate). Pro: Super Bot Fight Mode allowing definitely automated traffic (`sbfm_definitely_automated: allow`) lets the traffic the vendor is surest is a bot through (medium: unlike Bot Fight Mode it can be skipped for the paths that need it). Business, and Enterprise without Bot Management: also likely automated traffic allowed (`sbfm_likely_automated: allow`, low: it is where false positives are). Bot Management for Enterprise replaces these products and acts only through the custom rules that use its bot score, which this rule does not judge: such zones pass as not applicable. Only proxied traffic meets the bot products: a zone proxying nothing passes.',
    severity: 'medium',
    category: 'firewall',
    scope: 'zone',
    resource: 'bot_setting',
    reads: ['bot_management'],
    messages: {
      fightModeOff: 'Bot Fight Mode is off: requests matching known bot patterns reach the origin unchallenged',
      definitelyAllowed: 'Super Bot Fight Mode allows definitely automated traffic (sbfm_definitely_automated: allow) on this zone ({{plan}} plan): requests the vendor is surest come from bots are let through',
      likelyAllowed: 'Super Bot Fight Mode allows likely automated traffic (sbfm_likely_automated: allow) on this zone ({{plan}} plan)',
    },
    remediation:
      'Free: `PUT /zones/{zone_id}/bot_management` with `{"fight_mode": true}`. Pro and above: `PUT /zones/{zone_id}/bot_management` with `{"sbfm_definitely_automated": "managed_challenge"}` (or `"block"`), and on Business and Enterprise `"sbfm_likely_automated": "managed_challenge"`; exempt API or partner paths with a custom rule that skips Super Bot Fight Mode rather than allowing all automated traffic.',
    references: [
      'vendor docs: bots, plans (Free: Bot Fight Mode; Pro: Super Bot Fight Mode, definitely automated; Business and Enterprise without Bot Management: definitely and likely automated; Bot Management for Enterprise replaces and disables the other bot products)',
      'vendor docs: Bot Fight Mode (challenges traffic matching known bot patterns; may challenge API or mobile traffic; cannot be skipped by WAF custom rules, Super Bot Fight Mode can)',
      'vendor API reference: zone bot management config (fight_mode; sbfm_definitely_automated, sbfm_likely_automated: allow, block, managed_challenge; auto_update_model for the Bot Management subscription)',
      PROXY_STATUS_REFERENCE,
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const read = readBotProduct(ctx);
    if (!read) return;
    const { bots, product } = read;
    const plan = ctx.zone.plan;
    // vendor docs: Bot Management for Enterprise: mitigation is written as custom rules on the bot score; nothing here to judge.
    if (product === 'bm') return ctx.pass();

    const failures: BotFailure[] = [];
    const data = { plan: plan ?? 'unknown' };
    if (product === 'bfm') {
      if (bots.fightMode === null) return ctx.unknown(ctx.zone.resource, 'the bot management answer does not say whether Bot Fight Mode is on (fight_mode)');
      if (!bots.fightMode) failures.push({ field: 'fight_mode', messageId: 'fightModeOff', data, severity: 'low' });
    } else {
      if (bots.definitelyAutomated === null) return ctx.unknown(ctx.zone.resource, 'the bot management answer does not say what Super Bot Fight Mode does with definitely automated traffic');
      if (bots.definitelyAutomated === 'allow') failures.push({ field: 'sbfm_definitely_automated', messageId: 'definitelyAllowed', data, severity: 'medium' });
      // Likely automated comes with Business and above; an answer without it says nothing to fail on.
      if (product === 'sbfm-likely' && bots.likelyAutomated === 'allow') failures.push({ field: 'sbfm_likely_automated', messageId: 'likelyAllowed', data, severity: 'low' });
    }
    failWhereProxied(ctx, failures);
  },
});
