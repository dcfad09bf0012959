import { readDeclarationOf, fillPath, PARTITIONS } from '../../cloudflare/reads.js';
import type { ApiClient } from '../../api/client.js';
import type { ReadModule } from './zone-read.js';

/**
 * The open findings of the vendor's scanner, Security Insights (vendor's API reference: security
 * center, insights, list; result `{count, page, per_page, issues[]}`), a row per issue of the
 * account, for the report's side-by-side (src/report/vendor-insights.ts). No rule needs it: a
 * refusal leaves the scan complete. The vendor rescans on its own schedule, unlogged (vendor docs:
 * Security Insights, how it works): read on every scan, once per account.
 */
export const securityInsights: ReadModule = {
  ...readDeclarationOf('security_insights'),
  dueByDate: () => true,
  async run(kit, { zone }) {
    const accountId = zone.account?.id;
    // A zone list that named no account leaves no account to ask (nothing to pair with either).
    if (typeof accountId !== 'string') return;
    await kit.accountReads.itemsOf(accountId, 'security_insights', (client, signal) => openInsights(client, accountId, signal));
  },
};

export const INSIGHTS_PER_PAGE = PARTITIONS.security_insights.paging.perPage;

/** Pages no list of insights needs more than (10,000 zones' worth of every insight type at 100 a page). */
const MAX_PAGES = 5000;

/**
 * Every open insight of the account: not dismissed (`dismissed=false`) and not resolved (kept in the
 * list until archived, vendor docs: review insights). Paged until the count is reached (without
 * one: a short page), or a page brings nothing new.
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
    // A short page mid-list is not its end when there is a count (src/api/paginate.ts); a page of nothing new (a stuck pager) is.
    if (fresh === 0 || (count !== null ? seen.size >= count : issues.length < INSIGHTS_PER_PAGE)) break;
  }
  return { items, pages };
}

function isOpen(issue: unknown): boolean {
  if (!issue || typeof issue !== 'object') return false;
  const i = issue as { dismissed?: unknown; status?: unknown };
  return i.dismissed !== true && i.status !== 'resolved';
}
