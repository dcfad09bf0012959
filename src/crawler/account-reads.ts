import type { ApiClient } from '../api/client.js';
import { LIST_ENDPOINTS } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import { entryOf } from '../common/map-entry.js';
import type { Partition } from '../snapshot/tables.js';
import type { ScanCredentials } from './credentials.js';
import type { PartitionReader } from './partition-reads.js';
import { partitionKey, type PartitionBook } from './partitions.js';
import type { ZoneItem } from './zone-item.js';

/** Reads an account's partition whole: its items, or what is wrong with its answer. */
type ItemsFetch = (client: ApiClient, signal: AbortSignal) => Promise<{ items: unknown[]; pages: number } | string>;

/** What the zone reads ask of their account, read once per account and scan: the first zone to ask reads it for all. */
export class AccountReads {
  /** Reads made (or being made) this scan, by account id and endpoint. */
  private readonly objects = new Map<string, Promise<Record<string, unknown> | null>>();
  private readonly lists = new Map<string, Promise<unknown>>();

  constructor(
    private readonly reader: PartitionReader,
    private readonly book: PartitionBook,
    private readonly credentials: ScanCredentials,
    private readonly signal: AbortSignal,
  ) {}

  /** A list of an account into the account's partition. */
  async list(accountId: string, partition: Partition, key: keyof typeof LIST_ENDPOINTS): Promise<void> {
    const client = this.credentials.clientOf(accountId);
    await entryOf(this.lists, partitionKey(accountId, partition), () =>
      this.reader.readList('account', accountId, partition, () => this.reader.list(LIST_ENDPOINTS[key], { account_id: accountId }, {}, client), null),
    );
  }

  /** A list of an account served whole in one unpaged answer (the notification policies), into the account's partition. */
  answer(accountId: string, partition: Partition, path: string): Promise<void> {
    return this.itemsOf(accountId, partition, async (client, signal) => {
      const answer = await client.get<unknown>(path, { signal });
      if (!Array.isArray(answer.result)) return 'the API answered without a list';
      return { items: answer.result.filter((i): i is Record<string, unknown> => i !== null && typeof i === 'object' && !Array.isArray(i)), pages: 1 };
    });
  }

  /** An object of the zone's account, read once per account and scan and kept with each of its zones (see reads/account-entrypoint.ts). */
  async object(zone: ZoneItem, accountId: string, partition: Partition, path: string, absentCode?: number): Promise<void> {
    const writer = this.book.partition('zone', zone.id, partition);
    const key = partitionKey(accountId, partition);
    const read = entryOf(this.objects, key, () =>
      this.credentials
        .clientOf(accountId)
        .get<Record<string, unknown>>(path, { signal: this.signal })
        .then(
          (answer) => (answer.result && typeof answer.result === 'object' ? answer.result : null),
          (err: unknown) => {
            // The code that means there is none is an answer. A failure that may pass is forgotten, so
            // that the repair pass asks again instead of sharing it; a refusal is every zone's answer.
            if (absentCode !== undefined && err instanceof ApiError && err.hasCode(absentCode)) return null;
            if (err instanceof ApiError && err.retryable) this.objects.delete(key);
            throw err;
          },
        ),
    );
    try {
      const result = await read;
      if (result) writer.write([result]);
      writer.finish({ state: 'ok', pages: 1, items: result ? 1 : 0 });
      this.credentials.anyReadSucceeded = true;
    } catch (err) {
      if (this.book.deferred(err, writer, () => this.object(zone, accountId, partition, path, absentCode))) return;
      this.book.failed(writer, err, 0, 0, zone.name);
    }
  }

  /** Items of an account into its own partition, read once per account and scan. */
  async itemsOf(accountId: string, partition: Partition, fetch: ItemsFetch): Promise<void> {
    await entryOf(this.lists, partitionKey(accountId, partition), () => this.readWhole(accountId, partition, fetch));
  }

  private async readWhole(accountId: string, partition: Partition, fetch: ItemsFetch): Promise<void> {
    const writer = this.book.partition('account', accountId, partition);
    try {
      const got = await fetch(this.credentials.clientOf(accountId), this.signal);
      this.book.answered('account', accountId, partition);
      if (typeof got === 'string') {
        writer.finish({ state: 'failed', pages: 1, items: 0, message: got });
        this.book.missing('account', accountId, null, partition, 'failed', got);
        return;
      }
      writer.write(got.items);
      writer.finish({ state: 'ok', pages: got.pages, items: got.items.length });
    } catch (err) {
      if (this.book.deferred(err, writer, () => this.readWhole(accountId, partition, fetch))) return;
      this.book.failed(writer, err, 0, 0, null);
    }
  }
}
