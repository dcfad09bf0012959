/**
 * What the bot rules share: which bot product a zone has, its bot settings read once, and the
 * rule that the bot products judge proxied traffic only.
 */

import type { ResourceRef, RuleOptions, Severity, ZoneContext } from './rule.js';
import type { BotManagement } from './security-models.js';

/**
 * The bot product each plan comes with (vendor docs: bots, plans): Bot Fight Mode (Free), Super Bot
 * Fight Mode for definitely automated traffic (Pro), for likely automated traffic too (Business, and
 * Enterprise without the add-on), Bot Management for Enterprise (the add-on, which replaces the others).
 */
export type BotProduct = 'bfm' | 'sbfm-pro' | 'sbfm-likely' | 'bm';

/**
 * The zone's bot product. Fields of another product can linger after a plan change (vendor API
 * reference: the "clean up configuration" bodies), so the plan decides which product's fields count;
 * only Enterprise needs the answer to tell whether the add-on is bought (`auto_update_model` is its
 * own field). Without a plan, the answer's own fields decide; null when they say nothing either.
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

/** One bot setting of the zone as findings point at it: each setting keeps its own fingerprint. */
export const botSetting = (zoneId: string, field: string): ResourceRef => ({ type: 'bot_setting', id: `${zoneId}/${field}`, name: field });

/** The zone's bot settings; null after saying `unknown` when they were not read or came back empty. */
export function readBotSettings<O extends RuleOptions>(ctx: ZoneContext<O>): BotManagement | null {
  const read = ctx.zone.botManagement();
  if (!read.known) {
    ctx.unknown(ctx.zone.resource, read.reason);
    return null;
  }
  if (!read.value) {
    ctx.unknown(ctx.zone.resource, 'the bot management endpoint answered with no settings');
    return null;
  }
  return read.value;
}

/** The zone's bot settings and product; null after saying `unknown` when either cannot be told. */
export function readBotProduct<O extends RuleOptions>(ctx: ZoneContext<O>): { bots: BotManagement; product: BotProduct } | null {
  const bots = readBotSettings(ctx);
  if (!bots) return null;
  const product = botProductOf(ctx.zone.plan, bots);
  if (product === null) {
    ctx.unknown(ctx.zone.resource, 'the bot management answer carries none of the fields of a bot product and the zone\'s plan is not known');
    return null;
  }
  return { bots, product };
}

/** Every bot rule's last reference: why a zone that proxies nothing passes. */
export const PROXY_STATUS_REFERENCE = 'vendor docs: proxy status (DNS-only records bypass the edge\'s security features)';

/** A bot setting that fails, as the rule would report it. */
export interface BotFailure {
  field: string;
  messageId: string;
  data?: Record<string, unknown>;
  severity?: Severity;
}

/**
 * Reports the failures, or passes the zone when it proxies nothing: the bot products, their
 * JavaScript and their models see proxied requests only (vendor docs: proxy status), so a zone
 * whose records are all DNS-only has nothing for them to act on. Without the records, unknown.
 */
export function failWhereProxied<O extends RuleOptions>(ctx: ZoneContext<O>, failures: readonly BotFailure[]): void {
  if (failures.length === 0) return ctx.pass();
  const proxies = ctx.zone.proxiesTraffic();
  if (!proxies.known) return ctx.unknown(ctx.zone.resource, proxies.reason);
  if (!proxies.value) return ctx.pass();
  for (const f of failures) ctx.fail(botSetting(ctx.zone.id, f.field), f.messageId, { field: f.field, ...f.data }, f.severity);
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
