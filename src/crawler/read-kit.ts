import { LIST_ENDPOINTS } from '../api/endpoints.js';
import type { AccountReads } from './account-reads.js';
import type { AccountListing } from './accounts.js';
import type { CrawlParts } from './crawl-parts.js';
import type { Carrier } from './incremental/carry.js';
import type { ReadKit } from './reads/zone-read.js';
import { recordsTonight } from './resolve/records-tonight.js';
import type { TargetResolver } from './resolve/resolver.js';

/** The crawler's services as the read modules see them (reads/zone-read.ts), each the part's that does it. */
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
    readZoneList: (zone, key, endpoint, repair) => reader.readList('zone', zone.id, endpoint, () => reader.list(LIST_ENDPOINTS[key], { zone_id: zone.id }, {}, clientOf(zone)), zone.name, repair),
    readObject: (zone, endpoint, path, query, absentCode, repair) => reader.readObject(zone, endpoint, path, query, absentCode, repair),
    readCursorList: (zone, endpoint, path, perPage, repair) => reader.readCursorList(zone, endpoint, path, perPage, repair),
    partition: (kind, scopeId, endpoint) => book.partition(kind, scopeId, endpoint),
    deferred: (err, partition, redo) => book.deferred(err, partition, redo),
    failed: (partition, err, pages, items, name) => book.failed(partition, err, pages, items, name),
    missing: (kind, scopeId, name, endpoint, state, reason, list) => book.missing(kind, scopeId, name, endpoint, state, reason, list),
    skip: (zone, endpoint, why) => book.skip(zone, endpoint, why),
    absent: (zone, endpoint, why) => book.partition('zone', zone.id, endpoint).finish({ state: 'ok', pages: 0, items: 0, message: why }),
    carry: (zone, endpoint) => more.carrier.carry(clientOf(zone), zone, endpoint),
    carrySource: (zone, endpoint) => more.carrier.source(zone, endpoint),
    succeeded: (zone, endpoint) => {
      if (zone && endpoint) book.answered('zone', zone.id, endpoint);
      else credentials.anyReadSucceeded = true;
    },
    readAccountObject: (zone, accountId, endpoint, path, absentCode) => more.accountReads.object(zone, accountId, endpoint, path, absentCode),
    readAccountList: (accountId, endpoint, key) => more.accountReads.list(accountId, endpoint, key),
    readAccountAnswer: (accountId, endpoint, path) => more.accountReads.answer(accountId, endpoint, path),
    readAccountItems: (_zone, accountId, endpoint, fetch) => more.accountReads.itemsOf(accountId, endpoint, fetch),
    hasPartition: (zone, endpoint) => writer.hasPartition('zone', zone.id, endpoint),
    lastAnswered: (zone, endpoint) => writer.lastAnswered('zone', zone.id, endpoint),
    list: (path, endpoint, zone) => reader.listAt(clientOf(zone), path, endpoint),
    itemsReadTonight: (zone, endpoint) => writer.itemsReadTonight(zone.id, endpoint),
    retired: (zone, endpoint) => book.retired(zone.id, endpoint),
    resolver: more.resolver,
    dnsRecordsTonight: (zone) => recordsTonight(writer, zone.id),
  };
}
