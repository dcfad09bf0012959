import type { Statement } from 'better-sqlite3';
import { HeapCeiling } from '../common/heap.js';
import { inBinaryOrder, jsonFlag } from './json-rows.js';
import { loadByDataRef } from './data-ref.js';
import type { CoverageReader } from './coverage-reader.js';
import type { Readout } from './coverage-row.js';
import type { RowReader } from './row-reader.js';
import { flag, parsedByZone, SLICE_ROWS, type ScanView } from './scan-view.js';
import type { DnsRecordFields } from '../cloudflare/dns/record.js';

export type { DnsRecordFields };

/** A zone's DNS records, with raw JSON or as the fields checks use: a run of zones at once, or a zone alone in slices. */

export interface DnsRecordRow extends DnsRecordFields {
  raw: string;
}

/** SQL: a record's `data` object as JSON, for a record served without content only (DnsRecordFields.data). */
const DNS_DATA = `CASE WHEN coalesce(content, '') = '' AND json_type(raw, '$.data') = 'object' THEN raw -> '$.data' END`;

/** SQL: a DNS record as the JSON of its DnsRecordFields (same keys, same order); `data`: an expression giving DNS_DATA. */
const dnsFieldsJson = (data: string): string =>
  `json_object('id', item_id, 'type', type, 'name', name, 'content', content, 'data', json(${data}), 'proxied', ${jsonFlag('proxied')}, 'ttl', ttl)`;

export class DnsReader {
  /** Checked every 20 slices of a zone read alone (10,000 records). */
  private readonly heap = new HeapCeiling(96, 20);

  constructor(
    private readonly view: ScanView,
    private readonly coverage: CoverageReader,
    private readonly tables: RowReader,
  ) {}

  dnsRecords(zoneId: string): Readout<DnsRecordRow> {
    return this.coverage.readout('zone', zoneId, 'dns_records', (ref) =>
      this.tables.rows('dns_records', 'zone_id', zoneId, `item_id, type, name, content, ${DNS_DATA} AS data, proxied, ttl, raw`, ref).map((r) => ({
        id: r['item_id'] as string,
        type: r['type'] as string | null,
        name: r['name'] as string | null,
        content: r['content'] as string | null,
        data: r['data'] === null ? null : (JSON.parse(r['data'] as string) as Record<string, unknown>),
        proxied: flag(r['proxied'] as number | null),
        ttl: r['ttl'] as number | null,
        raw: r['raw'] as string,
      })),
    );
  }

  /** DNS records without raw JSON (a zone can hold a million), built as JSON by SQLite (json-rows.ts), in item_id order. */
  dnsRecordFields(zoneId: string): Readout<DnsRecordFields> {
    const view = this.view;
    const weight = view.weightOf('dns_records');
    return this.coverage.readout(
      'zone',
      zoneId,
      'dns_records',
      (ref) => view.ahead?.rows('dns_records:fields', zoneId, (ids) => loadByDataRef(view, ids, ['dns_records'], (group, r) => this.runDnsFields(group, r)), { weight }) ?? this.zoneDnsFields(zoneId, ref),
    );
  }

  /** The DNS fields of a run of zones, one JSON array a zone; a run of one zone (maybe over the budget) in slices. */
  private runDnsFields(zoneIds: string[], ref: number): Map<string, DnsRecordFields[]> {
    if (zoneIds.length === 1) return new Map([[zoneIds[0]!, this.zoneDnsFields(zoneIds[0]!, ref)]]);
    const sql = `${this.view.valid('dns_records', `zone_id, json_group_array(${dnsFieldsJson(DNS_DATA)})`, ref)} AND zone_id IN (SELECT value FROM json_each(?)) GROUP BY zone_id`;
    const zones = parsedByZone<DnsRecordFields>(this.view.statement(sql, 'raw').iterate(JSON.stringify(zoneIds)) as Iterable<[string, string]>);
    const contents = new Map<string, string>();
    for (const [zoneId, records] of zones) {
      // Out of order: read again, in slices that SQLite orders, now that the query is done (a connection runs one at a time).
      if (inItemOrder(records)) shareContents(records, contents);
      else zones.set(zoneId, this.zoneDnsFields(zoneId, ref));
    }
    return zones;
  }

  /**
   * The DNS fields of one zone, SLICE_ROWS at a time after the greatest item id read: ids are unique
   * in a scan, so `item_id > last` skips and repeats none. It comes back as a BLOB: text that is not
   * valid UTF-8 would not survive as a string.
   */
  private zoneDnsFields(zoneId: string, ref: number): DnsRecordFields[] {
    const records: DnsRecordFields[] = [];
    const contents = new Map<string, string>();
    let last: Buffer | null = null;
    for (;;) {
      const params = last === null ? [zoneId] : [zoneId, last];
      const [json, greatest] = this.dnsSlice(false, last !== null, ref).get(...params) as [string, Buffer | null];
      let slice = JSON.parse(json) as DnsRecordFields[];
      if (!inItemOrder(slice)) slice = JSON.parse((this.dnsSlice(true, last !== null, ref).get(...params) as [string])[0]) as DnsRecordFields[];
      shareContents(slice, contents);
      for (const r of slice) records.push(r);
      if (slice.length < SLICE_ROWS) return records;
      // Each slice leaves its text and parse behind: a zone of 440,000 records, 130 MB of garbage.
      this.heap.check();
      last = greatest;
    }
  }

  /** The query of a slice of a zone's DNS fields, the first or one after an item id; `ordered`: with the order inside the aggregate. */
  private dnsSlice(ordered: boolean, after: boolean, ref: number): Statement {
    const slice = `${this.view.valid('dns_records', `item_id, type, name, content, ${DNS_DATA} AS data, proxied, ttl`, ref)} AND zone_id = ?${after ? ' AND item_id > CAST(? AS TEXT)' : ''} ORDER BY item_id LIMIT ${SLICE_ROWS}`;
    return this.view.statement(`SELECT json_group_array(${dnsFieldsJson('data')}${ordered ? ' ORDER BY item_id' : ''}), CAST(max(item_id) AS BLOB) FROM (${slice})`, 'raw');
  }
}

/** Whether DNS records came in item_id order (see inBinaryOrder). */
const inItemOrder = (records: DnsRecordFields[]): boolean => inBinaryOrder(records, (r) => r.id);

/**
 * Makes the records' equal contents one string: JSON.parse makes a string of every value, and
 * records often share an address (110,000 contents in 438,000 records of the test organisation's
 * largest zone); sharing took its audit's peak RSS from 356-358 MiB to 301-321 MiB.
 */
function shareContents(records: DnsRecordFields[], contents: Map<string, string>): void {
  for (const r of records) {
    if (r.content === null) continue;
    const shared = contents.get(r.content);
    if (shared === undefined) contents.set(r.content, r.content);
    else r.content = shared;
  }
}
