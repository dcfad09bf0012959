import { failWhereProxied, PROXY_STATUS_REFERENCE, readBotProduct } from '../src/policy/checks/bot-products.js';
import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'bot-model-auto-update-off',
    title: 'Bot Management follows the newest detection model',
    description:
      'Bot Management for Enterprise scores requests with a machine learning model the vendor retrains and releases as traffic and bots change; `auto_update_model` moves the zone to each new model when it becomes the default, and the vendor encourages it: a zone left on an older model uses one its engineers no longer maintain or monitor, and its scores drift from what bots do today (vendor docs: machine learning models). Auto-updates off fails: medium when the answer says the zone already runs an older model (`using_latest_model: false`), low while it is still on the newest one (it falls behind at the next release). Only Bot Management zones have the setting: Free, Pro, Business and Enterprise zones without the add-on pass as not applicable, their bot products use the vendor\'s model as it is. Only proxied traffic is scored: a zone proxying nothing passes.',
    severity: 'low',
    category: 'firewall',
    scope: 'zone',
    resource: 'bot_setting',
    reads: ['bot_management'],
    messages: {
      offOlderModel: 'Bot Management\'s model auto-updates are off (auto_update_model: false) and the zone runs an older model (using_latest_model: false): its bot scores come from a model the vendor no longer maintains',
      off: 'Bot Management\'s model auto-updates are off (auto_update_model: false): the zone will stay on today\'s model when the vendor releases a newer one',
    },
    remediation:
      '`PUT /zones/{zone_id}/bot_management` with `{"auto_update_model": true}` (or Security > Settings > Bot traffic > Bot Management > Auto-updates to the Machine Learning Model). Scores from the machine learning source change at once when the zone was on an older model: review the custom rules that act on `cf.bot_management.score` after switching.',
    references: [
      'vendor docs: machine learning models (the vendor encourages Enterprise customers to enable auto-updates; an older model is no longer maintained or monitored; scores change at once when moving from an older model)',
      'vendor API reference: zone bot management config (auto_update_model in the Bot Management subscription configuration; using_latest_model, read-only)',
      'vendor docs: bots, plans (Bot Management for Enterprise)',
      PROXY_STATUS_REFERENCE,
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const read = readBotProduct(ctx);
    if (!read) return;
    const { bots, product } = read;
    // The setting is the Bot Management subscription's own field: other products use the vendor's model as it is.
    if (product !== 'bm') return ctx.pass();
    if (bots.autoUpdateModel === null) return ctx.unknown(ctx.zone.resource, 'the bot management answer does not say whether the model is updated automatically (auto_update_model is not a boolean)');
    if (bots.autoUpdateModel) return ctx.pass();
    const older = bots.usingLatestModel === false;
    failWhereProxied(ctx, [{ field: 'auto_update_model', messageId: older ? 'offOlderModel' : 'off', severity: older ? 'medium' : 'low' }]);
  },
});
