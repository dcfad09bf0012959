import type { Logger } from '../common/logger.js';
import type { PageSource, QueryValue } from './request.js';
import { ApiTimeoutError } from './errors.js';
import { routeTemplate } from './stats.js';

/**
 * Page/per_page lists, read with the fewest calls and never forever: the largest page; stop on
 * total_pages, else total_count (N full pages cost N calls, not N+1), else at an empty page (the API
 * serves short pages mid-list, so a short page is not the last); a page of ids all seen stops the
 * list as truncated, an overlapping one is de-duplicated; a page cap; a page that times out is read
 * again in smaller pages covering the same range.
 */

export interface ListOptions {
  /** The endpoint's maximum. */
  perPage: number;
  /** The smallest page a timeout may shrink to. */
  minPerPage?: number;
  query?: Record<string, QueryValue>;
  /** At most this many pages (default 10,000). */
  maxPages?: number;
  signal?: AbortSignal;
}

export interface ListSummary {
  pages: number;
  items: number;
  truncated: boolean;
  truncatedReason?: 'repeated-page' | 'page-cap';
  totalCountChanged: boolean;
  duplicatesDropped: number;
  /** The page size after timeouts shrank it, if they did. */
  perPage: number;
  /** From the last page that said. */
  totalCount: number | null;
  /** Items counted in total_count but never served. */
  shortfall: number;
}

const DEFAULT_MAX_PAGES = 10_000;

function idOf(item: unknown): string {
  if (item && typeof item === 'object' && typeof (item as { id?: unknown }).id === 'string') return (item as { id: string }).id;
  return JSON.stringify(item);
}

/** The largest divisor of n at most n/10 (so smaller pages line up with the offset reached), else `min`. */
export function smallerPageSize(n: number, min: number): number {
  for (let d = Math.floor(n / 10); d > min; d--) if (n % d === 0) return d;
  return min;
}

export class PagedList<T> implements AsyncIterable<T[]> {
  readonly summary: ListSummary;

  constructor(
    private readonly client: PageSource,
    private readonly path: string,
    private readonly options: ListOptions,
    private readonly logger: Logger,
  ) {
    this.summary = {
      pages: 0,
      items: 0,
      truncated: false,
      totalCountChanged: false,
      duplicatesDropped: 0,
      perPage: options.perPage,
      totalCount: null,
      shortfall: 0,
    };
  }

  /** All items; for lists that fit in memory. */
  async all(): Promise<T[]> {
    const out: T[] = [];
    for await (const page of this) out.push(...page);
    return out;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T[]> {
    const s = this.summary;
    const template = routeTemplate(this.path);
    const min = this.options.minPerPage ?? 1;
    let perPage = Math.min(this.options.perPage, this.client.learntPerPage.get(template) ?? Infinity);
    const maxPages = this.options.maxPages ?? DEFAULT_MAX_PAGES;
    const seen = new Set<string>();
    let firstTotal: number | null = null;
    let page = 1;
    for (;;) {
      if (s.pages >= maxPages) {
        this.truncate('page-cap', `${this.path}: stopped after ${maxPages} pages (the page cap)`);
        return;
      }
      let answer;
      try {
        answer = await this.client.get<T[]>(this.path, {
          query: { ...this.options.query, page, per_page: perPage },
          signal: this.options.signal,
          retryTimeouts: perPage <= min,
        });
      } catch (err) {
        if (!(err instanceof ApiTimeoutError) || perPage <= min) throw err;
        const offset = (page - 1) * perPage;
        perPage = smallerPageSize(perPage, min);
        // When the new size does not divide the offset, start a little earlier: the items read
        // twice are dropped by id.
        page = Math.floor(offset / perPage) + 1;
        this.client.learntPerPage.set(template, perPage);
        this.logger.warn(`${this.path}: a page timed out; reading the rest in pages of ${perPage}`);
        continue;
      }
      s.pages++;
      const items = Array.isArray(answer.result) ? answer.result : [];
      const info = answer.resultInfo ?? {};
      const servedPerPage = info.per_page ?? perPage;
      if (info.total_count !== undefined) {
        if (firstTotal === null) firstTotal = info.total_count;
        else if (info.total_count !== firstTotal && !s.totalCountChanged) {
          s.totalCountChanged = true;
          this.logger.warn(`${this.path}: total_count changed from ${firstTotal} to ${info.total_count} while paging`);
        }
        s.totalCount = info.total_count;
      }
      const fresh = items.filter((item) => !seen.has(idOf(item)));
      if (items.length > 0 && fresh.length === 0) {
        this.truncate('repeated-page', `${this.path}: page ${page} repeats items already read; the list is incomplete`);
        return;
      }
      s.duplicatesDropped += items.length - fresh.length;
      for (const item of fresh) seen.add(idOf(item));
      s.items += fresh.length;
      if (fresh.length) yield fresh as T[];

      const reached = (page - 1) * servedPerPage + items.length;
      const done =
        items.length === 0 ||
        (info.total_pages !== undefined ? page >= info.total_pages : info.total_count !== undefined && reached >= info.total_count);
      if (done) {
        s.perPage = perPage;
        if (s.totalCount !== null && s.items < s.totalCount && !s.totalCountChanged) {
          s.shortfall = s.totalCount - s.items;
          this.logger.warn(`${this.path}: the server listed ${s.totalCount} items but served ${s.items}`);
        }
        return;
      }
      // The server may clamp per_page: page numbers follow the size it used.
      perPage = servedPerPage;
      page++;
    }
  }

  private truncate(reason: NonNullable<ListSummary['truncatedReason']>, message: string): void {
    this.summary.truncated = true;
    this.summary.truncatedReason = reason;
    this.logger.warn(message);
  }
}
