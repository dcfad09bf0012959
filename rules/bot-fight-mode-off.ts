import { defineRule } from '../src/policy/rule.js';
import type { BotManagement } from '../src/policy/security-models.js';

/** The bot product each plan comes with (vendor docs: bot plans). */
type Product = 'bfm' | 'sbfm-pro' | 'sbfm-likely' | 'bm';

/**
 * Free zones get Bot Fight Mode, Pro zones Super Bot Fight Mode for definitely automated traffic,
 * Business zones and Enterprise zones without the Bot Management add-on Super Bot Fight Mode for
 * likely automated traffic too; Bot Management for Enterprise replaces the others (vendor docs: bot
 * plans, Business and Enterprise footnote). Fields of another product can linger after a plan
 * change (vendor API reference: "clean up configuration" bodies), so the plan decides which to read.
 * Without a plan, the answer's own fields decide.
 */
function productOf(plan: string | null, bots: BotManagement): Product | null {
  if (plan === 'free') return 'bfm';
  if (plan === 'pro') return 'sbfm-pro';
  if (plan === 'business') return 'sbfm-likely';
  if (bots.subscription) return 'bm';
  if (plan === 'enterprise') return 'sbfm-likely';
  if (bots.likelyAutomated !== null) return 'sbfm-likely';
  if (bots.definitelyAutomated !== null) return 'sbfm-pro';
  return bots.fightMode !== null ? 'bfm' : null;
}

/** One bot setting of the zone as findings point at it: each finding keeps its own fingerprint. */
const ref = (zoneId: string, field: string) => ({ type: 'bot_setting', id: `${zoneId}/${field}`, name: field });

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
      'vendor docs: proxy status (DNS-only records bypass the edge\'s security features)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const read = ctx.zone.botManagement();
    if (!read.known) return ctx.unknown(ctx.zone.resource, read.reason);
    if (!read.value) return ctx.unknown(ctx.zone.resource, 'the bot management endpoint answered with no settings');
    const bots = read.value;
    const plan = ctx.zone.plan;
    const product = productOf(plan, bots);
    if (product === null) return ctx.unknown(ctx.zone.resource, 'the bot management answer carries none of the fields of a bot product and the zone\'s plan is not known');
    // vendor docs: Bot Management for Enterprise: mitigation is written as custom rules on the bot score; nothing here to judge.
    if (product === 'bm') return ctx.pass();

    const findings: Array<[field: string, messageId: string, severity: 'low' | 'medium']> = [];
    if (product === 'bfm') {
      if (bots.fightMode === null) return ctx.unknown(ctx.zone.resource, 'the bot management answer does not say whether Bot Fight Mode is on (fight_mode)');
      if (!bots.fightMode) findings.push(['fight_mode', 'fightModeOff', 'low']);
    } else {
      if (bots.definitelyAutomated === null) return ctx.unknown(ctx.zone.resource, 'the bot management answer does not say what Super Bot Fight Mode does with definitely automated traffic');
      if (bots.definitelyAutomated === 'allow') findings.push(['sbfm_definitely_automated', 'definitelyAllowed', 'medium']);
      // Likely automated comes with Business and above; an answer without it says nothing to fail on.
      if (product === 'sbfm-likely' && bots.likelyAutomated === 'allow') findings.push(['sbfm_likely_automated', 'likelyAllowed', 'low']);
    }
    if (findings.length === 0) return ctx.pass();
    // The bot products act on proxied traffic only: a zone that proxies nothing has nothing for them to act on.
    const proxies = ctx.zone.proxiesTraffic();
    if (!proxies.known) return ctx.unknown(ctx.zone.resource, proxies.reason);
    if (!proxies.value) return ctx.pass();
    for (const [field, messageId, severity] of findings) ctx.fail(ref(ctx.zone.id, field), messageId, { plan: plan ?? 'unknown', field }, severity);
  },
});
