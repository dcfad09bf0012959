import type { ApiClient } from '../api/client.js';
import { readCursorList } from '../api/cursor-list.js';
import { fillPath, type ListEndpoint } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import type { PagedList } from '../api/paginate.js';
import type { Partition, PartitionKind } from '../snapshot/tables.js';
import type { ScanCredentials } from './credentials.js';
import type { PartitionBook } from './partitions.js';
import { DEFERRED, type Deferred, type ZoneItem } from './zone-item.js';

/** A list, an object or a cursor-paged list read into a partition, its outcome recorded in the partition book. */
export class PartitionReader {
  constructor(
    private readonly book: PartitionBook,
    private readonly credentials: ScanCredentials,
    private readonly signal: AbortSignal,
  ) {}

  /** A page/per_page list of the endpoint (its template filled with `params`). */
  list(endpoint: ListEndpoint, params: Record<string, string>, query: Record<string, string> = {}, client = this.credentials.client): PagedList<unknown> {
    return this.listAt(client, fillPath(endpoint.template, params), endpoint, query);
  }

  /** A page/per_page list at `path`, with the crawl's page sizes and stop signal. */
  listAt(client: ApiClient, path: string, endpoint: ListEndpoint, query: Record<string, string> = {}): PagedList<unknown> {
    const perPage = endpoint.crawlPerPage ?? endpoint.maxPerPage;
    return client.list(path, { perPage, minPerPage: endpoint.minPerPage, query: { ...endpoint.query, ...query }, signal: this.signal });
  }

  /**
   * Reads a list into a partition: true when read whole, false when it failed, null when it waits for
   * the repair pass. `repair` (here and below): what the repair pass does instead, the reads that depend on it too.
   */
  async readList(kind: PartitionKind, scopeId: string, partition: Partition, makeList: () => PagedList<unknown>, name: string | null, repair?: () => Promise<unknown>): Promise<boolean | null> {
    const writer = this.book.partition(kind, scopeId, partition);
    const list = makeList();
    try {
      for await (const page of list) writer.write(page);
      if (this.book.finishList(writer, list.summary, name)) return false;
      this.book.answered(kind, scopeId, partition);
      return true;
    } catch (err) {
      if (this.book.deferred(err, writer, repair ?? (() => this.readList(kind, scopeId, partition, makeList, name)))) return null;
      this.book.failed(writer, err, list.summary.pages, list.summary.items, name);
      return false;
    }
  }

  /** Reads a single object into a partition. `absentCode`: the API error that means "there is none", an answer. */
  async readObject(zone: ZoneItem, partition: Partition, path: string, query: Record<string, string> = {}, absentCode?: number, repair?: () => Promise<unknown>): Promise<Record<string, unknown> | null | Deferred> {
    const writer = this.book.partition('zone', zone.id, partition);
    try {
      const answer = await this.credentials.clientOf(zone.account?.id).get<Record<string, unknown>>(path, { query, signal: this.signal });
      // `result: null` is an answer with no object (a security.txt never set up), stored as none.
      const none = answer.result === null || answer.result === undefined;
      if (!none) writer.write([answer.result]);
      writer.finish({ state: 'ok', pages: 1, items: none ? 0 : 1 });
      this.book.answered('zone', zone.id, partition);
      return answer.result && typeof answer.result === 'object' ? answer.result : null;
    } catch (err) {
      if (absentCode !== undefined && err instanceof ApiError && err.hasCode(absentCode)) {
        writer.finish({ state: 'ok', pages: 1, items: 0, httpStatus: err.status, apiCode: absentCode });
        this.book.answered('zone', zone.id, partition);
      } else if (this.book.deferred(err, writer, repair ?? (() => this.readObject(zone, partition, path, query, absentCode)))) {
        return DEFERRED;
      } else {
        this.book.failed(writer, err, 0, 0, zone.name);
      }
      return null;
    }
  }

  /** A cursor-paged list of the zone into a partition: its items, null when it failed, or DEFERRED. */
  async readCursorList(zone: ZoneItem, partition: Partition, path: string, perPage: number, repair?: () => Promise<unknown>): Promise<unknown[] | null | Deferred> {
    const writer = this.book.partition('zone', zone.id, partition);
    try {
      const read = await readCursorList<unknown>(this.credentials.clientOf(zone.account?.id), path, { pageSize: { param: 'per_page', value: perPage }, signal: this.signal });
      writer.write(read.items);
      const problem = read.truncated ? `list truncated (${read.truncatedReason})` : null;
      writer.finish({ state: problem ? 'failed' : 'ok', pages: read.pages, items: read.items.length, truncated: read.truncated, message: problem });
      if (problem) {
        this.book.missing('zone', zone.id, zone.name, partition, 'failed', problem);
        return null;
      }
      this.book.answered('zone', zone.id, partition);
      return read.items;
    } catch (err) {
      if (this.book.deferred(err, writer, repair ?? (() => this.readCursorList(zone, partition, path, perPage)))) return DEFERRED;
      this.book.failed(writer, err, 0, 0, zone.name);
      return null;
    }
  }
}
