import type { ApiClient } from '../../api/client.js';
import type { LIST_ENDPOINTS, ListEndpoint, DeclaredReads } from '../../api/endpoints.js';
import type { PagedList } from '../../api/paginate.js';
import type { ReadDeclaration } from '../../cloudflare/reads.js';
import type { Partition, PartitionKind } from '../../snapshot/tables.js';
import type { PartitionWriter } from '../../snapshot/writer.js';
import type { StoredZone } from '../incremental/stored-zone.js';
import type { StoredRecord } from '../resolve/records-tonight.js';
import type { TargetResolver } from '../resolve/resolver.js';

/**
 * What a zone read is: one small module per read, its declaration taken from the registry
 * (src/cloudflare/reads.ts), reading through the crawler's kit. Adding a read: docs/development.md;
 * docs/scanning.md lists the reads, which test/crawler/read-declarations.test.ts checks.
 */

export interface ZoneItem {
  id: string;
  name: string;
  plan?: { legacy_id?: string };
  account?: { id?: string };
  /** Seconds Development Mode has left (negative: since it expired; 0: never on), when the zone list carries it (vendor's API reference, zones). */
  development_mode?: unknown;
}

/** Whether the zone list, read every night at no cost, told the zone's Development Mode: the setting need not be read. */
export function listTellsDevelopmentMode(zone: ZoneItem): boolean {
  return typeof zone.development_mode === 'number' && Number.isFinite(zone.development_mode);
}

/** How a zone is read tonight: everything (first read, a change, its turn), or only what is due by date. */
export type ZoneMode = 'full' | 'due-only';

export interface ZoneFacts {
  zone: ZoneItem;
  mode: ZoneMode;
  /** What the last scan of the same scope holds for the zone (null on a full scan with no earlier one). */
  stored: StoredZone | null;
  /** The phases tonight's rulesets list shows, with their entry points' stamps (rulesetStamp); null when not read tonight. */
  phases: Map<string, string | null> | null;
  /** The zone runs the new managed rules only (migrated, or born on them). */
  migrated: boolean;
  migrationState: string | null;
  /** The API's time now (ms): "in its renewal window" is by the vendor's clock. */
  now: number;
  /** Reads waiting, in order, on a read that decides them while it waits for the repair pass (repairedThenWaiting runs them). */
  waitingOn: Map<ReadModule, Array<() => Promise<void>>>;
  /**
   * Reads that ran tonight unanswered (refused, failed), so decide as on every night since their
   * last answer, by the first scan after it: the reads they decide, if made since, were decided
   * alike and may be carried (else a token refused the migration status would have every zone's
   * settings read every night).
   */
  decidedAlike: Map<ReadModule, number>;
}

/** The crawler's services a read uses. */
export interface ReadKit {
  readonly signal: AbortSignal;
  readonly reads: DeclaredReads | undefined;
  client(zone: ZoneItem): ApiClient;
  /** Whether an earlier scan that ended saw the zone on the new managed rules only (ScanWriter.migratedZones). */
  migratedBefore(zone: ZoneItem): boolean;
  accountType(accountId: string): string | undefined;
  /** A page/per_page list into the zone's partition: true read whole, false failed, null deferred to the repair pass. */
  readZoneList(zone: ZoneItem, key: keyof typeof LIST_ENDPOINTS, partition: Partition, repair?: () => Promise<unknown>): Promise<boolean | null>;
  /** One object into the zone's partition; `absentCode`: the API error that means "there is none". */
  readObject(zone: ZoneItem, partition: Partition, path: string, query?: Record<string, string>, absentCode?: number, repair?: () => Promise<unknown>): Promise<Record<string, unknown> | null | Deferred>;
  readCursorList(zone: ZoneItem, partition: Partition, path: string, perPage: number, repair?: () => Promise<unknown>): Promise<unknown[] | null | Deferred>;
  partition(kind: PartitionKind, scopeId: string, partition: Partition): PartitionWriter;
  deferred(err: unknown, partition: PartitionWriter | null, redo: () => Promise<unknown>): boolean;
  failed(partition: PartitionWriter, err: unknown, pages: number, items: number, name: string | null): void;
  missing(kind: PartitionKind, scopeId: string, name: string | null, partition: Partition, state: string, reason: string, list?: 'missing' | 'notPermitted' | 'retired'): void;
  /** Records a partition as not read, for a reason that makes it pointless (not a gap). */
  skip(zone: ZoneItem, partition: Partition, why: string): void;
  /** Records a partition as read empty, known without a call (the rulesets list shows no such phase). */
  absent(zone: ZoneItem, partition: Partition, why: string): void;
  /** The last scan that held an answer for the zone's partition, read or carried; 0 when none did. */
  lastAnswered(zone: ZoneItem, partition: Partition): number;
  hasPartition(zone: ZoneItem, partition: Partition): boolean;
  /** Carries the partition forward from the last read; false when there is nothing sound to carry. */
  carry(zone: ZoneItem, partition: Partition): boolean;
  /** The scan carry() would carry the partition from; null when it may not be carried (ReadPlan.mayCarry). */
  carrySource(zone: ZoneItem, partition: Partition): number | null;
  /** A read answered; given the zone's part, its credential holds that part's permission group (permissions.ts). */
  succeeded(zone?: ZoneItem, partition?: Partition): void;
  /** One object of the zone's account, read once per account and scan and kept in each of its zones' partition. */
  readAccountObject(zone: ZoneItem, accountId: string, partition: Partition, path: string, absentCode?: number): Promise<void>;
  /** A list of an account into its own partition, read once per account and scan by whichever of its zones asks first. */
  readAccountList(accountId: string, partition: Partition, key: keyof typeof LIST_ENDPOINTS): Promise<void>;
  /** A list of an account served whole (one unpaged answer), read once per account and scan. */
  readAccountAnswer(accountId: string, partition: Partition, path: string): Promise<void>;
  /** Items of the zone's account (`fetch` reads them all), read once per account and scan into its own partition. */
  readAccountItems(zone: ZoneItem, accountId: string, partition: Partition, fetch: (client: ApiClient, signal: AbortSignal) => Promise<{ items: unknown[]; pages: number }>): Promise<void>;
  list(path: string, endpoint: ListEndpoint, zone: ZoneItem): PagedList<unknown>;
  /** The ids of the items of the zone's partition this scan read. */
  itemsReadTonight(zone: ZoneItem, partition: Partition): string[];
  /** Set when the zone's partition answered as retired this scan (what lives under it went with it). */
  retired(zone: ZoneItem, partition: Partition): { status: number | null; message: string } | undefined;
  /** One per scan, so each name is asked once; null when the crawl was given none. */
  readonly resolver: TargetResolver | null;
  /** The zone's DNS records as this scan holds them (read or carried); null when it has no sound list. */
  dnsRecordsTonight(zone: ZoneItem): StoredRecord[] | null;
}

export const DEFERRED = Symbol('deferred');
export type Deferred = typeof DEFERRED;

/** A deferred read's repair: the read again, then the reads waiting on it (nothing is deferred in the repair pass). */
export async function repairedThenWaiting(read: ReadModule, kit: ReadKit, facts: ZoneFacts): Promise<void> {
  if ((await read.run(kit, facts)) === DEFERRED) return;
  const waiting = facts.waitingOn.get(read) ?? [];
  facts.waitingOn.delete(read);
  for (const run of waiting) await run();
}

/**
 * Carries the zone's partitions of these if every one may be carried (and, given `since`, comes
 * from a read made in or after that scan); else carries none and says so.
 */
export function carriedWhole(kit: ReadKit, zone: ZoneItem, partitions: readonly Partition[], since = 0): boolean {
  const present = partitions.filter((p) => kit.hasPartition(zone, p));
  const carriable = (p: Partition) => (kit.carrySource(zone, p) ?? -1) >= since;
  if (present.length === 0 || !present.every(carriable)) return false;
  for (const p of present) kit.carry(zone, p);
  return true;
}

export interface ReadModule extends ReadDeclaration {
  /** For `date` reads: whether stored data asks for a read tonight although the zone did not change. */
  dueByDate?(facts: ZoneFacts): boolean;
  /**
   * Reads whose outcome decides what this one reads (the migration's state decides the managed
   * phase, the rulesets list and the legacy `waf` switch). On a due-only night this read runs
   * whenever one of them runs: its last outcome may have been decided on what they could not read
   * then. While one of them waits for the repair pass, this one waits with it.
   */
  decidedBy?: readonly ReadModule[];
  /** Reads, skips or carries its partitions for the zone; DEFERRED when it waits for the repair pass. */
  run(kit: ReadKit, facts: ZoneFacts): Promise<void | Deferred>;
}
