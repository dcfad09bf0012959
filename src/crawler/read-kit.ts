import { LIST_ENDPOINTS } from '../api/endpoints.js';
import type { AccountReads } from './account-reads.js';
import type { AccountListing } from './accounts.js';
import type { CrawlParts } from './crawl-parts.js';
import type { Carrier } from './incremental/carry.js';
import type { ReadKit } from './reads/zone-read.js';
import { recordsTonight } from './resolve/records-tonight.js';
import type { TargetResolver } from './resolve/resolver.js';

/** The crawler's services as the read modules see them (reads/zone-read.ts). */
export function readKit(
  parts: CrawlParts,
  more: { accounts: AccountListing; accountReads: AccountReads; carrier: Carrier; resolver: TargetResolver | null; migratedBefore: ReadonlySet<string> },
): ReadKit {
  const { options, book, reader, credentials, tasks } = parts;
  const writer = options.writer;
  const clientOf = (zone: { account?: { id?: string } }) => credentials.clientOf(zone.account?.id);
  return {
    signal: tasks.signal,
    reads: options.reads,
    client: clientOf,
    migratedBefore: (zone) => more.migratedBefore.has(writer.storedId(zone.id)),
    accountType: (id) => more.accounts.accountType(id),
    readZoneList: (zone, key, partition, repair) => reader.readList('zone', zone.id, partition, () => reader.list(LIST_ENDPOINTS[key], { zone_id: zone.id }, {}, clientOf(zone)), zone.name, repair),
    readObject: (zone, partition, path, query, absentCode, repair) => reader.readObject(zone, partition, path, query, absentCode, repair),
    readCursorList: (zone, partition, path, perPage, repair) => reader.readCursorList(zone, partition, path, perPage, repair),
    partition: (kind, scopeId, partition) => book.partition(kind, scopeId, partition),
    deferred: (err, partition, redo) => book.deferred(err, partition, redo),
    failed: (partition, err, pages, items, name) => book.failed(partition, err, pages, items, name),
    missing: (kind, scopeId, name, partition, state, reason, list) => book.missing(kind, scopeId, name, partition, state, reason, list),
    skip: (zone, partition, why) => book.skip(zone, partition, why),
    absent: (zone, partition, why) => book.partition('zone', zone.id, partition).finish({ state: 'ok', pages: 0, items: 0, message: why }),
    carry: (zone, partition) => more.carrier.carry(clientOf(zone), zone, partition),
    carrySource: (zone, partition) => more.carrier.source(zone, partition),
    succeeded: (zone, partition) => {
      if (zone && partition) book.answered('zone', zone.id, partition);
      else credentials.anyReadSucceeded = true;
    },
    readAccountObject: (zone, accountId, partition, path, absentCode) => more.accountReads.object(zone, accountId, partition, path, absentCode),
    readAccountList: (accountId, partition, key) => more.accountReads.list(accountId, partition, key),
    readAccountAnswer: (accountId, partition, path) => more.accountReads.answer(accountId, partition, path),
    readAccountItems: (_zone, accountId, partition, fetch) => more.accountReads.itemsOf(accountId, partition, fetch),
    hasPartition: (zone, partition) => writer.hasPartition('zone', zone.id, partition),
    lastAnswered: (zone, partition) => writer.lastAnswered('zone', zone.id, partition),
    list: (path, endpoint, zone) => reader.listAt(clientOf(zone), path, endpoint),
    itemsReadTonight: (zone, partition) => writer.itemsReadTonight(zone.id, partition),
    retired: (zone, partition) => book.retired(zone.id, partition),
    resolver: more.resolver,
    dnsRecordsTonight: (zone) => recordsTonight(writer, zone.id),
  };
}
