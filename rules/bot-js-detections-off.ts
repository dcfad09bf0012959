import { failWhereProxied, PROXY_STATUS_REFERENCE, readBotProduct } from '../src/policy/checks/bot-products.js';
import { superBotFightModeAllowsAll } from '../src/cloudflare/bot-management/bot-management.js';
import { defineRule } from '../src/policy/rule.js';

const BOT_FIGHT_MODE_OFF = 'bot-fight-mode-off';

export default defineRule({
  meta: {
    id: 'bot-js-detections-off',
    title: 'JavaScript detections help the bot products tell browsers from bots',
    description:
      'JavaScript detections inject a small invisible script into HTML pages whose outcome helps the vendor\'s bot detection tell real browsers from headless ones and other automation (vendor docs: JavaScript detections). On Free zones (Bot Fight Mode) they are always on and cannot be turned off, so those zones pass as not applicable. On Super Bot Fight Mode (Pro, Business, Enterprise without Bot Management) and Bot Management for Enterprise they are optional, and the vendor lists them among each plan\'s features: `enable_js: false` fails (low: detection is weaker, and on Bot Management the `cf.bot_management.js_detection.passed` field custom rules use has nothing to say; API and mobile traffic is not affected either way). One problem, one finding: a Super Bot Fight Mode zone that lets every class of automated traffic through is bot-fight-mode-off\'s finding where that rule runs (better detection changes nothing until the action does). Only proxied traffic meets the bot products: a zone proxying nothing passes. An answer that does not say whether the detections are on is *unknown*.',
    severity: 'low',
    category: 'firewall',
    scope: 'zone',
    resource: 'bot_setting',
    reads: ['bot_management'],
    messages: {
      off: 'JavaScript detections are off (enable_js: false) on this zone ({{product}}): the bot detection does without the browser signals they collect',
    },
    remediation:
      '`PUT /zones/{zone_id}/bot_management` with `{"enable_js": true}` (or Security > Settings > Bot traffic > JavaScript detections in the dashboard). With Bot Management, enforce the result where browsers are expected with a custom rule on `cf.bot_management.js_detection.passed` and the managed challenge action.',
    references: [
      'vendor docs: JavaScript detections (always on for Free zones with Bot Fight Mode; optional for Super Bot Fight Mode and Bot Management for Enterprise; injected in HTML responses only, API and mobile traffic unaffected; cf.bot_management.js_detection.passed)',
      'vendor docs: bots, plans (Pro, Business and Bot Management for Enterprise list JavaScript Detections among their features)',
      'vendor API reference: zone bot management config (enable_js in every configuration shape)',
      PROXY_STATUS_REFERENCE,
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const read = readBotProduct(ctx);
    if (!read) return;
    const { bots, product } = read;
    // vendor docs: JavaScript detections: always on with Bot Fight Mode, whatever the answer's enable_js says.
    if (product === 'bfm') return ctx.pass();
    if (bots.enableJs === null) return ctx.unknown(ctx.zone.resource, 'the bot management answer does not say whether JavaScript detections are on (enable_js)');
    if (bots.enableJs) return ctx.pass();
    // One problem, one finding: while Super Bot Fight Mode allows every class it acts on, that is the finding to fix first.
    if (superBotFightModeAllowsAll(product, bots) && ctx.runs(BOT_FIGHT_MODE_OFF)) return ctx.pass();
    const name = product === 'bm' ? 'Bot Management for Enterprise' : 'Super Bot Fight Mode';
    failWhereProxied(ctx, [{ field: 'enable_js', messageId: 'off', data: { product: name } }]);
  },
});
