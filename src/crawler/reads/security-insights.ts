import { readDeclarationOf, fillPath, PARTITIONS } from '../../cloudflare/reads.js';
import type { ApiClient } from '../../api/client.js';
import type { ReadModule } from './zone-read.js';

/**
 * The open findings of the vendor's own scanner, Security Insights (vendor's API reference:
 * security center, insights, list: `GET /accounts/{account_id}/security-center/insights`, page
 * paging, result `{count, page, per_page, issues[]}`), kept with the account (one row per issue)
 * for the report's side-by-side with zonewarden's verdicts (src/report/vendor-insights.ts). No
 * rule needs it: a token without the account's Security Center Insights permission leaves the scan
 * complete, noted once per account.
 *
 * When it can have changed: the vendor rescans on its own schedule (vendor docs: Security Insights,
 * how it works: every 7 days on Free, 3 on Pro and Business, daily on Enterprise) and writes no
 * audit log entry when it does, so nothing says whether it has; read on every scan, once per
 * account, whatever tonight's plan for its zones. One call per page of 100 issues, shared by the
 * account's zones.
 */
export const securityInsights: ReadModule = {
  ...readDeclarationOf('security_insights'),
  dueByDate: () => true,
  async run(kit, { zone }) {
    const accountId = zone.account?.id;
    // A zone list that named no account leaves no account to ask (nothing to pair with either).
    if (typeof accountId !== 'string') return;
    await kit.readAccountItems(zone, accountId, 'security_insights', (client, signal) => openInsights(client, accountId, signal));
  },
};

/** The largest page the list serves (the registry's). */
export const INSIGHTS_PER_PAGE = PARTITIONS.security_insights.paging.perPage;

/** Pages no list of insights needs more than (10,000 zones' worth of every insight type at 100 a page). */
const MAX_PAGES = 5000;

/**
 * Every open insight of the account: not dismissed (asked of the API: `dismissed=false`) and active
 * (a resolved one is kept in the list by the vendor until it is archived, vendor docs: review
 * insights). Read page by page until the count is reached (without a count: a short page), or a
 * page brings nothing new.
 */
export async function openInsights(client: ApiClient, accountId: string, signal: AbortSignal): Promise<{ items: unknown[]; pages: number }> {
  const path = fillPath(PARTITIONS.security_insights.api, { account_id: accountId });
  const items: unknown[] = [];
  const seen = new Set<string>();
  let pages = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await client.get<{ count?: unknown; issues?: unknown }>(path, { query: { dismissed: false, page, per_page: INSIGHTS_PER_PAGE }, signal });
    pages++;
    const result = answer.result && typeof answer.result === 'object' ? answer.result : {};
    const issues = Array.isArray(result.issues) ? result.issues : [];
    let fresh = 0;
    for (const issue of issues) {
      const id = issue && typeof issue === 'object' && typeof (issue as { id?: unknown }).id === 'string' ? (issue as { id: string }).id : JSON.stringify(issue);
      if (seen.has(id)) continue;
      seen.add(id);
      fresh++;
      if (isOpen(issue)) items.push(issue);
    }
    const count = typeof result.count === 'number' ? result.count : null;
    // The count says when the list ends (a short page mid-list is not its end, as with the other
    // lists: src/api/paginate.ts); without it, a short page does. A page of nothing new (a stuck
    // pager) ends it either way.
    if (fresh === 0 || (count !== null ? seen.size >= count : issues.length < INSIGHTS_PER_PAGE)) break;
  }
  return { items, pages };
}

function isOpen(issue: unknown): boolean {
  if (!issue || typeof issue !== 'object') return false;
  const i = issue as { dismissed?: unknown; status?: unknown };
  return i.dismissed !== true && i.status !== 'resolved';
}
