import { byId, type Item } from '../cloudflare/item.js';
import { PARTITION_NAMES, specOf, type Partition, type PartitionKind, type Row } from '../cloudflare/reads.js';

/**
 * What each partition stores: its table, and the columns rules query, as the registry of reads
 * declares them (src/cloudflare/reads.ts); the raw JSON is kept whole beside them.
 */

/** A partition goes by its stored name (the `endpoint` column of coverage and the shared tables). */
export type { Partition, PartitionKind };

export interface TableSpec {
  table: string;
  scopeColumn: string;
  /** For tables shared by several partitions: the column naming the partition. */
  endpointColumn?: string;
  itemId(item: Item, partition: Partition): string;
  columns(item: Item): Row;
  /** What of an item is stored as its raw JSON, when not the whole of it (what rules and drift read, nothing more). */
  kept?(item: Item): Item;
}

const none = (): Row => ({});

function tableOf(partition: Partition): TableSpec | null {
  const spec = specOf(partition);
  const storage = spec.storage;
  if (!storage) return null;
  const shared = storage.table === 'zone_objects' || storage.table === 'account_objects';
  return {
    table: storage.table,
    scopeColumn: spec.kind === 'zone' ? 'zone_id' : 'scope_id',
    ...(shared ? { endpointColumn: 'endpoint' } : {}),
    // A single object is its partition's only row.
    itemId: storage.itemId ?? (spec.paging.kind === 'object' ? (_, e) => e : byId),
    columns: 'columns' in storage ? storage.columns : none,
    ...('kept' in storage && storage.kept ? { kept: storage.kept } : {}),
  };
}

export const TABLES = Object.fromEntries(PARTITION_NAMES.map((p) => [p, tableOf(p)])) as Record<Partition, TableSpec | null>;
