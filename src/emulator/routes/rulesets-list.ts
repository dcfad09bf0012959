import { formatApiTime } from '../clock.js';
import type { RequestContext } from '../http/context.js';
import { CODES, fail, ok, type Answer, type Envelope } from '../http/envelope.js';
import { cursorText, wholeQuery } from '../http/pagination.js';
import type { Route } from '../http/router.js';
import { MANAGED_PHASE } from '../security.js';
import type { Plan, Ruleset, Zone } from '../state.js';
import { MANAGED_RULESET_ID, OWASP_RULESET_ID } from '../waf-mapping.js';
import { zoneFor } from './lookup.js';

/**
 * `GET /zones/{zone_id}/rulesets` (vendor docs: ruleset engine, "List and view rulesets"; API
 * reference: list zone rulesets): the zone's entry points (from the objects their GETs serve, so
 * versions agree) and the WAF's managed rulesets it can deploy, without rules, with cursor paging
 * (`result_info` `{count, per_page}`, plus `cursor` while there is more). The emulator's guesses are
 * in docs/dataset-format.md, "Answers the emulator guesses".
 */

const DEFAULT_PER_PAGE = 50;
const MAX_PER_PAGE = 50;

export const FREE_MANAGED_RULESET_ID = '77454fe2d30c4220b5701f6fdfb893ba';

/** A ruleset without its rules. */
export type RulesetListItem = Omit<Ruleset, 'rules'>;

interface ManagedRuleset {
  id: string;
  name: string;
  description: string;
  /** Whether a zone on this plan may deploy it (else: only when an entry point executes it). */
  offeredTo: (plan: Plan) => boolean;
  version: string;
  /** Days before the emulator clock's start: the vendor updates its rulesets on its own schedule. */
  updatedDaysBefore: number;
}

/** The WAF's managed rulesets (vendor docs: WAF, managed rules: names and ruleset ids). Versions and times are the emulator's. */
const MANAGED_RULESETS: readonly ManagedRuleset[] = [
  { id: MANAGED_RULESET_ID, name: 'Cloudflare Managed Ruleset', description: "The vendor's security team's rules against known and new attacks.", offeredTo: (p) => p !== 'free', version: '63', updatedDaysBefore: 6 },
  { id: OWASP_RULESET_ID, name: 'Cloudflare OWASP Core Ruleset', description: "The vendor's implementation of the OWASP ModSecurity Core Rule Set, scoring requests.", offeredTo: (p) => p !== 'free', version: '41', updatedDaysBefore: 13 },
  { id: FREE_MANAGED_RULESET_ID, name: 'Cloudflare Free Managed Ruleset', description: 'Rules against high-impact, widely exploited vulnerabilities, on every plan.', offeredTo: () => true, version: '22', updatedDaysBefore: 20 },
];

const DAY_MS = 86_400_000;

function item(r: Ruleset): RulesetListItem {
  return { id: r.id, kind: r.kind, name: r.name, description: r.description, phase: r.phase, version: r.version, last_updated: r.last_updated };
}

/** The zone's phase entry points that exist, as the entry point GETs serve them. */
export function zoneEntrypoints(zone: Zone): Ruleset[] {
  return [zone.migration.entrypoint, zone.security.customRules, zone.security.rateLimitRules].filter((r): r is Ruleset => r !== null);
}

/** Managed rulesets the zone's entry points execute. */
function executed(zone: Zone): Set<unknown> {
  return new Set(zoneEntrypoints(zone).flatMap((r) => r.rules.filter((rule) => rule.action === 'execute').map((rule) => rule.action_parameters?.['id'])));
}

/** Every item of the zone's list, in the order served. */
export function zoneRulesetList(zone: Zone, clockStart: Date): RulesetListItem[] {
  const used = executed(zone);
  const managed = MANAGED_RULESETS.filter((m) => m.offeredTo(zone.plan) || used.has(m.id)).map((m) => ({
    id: m.id,
    kind: 'managed',
    name: m.name,
    description: m.description,
    phase: MANAGED_PHASE,
    version: m.version,
    last_updated: formatApiTime(new Date(clockStart.getTime() - m.updatedDaysBefore * DAY_MS)),
  }));
  return [...zoneEntrypoints(zone).map(item), ...managed].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
}

const KIND_RANK: Record<string, string> = { zone: '0', custom: '1', managed: '2' };

function sortKey(r: RulesetListItem): string {
  return `${KIND_RANK[r.kind] ?? '3'}\u0000${r.phase}\u0000${r.id}`;
}

/** The cursor: the last served item's sort key. */
function encodeCursor(r: RulesetListItem): string {
  return Buffer.from(`v1\u0000${sortKey(r)}`).toString('base64url');
}

function perPageOf(ctx: RequestContext): number {
  const refusal = (raw: string) =>
    fail(400, CODES.invalidPagination, `per_page must be a whole number from 1 to ${MAX_PER_PAGE}, got "${raw}"`);
  return Math.min(MAX_PER_PAGE, wholeQuery(ctx, 'per_page', DEFAULT_PER_PAGE, refusal));
}

/** result_info of this list, as the vendor's SDK reads it (CursorPagination: count, per_page, cursor). */
export interface RulesetListResultInfo {
  count: number;
  per_page: number;
  /** Present only when there is a next page. */
  cursor?: string;
}

function listZoneRulesets(ctx: RequestContext): Answer {
  const zone = zoneFor(ctx);
  const perPage = perPageOf(ctx);
  const after = cursorText(ctx, /^v1\u0000[0-9]\u0000[a-z0-9_]+\u0000[0-9a-f]+$/)?.slice(3);
  const all = zoneRulesetList(zone, ctx.org.clock.start);
  const rest = after === undefined ? all : all.filter((r) => sortKey(r) > after);
  const page = rest.slice(0, perPage);
  const info: RulesetListResultInfo = { count: page.length, per_page: perPage };
  if (rest.length > page.length) info.cursor = encodeCursor(page[page.length - 1]!);
  const answer = ok(page);
  // The envelope's result_info types are the page-number lists' and the audit log's; this list's is a third shape.
  answer.body.result_info = info as Envelope['result_info'];
  return answer;
}

export const rulesetsListRoutes: Route[] = [{ method: 'GET', template: '/zones/{zone_id}/rulesets', handler: listZoneRulesets }];
