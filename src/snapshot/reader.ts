import type { Statement } from 'better-sqlite3';
import { HeapCeiling } from '../common/heap.js';
import { SnapshotError, type Db } from './db.js';
import { SCAN_REF_BASE, scanRef } from './scan-ref.js';
import type { Endpoint, PartitionKind } from './tables.js';
import { byZone, ZoneReadAhead, type ExpectedReads } from './read-ahead.js';
import { inBinaryOrder, jsonFlag, jsonIsOne } from './json-rows.js';
import { canonicalZoneName, parseScope, sameScope, type ScanScope } from './scope.js';
import type { CoverageState } from './writer.js';

/**
 * The typed, read-only view of one scan: the only way the policy engine sees data. A partition
 * the scan did not read completely answers `known: false` with the reason, so a check can say
 * "unknown" instead of passing or failing on data it does not have.
 */

export interface ScanRow {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  status: 'running' | 'complete' | 'incomplete' | 'aborted';
  baseUrl: string;
  scope: ScanScope;
  toolVersion: string;
  summary: unknown;
}

export interface CoverageRow {
  kind: PartitionKind;
  scopeId: string;
  endpoint: Endpoint;
  state: CoverageState;
  httpStatus: number | null;
  apiCode: number | null;
  errorCode: string | null;
  message: string | null;
  pages: number;
  items: number;
  truncated: boolean;
  /**
   * The scan whose read holds this partition's data when this scan carried it forward without
   * reading it again (an incremental scan); null when this scan read it.
   */
  readIn: number | null;
}

export type Readout<T> = { known: true; items: T[] } | { known: false; state: CoverageState | 'not-read'; reason: string };

export interface AccountRow {
  id: string;
  name: string | null;
  type: string | null;
  raw: string;
}
/** A zone row whose raw JSON is read when first asked for (see zones()). */
function withLazyRaw(row: Omit<ZoneRow, 'raw'>, read: () => string): ZoneRow {
  Object.defineProperty(row, LAZY_RAW, { value: { read, raw: undefined } });
  return Object.defineProperty(row, 'raw', RAW_PROPERTY) as ZoneRow;
}

/** Where a zone row keeps how to read its raw JSON, and the JSON once read (not enumerable). */
const LAZY_RAW = Symbol('lazy raw');
type Lazy = { read: () => string; raw: string | undefined };

/**
 * One getter for every zone row: a getter made per row (a closure) gives each row a shape of its
 * own, and every look at 10,000 zones' names and ids then goes the slow way.
 */
const RAW_PROPERTY: PropertyDescriptor = {
  enumerable: true,
  get(this: { [LAZY_RAW]: Lazy }): string {
    const lazy = this[LAZY_RAW];
    return (lazy.raw ??= lazy.read());
  },
};

export interface ZoneRow {
  id: string;
  accountId: string | null;
  name: string;
  status: string | null;
  paused: boolean | null;
  plan: string | null;
  type: string | null;
  raw: string;
}
/** A DNS record's queried columns: what checks use, without the raw JSON (the bulk of a row). */
export interface DnsRecordFields {
  id: string;
  type: string | null;
  name: string | null;
  /** As served: null when the API sent none (a CAA record may come with `data` only). */
  content: string | null;
  /**
   * The record's structured `data` as served (CAA `{flags, tag, value}`), for a record served
   * without content, whose meaning is then there only; null for a record with content (its
   * content says it, and a zone's million records need not carry both) or without data.
   */
  data: Record<string, unknown> | null;
  proxied: boolean | null;
  ttl: number | null;
}
export interface DnsRecordRow extends DnsRecordFields {
  raw: string;
}
export interface FirewallRuleRow {
  id: string;
  action: string | null;
  paused: boolean | null;
  priority: number | null;
  filterId: string | null;
  filterDeleted: boolean;
  raw: string;
}
export interface FilterRow {
  id: string;
  expression: string | null;
  paused: boolean | null;
  raw: string;
}
/** Rows of the other tables: the API's item as served. */
export interface RawRow {
  id: string;
  raw: string;
}

const flag = (v: number | null): boolean | null => (v === null ? null : v === 1);

/** The coverage columns a CoverageRow holds. */
const COVERAGE_COLUMNS = 'kind, scope_id, endpoint, state, http_status, api_code, error_code, message, pages, items, truncated, data_scan';

/** A coverage row read column by column (exported for tests: the JSON the reader builds must give the same). */
export const toCoverage = (r: Record<string, unknown>): CoverageRow => ({
  kind: r['kind'] as PartitionKind,
  scopeId: r['scope_id'] as string,
  endpoint: r['endpoint'] as Endpoint,
  state: r['state'] as CoverageState,
  httpStatus: r['http_status'] as number | null,
  apiCode: r['api_code'] as number | null,
  errorCode: r['error_code'] as string | null,
  message: r['message'] as string | null,
  pages: r['pages'] as number,
  items: r['items'] as number,
  truncated: r['truncated'] === 1,
  readIn: r['data_scan'] === null || r['data_scan'] === undefined ? null : (r['data_scan'] as number) - SCAN_REF_BASE,
});

/** SQL: a coverage row as the JSON of the CoverageRow toCoverage builds (same keys, same order). */
const COVERAGE_JSON = `json_object('kind', kind, 'scopeId', scope_id, 'endpoint', endpoint, 'state', state, 'httpStatus', http_status, 'apiCode', api_code,
  'errorCode', error_code, 'message', message, 'pages', pages, 'items', items, 'truncated', ${jsonIsOne('truncated')},
  'readIn', data_scan - ${SCAN_REF_BASE})`;

/**
 * SQL: a record's `data` object as JSON text, for a record served without content only (see
 * DnsRecordFields.data); only those rows have their raw JSON read.
 */
const DNS_DATA = `CASE WHEN coalesce(content, '') = '' AND json_type(raw, '$.data') = 'object' THEN raw -> '$.data' END`;

/** SQL: a DNS record as the JSON of its DnsRecordFields (same keys, same order); `data`: an expression giving DNS_DATA. */
const dnsFieldsJson = (data: string): string =>
  `json_object('id', item_id, 'type', type, 'name', name, 'content', content, 'data', json(${data}), 'proxied', ${jsonFlag('proxied')}, 'ttl', ttl)`;

/**
 * Rows in one JSON text where a list is read in slices (a zone read alone, the whole coverage):
 * a zone of 440,000 DNS records would otherwise be one text of 60 MB, parsed whole. Small slices
 * keep a text (about 150 bytes a DNS record) under V8's largest regular object (128 KB), so it is
 * collected young: reading that zone alone peaked at 193 MB RSS in slices of 500 records and at
 * 214 MB in slices of 20,000, and took no longer (1.24 s against 1.33 s).
 */
const SLICE_ROWS = 500;

export type ZoneObjectEndpoint = 'migration_status' | 'migration_check' | 'migration_config' | 'entrypoint' | 'zone_settings' | 'dnssec' | 'universal_ssl' | 'custom_entrypoint' | 'account_entrypoint' | 'ratelimit_entrypoint' | 'bot_management' | 'origin_pulls' | 'dns_targets';

/** The endpoints stored in zone_objects: one row each, zone_settings one row per setting. */
const ZONE_OBJECT_ENDPOINTS: readonly Endpoint[] = ['migration_status', 'migration_check', 'migration_config', 'entrypoint', 'zone_settings', 'dnssec', 'universal_ssl', 'custom_entrypoint', 'account_entrypoint', 'ratelimit_entrypoint', 'bot_management', 'origin_pulls', 'dns_targets'];

/** A zone_objects row as read (after its zone_id). */
const ZONE_OBJECT_COLUMNS = 'endpoint, item_id, raw';
type ZoneObjectRow = [zoneId: string, endpoint: string, id: string, raw: string];

/** Told which zone (by id) and which of its endpoints a question was about. */
export type ZoneReadObserver = (zoneId: string, endpoint: string) => void;

export class SnapshotReader {
  readonly scan: ScanRow;
  private scopeCoverage: { key: string; rows: Map<Endpoint, CoverageRow> } | null = null;
  /** The zone objects of the zone asked about last, by endpoint (see zoneObjects). */
  private heldObjects: { zoneId: string; byEndpoint: Map<string, RawRow[]> } | null = null;
  /** Prepared once per query shape: checks call these for every zone of a scan. */
  private readonly statements = new Map<string, Statement>();
  private ahead: ZoneReadAhead | null = null;
  /** Checked every 20 slices of a zone read alone (10,000 records). */
  private readonly heap = new HeapCeiling(96, 20);
  /** Told of every question about a zone's partition (see observeZoneReads). */
  private zoneReads: ZoneReadObserver | null = null;

  constructor(
    private readonly db: Db,
    scanId: number,
  ) {
    const row = db.prepare('SELECT * FROM scans WHERE id = ?').get(scanId) as Record<string, unknown> | undefined;
    if (!row) throw new SnapshotError('ZW_SCAN_MISSING', `there is no scan ${scanId} in this database; zonewarden scans lists them`);
    this.scan = {
      id: row['id'] as number,
      startedAt: row['started_at'] as string,
      finishedAt: row['finished_at'] as string | null,
      status: row['status'] as ScanRow['status'],
      baseUrl: row['base_url'] as string,
      scope: parseScope(row['scope'] as string),
      toolVersion: row['tool_version'] as string,
      summary: row['summary'] === null ? null : JSON.parse(row['summary'] as string),
    };
    if (this.scan.status === 'running' || this.scan.status === 'aborted') {
      throw new SnapshotError('ZW_SCAN_UNUSABLE', `scan ${scanId} is ${this.scan.status}: its data is partial; use a complete or incomplete scan`);
    }
  }

  /**
   * The latest scan with this status (default: complete), or null; with a scope, the latest of
   * that scope only (a one-zone rescan is not the latest scan of the organisation). `before`
   * limits it to scans older than that id.
   */
  static latestScanId(db: Db, statuses: ReadonlyArray<ScanRow['status']> = ['complete'], scope?: ScanScope, before?: number): number | null {
    const rows = db
      .prepare(`SELECT id, scope FROM scans WHERE status IN (${statuses.map(() => '?').join(', ')}) AND id < ? ORDER BY id DESC`)
      .iterate(...statuses, before ?? Number.MAX_SAFE_INTEGER) as Iterable<{ id: number; scope: string }>;
    for (const r of rows) if (scope === undefined || sameScope(parseScope(r.scope), scope)) return r.id;
    return null;
  }

  /**
   * Tells `observer` (null: no one) of each question asked about a zone's partition: whether it
   * was read, and its data. Every read of a zone's lists goes through coverageOf, so the observer
   * learns which endpoints whatever asks (a rule) depends on.
   */
  observeZoneReads(observer: ZoneReadObserver | null): void {
    this.zoneReads = observer;
  }

  /**
   * Tells the reader the order in which zones will be asked about (the audit's), so that it reads
   * each zone list for a run of zones at once (see ZoneReadAhead); null goes back to one zone at a
   * time. What each call returns is the same either way.
   */
  readAhead(zoneIds: readonly string[] | null, expects?: ExpectedReads): void {
    this.ahead = zoneIds ? new ZoneReadAhead(zoneIds, expects) : null;
    this.scopeCoverage = null;
    this.heldObjects = null;
  }

  /** A prepared statement returning rows as objects, as arrays (`raw`), or their first column (`pluck`). */
  private statement(sql: string, mode: 'objects' | 'raw' | 'pluck' = 'objects'): Statement {
    const key = `${mode}:${sql}`;
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (mode === 'raw') statement.raw(true);
      if (mode === 'pluck') statement.pluck(true);
      this.statements.set(key, statement);
    }
    return statement;
  }

  /** The rows of a run of zones: zone_id among the JSON array bound to the first parameter, in the order of the table's (zone_id, item_id) index. */
  private forZones(table: string, columns: string, ref?: number): string {
    return `${this.valid(table, `zone_id, ${columns}`, ref)} AND zone_id IN (SELECT value FROM json_each(?)) ORDER BY zone_id, item_id`;
  }

  /** A zone list's expected size (of one endpoint, or several sharing a table), from the coverage read ahead with it: what bounds a run of zones. */
  private weightOf(...endpoints: Endpoint[]): (zoneId: string) => number | undefined {
    return (zoneId) => {
      const coverage = this.ahead?.peek<CoverageRow>('coverage', zoneId);
      if (coverage === undefined) return undefined;
      let items = 0;
      for (const c of coverage) if (endpoints.includes(c.endpoint)) items += c.items;
      return items;
    };
  }

  /** Where a partition's data lies: this scan's own versions, or those of the scan it was carried from. */
  private dataRef(c: CoverageRow | undefined): number {
    return scanRef(c?.readIn ?? this.scan.id);
  }

  /**
   * The zones of a run grouped by where the data of their partitions of these endpoints lies (see
   * dataRef), from the coverage read ahead with them. A full scan gives one group, this scan; a
   * zone whose partitions were read in different scans is in each of their groups.
   */
  private byDataRef(zoneIds: string[], endpoints: readonly Endpoint[]): Map<number, string[]> {
    const groups = new Map<number, string[]>();
    for (const zoneId of zoneIds) {
      const coverage = this.ahead?.peek<CoverageRow>('coverage', zoneId) ?? [];
      const refs = new Set<number>();
      for (const endpoint of endpoints) refs.add(this.dataRef(coverage.find((c) => c.endpoint === endpoint)));
      for (const ref of refs) {
        let ids = groups.get(ref);
        if (!ids) groups.set(ref, (ids = []));
        ids.push(zoneId);
      }
    }
    return groups;
  }

  /** Runs `load` for each group of byDataRef and merges what each zone got. */
  private loadByDataRef<T>(zoneIds: string[], endpoints: readonly Endpoint[], load: (ids: string[], ref: number) => Map<string, T[]>): Map<string, T[]> {
    const groups = this.byDataRef(zoneIds, endpoints);
    const only = groups.size === 1 ? [...groups][0] : undefined;
    if (only) return load(only[1], only[0]);
    const merged = new Map<string, T[]>();
    for (const [ref, ids] of groups) {
      for (const [zoneId, rows] of load(ids, ref)) {
        const held = merged.get(zoneId);
        if (held) for (const r of rows) held.push(r);
        else merged.set(zoneId, rows);
      }
    }
    return merged;
  }

  private valid(table: string, columns = '*', ref = scanRef(this.scan.id)): string {
    return `SELECT ${columns} FROM ${table} WHERE first_scan <= ${ref} AND last_scan >= ${ref}`;
  }

  /**
   * Everything this scan recorded about what it read (built on each call: at 10,000 zones it is
   * 170,000 rows). In the order of the index on first_scan (rowid within), the order the plain
   * SELECT this replaced was read in; as JSON a slice at a time, one scan's versions after another.
   */
  coverage(onlyUnread = false): CoverageRow[] {
    const ref = scanRef(this.scan.id);
    const nextScan = this.statement(`SELECT min(first_scan) FROM coverage WHERE first_scan > ? AND first_scan <= ${ref}`, 'pluck');
    // Unread: failed, denied, or cut short (what scan-coverage reports): at 10,000 zones a few rows of
    // 200,000, in an index of their own (schema 11), which SQLite would not pick over coverage_first.
    const unread = onlyUnread ? ` AND (state IN ('failed', 'denied') OR (state = 'ok' AND truncated = 1))` : '';
    // ORDER BY inside the aggregate: without it the order of its rows is not documented, and a CoverageRow has no key to check it by.
    const slice = this.statement(
      `SELECT json_group_array(${COVERAGE_JSON} ORDER BY pk), max(pk) FROM (${this.valid(onlyUnread ? 'coverage INDEXED BY coverage_unread' : 'coverage', `pk, ${COVERAGE_COLUMNS}`)}${unread} AND first_scan = ? AND pk > ? ORDER BY pk LIMIT ${SLICE_ROWS})`,
      'raw',
    );
    const rows: CoverageRow[] = [];
    for (let first = nextScan.get(-1) as number | null; first !== null; first = nextScan.get(first) as number | null) {
      // -Infinity: below every rowid (SQLite compares an integer with a real by value).
      for (let after = -Infinity; ; ) {
        const [json, last] = slice.get(first, after) as [string, number | null];
        const parsed = JSON.parse(json) as CoverageRow[];
        for (const row of parsed) rows.push(row);
        if (last === null || parsed.length < SLICE_ROWS) break;
        after = last;
      }
    }
    return rows;
  }

  /**
   * How this scan read one partition, if it did. The rows of one scope (a zone, an account) are
   * loaded together and kept until another scope is asked for: checks go zone by zone, so this
   * holds one zone's rows rather than the whole organisation's.
   */
  coverageOf(kind: PartitionKind, scopeId: string, endpoint: Endpoint): CoverageRow | undefined {
    if (kind === 'zone') this.zoneReads?.(scopeId, endpoint);
    const key = `${kind}|${scopeId}`;
    if (this.scopeCoverage?.key !== key) {
      const ahead = kind === 'zone' ? this.ahead?.rows('coverage', scopeId, (ids) => this.runCoverage(ids), { keep: true }) : undefined;
      const rows = ahead ?? (this.statement(`${this.valid('coverage', COVERAGE_COLUMNS)} AND kind = ? AND scope_id = ?`).all(kind, scopeId) as Array<Record<string, unknown>>).map(toCoverage);
      this.scopeCoverage = { key, rows: new Map(rows.map((r) => [r.endpoint, r])) };
    }
    return this.scopeCoverage.rows.get(endpoint);
  }

  /**
   * When a partition's data was read: the start of the scan whose read holds it (this one, or the
   * one it was carried from); null when this scan has no record of the partition.
   */
  readStartedAt(kind: PartitionKind, scopeId: string, endpoint: Endpoint): string | null {
    const c = this.coverageOf(kind, scopeId, endpoint);
    if (!c) return null;
    if (c.readIn === null || c.readIn === this.scan.id) return this.scan.startedAt;
    return (this.statement('SELECT started_at FROM scans WHERE id = ?', 'pluck').get(c.readIn) as string | undefined) ?? null;
  }

  /** The coverage of a run of zones, one JSON array a zone (17 rows of 11 columns each at most). */
  private runCoverage(zoneIds: string[]): Map<string, CoverageRow[]> {
    const sql = `${this.valid('coverage', `scope_id, json_group_array(${COVERAGE_JSON})`)} AND kind = 'zone' AND scope_id IN (SELECT value FROM json_each(?)) GROUP BY scope_id`;
    return parsedByZone<CoverageRow>(this.statement(sql, 'raw').iterate(JSON.stringify(zoneIds)) as Iterable<[string, string]>);
  }

  private readout<T>(kind: PartitionKind, scopeId: string, endpoint: Endpoint, load: (ref: number) => T[]): Readout<T> {
    const c = this.coverageOf(kind, scopeId, endpoint);
    if (!c) return { known: false, state: 'not-read', reason: `${endpoint} was not read in scan ${this.scan.id}` };
    if (c.state !== 'ok' || c.truncated) {
      const why = c.message ?? (c.truncated ? 'the list was truncated' : c.state);
      return { known: false, state: c.truncated && c.state === 'ok' ? 'failed' : c.state, reason: `${endpoint}: ${why}` };
    }
    return { known: true, items: load(this.dataRef(c)) };
  }

  accounts(): Readout<AccountRow> {
    return this.readout('user', '', 'accounts', () =>
      (this.db.prepare(this.valid('accounts', 'item_id, name, type, raw')).all() as Array<Record<string, unknown>>).map((r) => ({
        id: r['item_id'] as string,
        name: r['name'] as string | null,
        type: r['type'] as string | null,
        raw: r['raw'] as string,
      })),
    );
  }

  invites(): Readout<RawRow> {
    return this.readout('user', '', 'invites', (ref) => this.rawRows('invites', 'scope_id', '', ref));
  }

  /** Items an account holds, as this scan read them (account_objects, one row per item): its open security insights, say. */
  accountObjects(accountId: string, endpoint: Endpoint): Readout<RawRow> {
    return this.readout('account', accountId, endpoint, (ref) =>
      (this.statement(`${this.valid('account_objects', 'item_id, raw', ref)} AND scope_id = ? AND endpoint = ? ORDER BY pk`).all(accountId, endpoint) as Array<Record<string, unknown>>).map((r) => ({
        id: r['item_id'] as string,
        raw: r['raw'] as string,
      })),
    );
  }

  /** Zones this scan read, by name. */
  zones(): ZoneRow[] {
    // Without raw, the bulk of a row (a kilobyte or two): read when a zone's is asked for. An audit
    // of a night judges a few hundred zones of 10,000 and needs only the others' ids and names.
    // Each zone's coverage row is found by the partition index: a pass over every zone partition's
    // rows (200,000 at 10,000 zones) cost more. Rows as one JSON array of arrays (see json-rows.ts):
    // 10,000 rows of eight columns handed over one by one cost about 2.5 times as much.
    const ref = scanRef(this.scan.id);
    const read = `EXISTS (SELECT 1 FROM coverage c WHERE c.kind = 'zone' AND c.scope_id = zones.item_id AND c.endpoint = 'zone' AND c.first_scan <= ${ref} AND c.last_scan >= ${ref} AND c.state = 'ok')`;
    const listing = this.statement(`${this.valid('zones', 'json_group_array(json_array(pk, item_id, account_id, name, status, paused, plan, type) ORDER BY name)')} AND ${read}`, 'pluck');
    const rows = JSON.parse(listing.get() as string) as Array<[number, string, string | null, string, string | null, number | null, string | null, string | null]>;
    const rawOf = this.statement('SELECT raw FROM zones WHERE pk = ?', 'pluck');
    // A scoped scan read only the zones in its scope; versions of others may span it.
    const { accounts, zones } = this.scan.scope;
    const inScope = ([, , accountId, name]: (typeof rows)[number]) =>
      (zones.length === 0 || zones.includes(canonicalZoneName(name))) && (accounts.length === 0 || accounts.includes(accountId as string));
    return rows
      .filter(inScope)
      .map(([pk, id, accountId, name, status, paused, plan, type]) => withLazyRaw({ id, accountId, name, status, paused: flag(paused), plan, type }, () => rawOf.get(pk) as string));
  }



  /** Whether the scan read the account's zone list completely (else its zones are not all known). */
  zoneListing(accountId: string): CoverageRow | undefined {
    return this.coverageOf('account', accountId, 'zones');
  }

  dnsRecords(zoneId: string): Readout<DnsRecordRow> {
    return this.readout('zone', zoneId, 'dns_records', (ref) =>
      this.rows('dns_records', 'zone_id', zoneId, `item_id, type, name, content, ${DNS_DATA} AS data, proxied, ttl, raw`, ref).map((r) => ({
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

  /**
   * DNS records without their raw JSON: a zone can hold a million, and checks need the columns
   * only. Built by SQLite as JSON (see json-rows.ts) and parsed into the records themselves, with
   * no row objects in between; in item_id order, as the table's index gives them.
   */
  dnsRecordFields(zoneId: string): Readout<DnsRecordFields> {
    const weight = this.weightOf('dns_records');
    return this.readout(
      'zone',
      zoneId,
      'dns_records',
      (ref) => this.ahead?.rows('dns_records:fields', zoneId, (ids) => this.loadByDataRef(ids, ['dns_records'], (group, r) => this.runDnsFields(group, r)), { weight, endpoints: ['dns_records'] }) ?? this.zoneDnsFields(zoneId, ref),
    );
  }

  /**
   * The DNS fields of a run of zones (a row budget's worth, see ZoneReadAhead), one JSON array a
   * zone; a run of one zone, which may be larger than the budget, in slices.
   */
  private runDnsFields(zoneIds: string[], ref: number): Map<string, DnsRecordFields[]> {
    if (zoneIds.length === 1) return new Map([[zoneIds[0]!, this.zoneDnsFields(zoneIds[0]!, ref)]]);
    const sql = `${this.valid('dns_records', `zone_id, json_group_array(${dnsFieldsJson(DNS_DATA)})`, ref)} AND zone_id IN (SELECT value FROM json_each(?)) GROUP BY zone_id`;
    const zones = parsedByZone<DnsRecordFields>(this.statement(sql, 'raw').iterate(JSON.stringify(zoneIds)) as Iterable<[string, string]>);
    const contents = new Map<string, string>();
    for (const [zoneId, records] of zones) {
      // Out of order: read again, in slices that SQLite orders, now that the query is done (a connection runs one at a time).
      if (inItemOrder(records)) shareContents(records, contents);
      else zones.set(zoneId, this.zoneDnsFields(zoneId, ref));
    }
    return zones;
  }

  /**
   * The DNS fields of one zone, SLICE_ROWS records at a time after the greatest item id read. A
   * zone holds one version of an item in a scan (the writer stores an item served twice once), so
   * item ids are unique and `item_id > last` neither skips nor repeats one. That id comes back as
   * its stored bytes (a BLOB), which text that is not valid UTF-8 would not survive as a string.
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
    const slice = `${this.valid('dns_records', `item_id, type, name, content, ${DNS_DATA} AS data, proxied, ttl`, ref)} AND zone_id = ?${after ? ' AND item_id > CAST(? AS TEXT)' : ''} ORDER BY item_id LIMIT ${SLICE_ROWS}`;
    return this.statement(`SELECT json_group_array(${dnsFieldsJson('data')}${ordered ? ' ORDER BY item_id' : ''}), CAST(max(item_id) AS BLOB) FROM (${slice})`, 'raw');
  }

  firewallRules(zoneId: string): Readout<FirewallRuleRow> {
    return this.readout('zone', zoneId, 'firewall_rules', (ref) =>
      this.rows('firewall_rules', 'zone_id', zoneId, 'item_id, action, paused, priority, filter_id, filter_deleted, raw', ref).map((r) => ({
        id: r['item_id'] as string,
        action: r['action'] as string | null,
        paused: flag(r['paused'] as number | null),
        priority: r['priority'] as number | null,
        filterId: r['filter_id'] as string | null,
        filterDeleted: r['filter_deleted'] === 1,
        raw: r['raw'] as string,
      })),
    );
  }

  filters(zoneId: string): Readout<FilterRow> {
    return this.readout('zone', zoneId, 'filters', (ref) =>
      this.rows('filters', 'zone_id', zoneId, 'item_id, expression, paused, raw', ref).map((r) => ({
        id: r['item_id'] as string,
        expression: r['expression'] as string | null,
        paused: flag(r['paused'] as number | null),
        raw: r['raw'] as string,
      })),
    );
  }

  certificatePacks(zoneId: string): Readout<RawRow> {
    return this.readout('zone', zoneId, 'certificate_packs', (ref) => this.rawRows('certificate_packs', 'zone_id', zoneId, ref));
  }

  wafPackages(zoneId: string): Readout<RawRow> {
    return this.readout('zone', zoneId, 'waf_packages', (ref) => this.rawRows('waf_packages', 'zone_id', zoneId, ref));
  }

  wafGroups(zoneId: string): Readout<RawRow> {
    return this.readout('zone', zoneId, 'waf_groups', (ref) => this.rawRows('waf_groups', 'zone_id', zoneId, ref));
  }

  wafRules(zoneId: string): Readout<RawRow> {
    return this.readout('zone', zoneId, 'waf_rules', (ref) => this.rawRows('waf_rules', 'zone_id', zoneId, ref));
  }

  wafOverrides(zoneId: string): Readout<RawRow> {
    return this.readout('zone', zoneId, 'waf_overrides', (ref) => this.rawRows('waf_overrides', 'zone_id', zoneId, ref));
  }

  /** A single-object endpoint of a zone (migration status, check, config, entry points, DNSSEC...), or the zone's settings, one row each. */
  zoneObject(zoneId: string, endpoint: ZoneObjectEndpoint): Readout<RawRow> {
    // A copy: the rows are held for the zone's other questions, and a caller may sort what it gets.
    return this.readout('zone', zoneId, endpoint, () => this.zoneObjects(zoneId).get(endpoint)?.slice() ?? []);
  }

  /**
   * Every zone object of a zone, by endpoint, in item_id order. A zone has a dozen (one per
   * endpoint, one per setting) and the rules ask for each: read in one query (for a run of zones
   * when read ahead) and held until another zone is asked about, rather than one query an
   * endpoint, each of which walked all the run's objects to find its endpoint in the table.
   */
  private zoneObjects(zoneId: string): Map<string, RawRow[]> {
    if (this.heldObjects?.zoneId !== zoneId) {
      const weight = this.weightOf(...ZONE_OBJECT_ENDPOINTS);
      const rows = this.ahead?.rows('zone_objects', zoneId, (ids) => this.runZoneObjects(ids), { weight, endpoints: ZONE_OBJECT_ENDPOINTS }) ?? this.oneZoneObjects(zoneId);
      this.heldObjects = { zoneId, byEndpoint: byZone(rows, (r) => r[1], (r): RawRow => ({ id: r[2], raw: r[3] })) };
    }
    return this.heldObjects.byEndpoint;
  }

  /** The zone objects of a zone read alone: at each data reference its partitions have, the rows of the endpoints read there. */
  private oneZoneObjects(zoneId: string): ZoneObjectRow[] {
    const refOf = (endpoint: string) => this.dataRef(this.coverageOf('zone', zoneId, endpoint as Endpoint));
    const refs = new Set(ZONE_OBJECT_ENDPOINTS.map(refOf));
    const rows: ZoneObjectRow[] = [];
    for (const ref of refs) {
      const sql = `${this.valid('zone_objects', `zone_id, ${ZONE_OBJECT_COLUMNS}`, ref)} AND zone_id = ? ORDER BY item_id`;
      for (const r of this.statement(sql, 'raw').all(zoneId) as ZoneObjectRow[]) if (refs.size === 1 || refOf(r[1]) === ref) rows.push(r);
    }
    return rows;
  }

  /** The zone objects of a run of zones, every endpoint in one query (one per data reference, see byDataRef). */
  private runZoneObjects(zoneIds: string[]): Map<string, ZoneObjectRow[]> {
    const groups = this.byDataRef(zoneIds, ZONE_OBJECT_ENDPOINTS);
    const single = groups.size === 1;
    const rows: ZoneObjectRow[] = [];
    for (const [ref, ids] of groups) {
      for (const r of this.statement(this.forZones('zone_objects', ZONE_OBJECT_COLUMNS, ref), 'raw').iterate(JSON.stringify(ids)) as Iterable<ZoneObjectRow>) {
        // Rows of an endpoint read in another scan than this group's belong to that scan's group.
        if (single || this.dataRef(this.ahead?.peek<CoverageRow>('coverage', r[0])?.find((c) => c.endpoint === r[1])) === ref) rows.push(r);
      }
    }
    return byZone(rows, (r) => r[0], (r) => r);
  }

  /** Rows (the named columns) of a table valid at `ref` for one scope, in item_id order when read ahead. */
  private rows(table: string, scopeColumn: string, scopeId: string, columns: string, ref: number): Array<Record<string, unknown>> {
    const ahead =
      scopeColumn === 'zone_id'
        ? this.ahead?.rows(
            table,
            scopeId,
            (ids) =>
              this.loadByDataRef(ids, [table as Endpoint], (group, r) =>
                byZone(this.statement(this.forZones(table, columns, r)).iterate(JSON.stringify(group)) as Iterable<Record<string, unknown>>, (row) => row['zone_id'] as string, (row) => row),
              ),
            { weight: this.weightOf(table as Endpoint), endpoints: [table] },
          )
        : undefined;
    return ahead ?? (this.statement(`${this.valid(table, columns, ref)} AND ${scopeColumn} = ?`).all(scopeId) as Array<Record<string, unknown>>);
  }

  private rawRows(table: string, scopeColumn: string, scopeId: string, ref: number): RawRow[] {
    return this.rows(table, scopeColumn, scopeId, 'item_id, raw', ref).map((r) => ({ id: r['item_id'] as string, raw: r['raw'] as string }));
  }

  /**
   * When scans first saw each certificate pack of a zone: by pack id, the start (`started_at`) of
   * the earliest scan, up to this one, inside the range [first_scan, last_scan] of a stored version
   * of the pack. That is the scan that first stored the pack, unless retention (prune) deleted it;
   * then it is the earliest kept scan the version still spans, later than the true first sighting,
   * so an age worked out from it is never too long. Dates a pack the API lists without `created_on`.
   */
  certificatePackFirstSeen(zoneId: string): Map<string, string> {
    this.zoneReads?.(zoneId, 'certificate_packs');
    const base = scanRef(0);
    const sql = `SELECT f.item_id, s.started_at FROM (
        SELECT p.item_id, min(k.id) AS first_id FROM certificate_packs p
        JOIN scans k ON k.id BETWEEN p.first_scan - ${base} AND min(p.last_scan - ${base}, ?)
        WHERE p.zone_id = ? AND p.first_scan <= ? GROUP BY p.item_id
      ) f JOIN scans s ON s.id = f.first_id`;
    const rows = this.statement(sql, 'raw').all(this.scan.id, zoneId, scanRef(this.scan.id)) as Array<[string, string]>;
    return new Map(rows);
  }
}

/** Whether DNS records came in item_id order (see inBinaryOrder). */
const inItemOrder = (records: DnsRecordFields[]): boolean => inBinaryOrder(records, (r) => r.id);

/**
 * Makes the records' equal contents one string. JSON.parse, like better-sqlite3, makes a string of
 * every value (but short ones of 10 characters at most, which V8 shares), and records of a zone
 * often point at the same address or name: the largest zone of the 5-zone test organisation has
 * 110,000 distinct contents in 438,000 records, and sharing them took its audit's peak RSS from
 * 356-358 MiB to 301-321 MiB.
 */
function shareContents(records: DnsRecordFields[], contents: Map<string, string>): void {
  for (const r of records) {
    if (r.content === null) continue;
    const shared = contents.get(r.content);
    if (shared === undefined) contents.set(r.content, r.content);
    else r.content = shared;
  }
}

/** Rows of (zone id, JSON array of that zone's rows), parsed, by zone. */
function parsedByZone<T>(rows: Iterable<[string, string]>): Map<string, T[]> {
  const parsed = new Map<string, T[]>();
  for (const [zoneId, json] of rows) parsed.set(zoneId, JSON.parse(json) as T[]);
  return parsed;
}
