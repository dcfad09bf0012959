import { bool, parseJson, str } from '../fields.js';

/**
 * `GET /zones/{id}/bot_management`, parsed defensively: one of four shapes by plan (vendor API reference, bot
 * management config), whose fields can linger after a plan change (see botProductOf).
 */
export interface BotManagement {
  fightMode: boolean | null;
  /** `allow`, `block` or `managed_challenge`. */
  definitelyAutomated: string | null;
  likelyAutomated: string | null;
  verifiedBots: string | null;
  /** The answer carries the Bot Management subscription's own field (`auto_update_model`). */
  subscription: boolean;
  /** JavaScript detections (`enable_js`); null when the answer does not say. */
  enableJs: boolean | null;
  /** Block AI bots (`ai_bots_protection`: `block`, `disabled`, `only_on_ad_pages`); null where the answer does not carry it (not offered). */
  aiBotsProtection: string | null;
  /** Bot Management only: the zone follows the vendor's newest detection model (`auto_update_model`). */
  autoUpdateModel: boolean | null;
  /** Read-only: the zone runs the newest detection model (`using_latest_model`); null when the answer does not say. */
  usingLatestModel: boolean | null;
}

export function parseBotManagement(raw: string): BotManagement {
  const b = parseJson(raw);
  return {
    fightMode: bool(b['fight_mode']),
    definitelyAutomated: str(b['sbfm_definitely_automated']),
    likelyAutomated: str(b['sbfm_likely_automated']),
    verifiedBots: str(b['sbfm_verified_bots']),
    subscription: b['auto_update_model'] !== undefined && b['auto_update_model'] !== null,
    enableJs: bool(b['enable_js']),
    aiBotsProtection: str(b['ai_bots_protection']),
    autoUpdateModel: bool(b['auto_update_model']),
    usingLatestModel: bool(b['using_latest_model']),
  };
}

/**
 * The bot product each plan comes with (vendor docs: bots, plans): Bot Fight Mode (Free), Super Bot Fight Mode for
 * definitely automated traffic (Pro), likely too (Business, Enterprise without the add-on), Bot Management (the add-on).
 */
export type BotProduct = 'bfm' | 'sbfm-pro' | 'sbfm-likely' | 'bm';

/**
 * The zone's bot product, by its plan: fields of another can linger after a plan change (vendor API reference: the
 * "clean up configuration" bodies). On Enterprise, or without a plan, the answer's own fields decide.
 */
export function botProductOf(plan: string | null, bots: BotManagement): BotProduct | null {
  if (plan === 'free') return 'bfm';
  if (plan === 'pro') return 'sbfm-pro';
  if (plan === 'business') return 'sbfm-likely';
  if (bots.subscription) return 'bm';
  if (plan === 'enterprise') return 'sbfm-likely';
  if (bots.likelyAutomated !== null) return 'sbfm-likely';
  if (bots.definitelyAutomated !== null) return 'sbfm-pro';
  return bots.fightMode !== null ? 'bfm' : null;
}

/**
 * Super Bot Fight Mode lets every class of automated traffic its plan acts on through (`allow`):
 * what bot-fight-mode-off reports. Better detection changes nothing while that is so.
 */
export function superBotFightModeAllowsAll(product: BotProduct, bots: BotManagement): boolean {
  if (product !== 'sbfm-pro' && product !== 'sbfm-likely') return false;
  if (bots.definitelyAutomated !== 'allow') return false;
  return product === 'sbfm-pro' || bots.likelyAutomated === 'allow';
}
