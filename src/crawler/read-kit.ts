import type { ApiClient } from '../api/client.js';
import { LIST_ENDPOINTS, type DeclaredReads } from '../api/endpoints.js';
import type { Partition } from '../snapshot/tables.js';
import type { ScanWriter } from '../snapshot/writer.js';
import type { AccountReads } from './account-reads.js';
import type { AccountListing } from './accounts.js';
import type { ScanCredentials } from './credentials.js';
import type { Carrier } from './incremental/carry.js';
import type { PartitionReader } from './partition-reads.js';
import type { PartitionBook } from './partitions.js';
import type { TargetResolver } from './resolve/resolver.js';
import type { ZoneItem } from './zone-item.js';

/** The crawler's services as the read modules (reads/) use them, and what they ask of a zone's credential. */
export class ReadKit {
  constructor(
    readonly signal: AbortSignal,
    readonly reads: DeclaredReads | undefined,
    readonly writer: ScanWriter,
    readonly book: PartitionBook,
    readonly reader: PartitionReader,
    private readonly credentials: ScanCredentials,
    readonly accounts: AccountListing,
    readonly accountReads: AccountReads,
    readonly carrier: Carrier,
    /** One per scan, so each name is asked once; null when the crawl was given none. */
    readonly resolver: TargetResolver | null,
    /** Stored ids of the zones an earlier scan that ended saw on the new managed rules only (ScanWriter.migratedZones). */
    private readonly migratedZones: ReadonlySet<string>,
  ) {}

  client(zone: ZoneItem): ApiClient {
    return this.credentials.clientOf(zone.account?.id);
  }

  migratedBefore(zone: ZoneItem): boolean {
    return this.migratedZones.has(this.writer.storedId(zone.id));
  }

  /** A page/per_page list into the zone's partition: true read whole, false failed, null deferred to the repair pass. */
  readZoneList(zone: ZoneItem, key: keyof typeof LIST_ENDPOINTS, partition: Partition, repair?: () => Promise<unknown>): Promise<boolean | null> {
    const list = () => this.reader.list(LIST_ENDPOINTS[key], { zone_id: zone.id }, {}, this.client(zone));
    return this.reader.readList('zone', zone.id, partition, list, zone.name, repair);
  }

  /** Records a partition as read empty, known without a call (the rulesets list shows no such phase). */
  absent(zone: ZoneItem, partition: Partition, why: string): void {
    this.book.partition('zone', zone.id, partition).finish({ state: 'ok', pages: 0, items: 0, message: why });
  }

  /** Carries the partition forward from the last read; false when there is nothing sound to carry. */
  carry(zone: ZoneItem, partition: Partition): boolean {
    return this.carrier.carry(this.client(zone), zone, partition);
  }
}
