/** What the bot rules share: the zone's bot settings and product, read once, and judging proxied traffic only. */

import type { ResourceRef, RuleOptions, Severity, ZoneContext } from '../rule.js';
import { botProductOf, type BotManagement, type BotProduct } from '../../cloudflare/bot-management/bot-management.js';

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

/** Reports the failures, or passes a zone that proxies nothing: bot products see proxied requests only (vendor docs: proxy status). */
export function failWhereProxied<O extends RuleOptions>(ctx: ZoneContext<O>, failures: readonly BotFailure[]): void {
  if (failures.length === 0) return ctx.pass();
  const proxies = ctx.zone.proxiesTraffic();
  if (!proxies.known) return ctx.unknown(ctx.zone.resource, proxies.reason);
  if (!proxies.value) return ctx.pass();
  for (const f of failures) ctx.fail(botSetting(ctx.zone.id, f.field), f.messageId, { field: f.field, ...f.data }, f.severity);
}
