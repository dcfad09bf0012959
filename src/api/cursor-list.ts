import type { ApiClient, QueryValue } from './client.js';

/**
 * Cursor-paged lists (rulesets, the audit log version 2): `result_info.cursor` names the next page,
 * absent or empty on the last. A cursor served twice, EMPTY_PAGES empty pages in a row or the page
 * cap end the list as truncated (the audit log's reader then reads the account in full).
 */

export interface CursorListOptions {
  /** `per_page` for rulesets, `limit` for the audit log. */
  pageSize: { param: string; value: number };
  query?: Record<string, QueryValue>;
  maxPages?: number;
  signal?: AbortSignal;
  /** A full page without a cursor may hold more in a shape not understood: truncated ('no-cursor'), not the last. */
  fullPageNeedsCursor?: boolean;
}

export interface CursorListResult<T> {
  items: T[];
  pages: number;
  truncated: boolean;
  truncatedReason?: 'repeated-cursor' | 'page-cap' | 'no-cursor' | 'empty-pages';
}

const DEFAULT_MAX_PAGES = 1000;
/**
 * Empty pages in a row with a cursor before the list is given up: a fresh cursor with every empty
 * page would take the page cap's thousand calls of a shared budget, yet an empty page may stand
 * between full ones (a filter applied after paging).
 */
const EMPTY_PAGES = 3;

export async function readCursorList<T>(client: ApiClient, path: string, options: CursorListOptions): Promise<CursorListResult<T>> {
  const items: T[] = [];
  const seen = new Set<string>();
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  let cursor: string | undefined;
  let emptyInARow = 0;
  for (let pages = 1; ; pages++) {
    const query: Record<string, QueryValue> = { ...options.query, [options.pageSize.param]: String(options.pageSize.value), ...(cursor ? { cursor } : {}) };
    const answer = await client.get<T[]>(path, { query, ...(options.signal ? { signal: options.signal } : {}) });
    const got = Array.isArray(answer.result) ? answer.result.length : 0;
    if (Array.isArray(answer.result)) for (const item of answer.result) items.push(item);
    const next = answer.resultInfo?.cursor;
    if (!next && options.fullPageNeedsCursor && got >= options.pageSize.value) return { items, pages, truncated: true, truncatedReason: 'no-cursor' };
    if (!next) return { items, pages, truncated: false };
    if (seen.has(next)) return { items, pages, truncated: true, truncatedReason: 'repeated-cursor' };
    emptyInARow = got === 0 ? emptyInARow + 1 : 0;
    if (emptyInARow >= EMPTY_PAGES) return { items, pages, truncated: true, truncatedReason: 'empty-pages' };
    if (pages >= maxPages) return { items, pages, truncated: true, truncatedReason: 'page-cap' };
    seen.add(next);
    cursor = next;
  }
}
