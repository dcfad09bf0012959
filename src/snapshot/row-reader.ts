import type { Db } from './db.js';
import { scanRef } from './scan-ref.js';
import type { Partition } from './tables.js';
import { byZone } from './read-ahead.js';
import { canonicalZoneName } from './scope.js';
import { loadByDataRef } from './data-ref.js';
import { CoverageReader } from './coverage-reader.js';
import type { Readout } from './coverage-row.js';
import { flag, openScanRow, ScanView, type ScanRow } from './scan-view.js';

/** The rows of the tables read per scope, each a Readout of its partition (a run of zones at once when reading ahead). */

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

/** One getter for every zone row: a closure per row gives each its own shape, and looks at 10,000 zones go the slow way. */
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

/** An account's list of at most this many items is read by key rather than in the index's order (see accountObjects). */
const SHORT_ACCOUNT_LIST = 1_000;

export class RowReader {
  constructor(
    private readonly view: ScanView,
    private readonly coverage: CoverageReader,
  ) {}

  /** The rows of scan `scanId` alone (what a scan holds, for choosing a scan: see scan-choice.ts); refused as SnapshotReader refuses it. */
  static open(db: Db, scanId: number): RowReader {
    const view = new ScanView(db, openScanRow(db, scanId));
    return new RowReader(view, new CoverageReader(view));
  }

  get scan(): ScanRow {
    return this.view.scan;
  }

  accounts(): Readout<AccountRow> {
    const sql = this.view.valid('accounts', 'item_id AS id, name, type, raw');
    return this.coverage.readout('user', '', 'accounts', () => this.view.db.prepare(sql).all() as AccountRow[]);
  }

  invites(): Readout<RawRow> {
    return this.coverage.readout('user', '', 'invites', (ref) => this.rawRows('invites', 'scope_id', '', ref));
  }

  /** A list of an account stored one row per item (account_objects), in item order. */
  accountObjects(accountId: string, partition: Partition): Readout<RawRow> {
    return this.coverage.readout('account', accountId, partition, (ref) => {
      // The index is by account and item, not endpoint: a short list beside a long one (the vendor's
      // insights, 100,000 rows an account) is found by visiting every row of the account. In index
      // order that reads pages at random; by key, each page once, then SQLite sorts the few rows.
      const short = (this.coverage.coverageOf('account', accountId, partition)?.items ?? Infinity) <= SHORT_ACCOUNT_LIST;
      const rows = short
        ? `SELECT item_id, raw FROM account_objects WHERE pk IN (SELECT pk FROM account_objects WHERE scope_id = ?) AND first_scan <= ${ref} AND last_scan >= ${ref} AND endpoint = ? ORDER BY item_id, pk`
        : `${this.view.valid('account_objects', 'item_id, raw', ref)} AND scope_id = ? AND endpoint = ? ORDER BY item_id`;
      return (this.view.statement(rows, 'raw').all(accountId, partition) as Array<[string, string]>).map(([id, raw]) => ({ id, raw }));
    });
  }

  /** Zones this scan read, by name. */
  zones(): ZoneRow[] {
    // Without raw, the bulk of a row, read when asked for. Each zone's coverage row is found by the
    // partition index (a pass over 200,000 rows cost more). One JSON array (json-rows.ts): 10,000
    // rows handed over one by one cost about 2.5 times as much.
    const view = this.view;
    const ref = scanRef(view.scan.id);
    const read = `EXISTS (SELECT 1 FROM coverage c WHERE c.kind = 'zone' AND c.scope_id = zones.item_id AND c.endpoint = 'zone' AND c.first_scan <= ${ref} AND c.last_scan >= ${ref} AND c.state = 'ok')`;
    const listing = view.statement(`${view.valid('zones', 'json_group_array(json_array(pk, item_id, account_id, name, status, paused, plan, type) ORDER BY name)')} AND ${read}`, 'pluck');
    const rows = JSON.parse(listing.get() as string) as Array<[number, string, string | null, string, string | null, number | null, string | null, string | null]>;
    const rawOf = view.statement('SELECT raw FROM zones WHERE pk = ?', 'pluck');
    // A scoped scan read only the zones in its scope; versions of others may span it.
    const { accounts, zones } = view.scan.scope;
    const inScope = ([, , accountId, name]: (typeof rows)[number]) =>
      (zones.length === 0 || zones.includes(canonicalZoneName(name))) && (accounts.length === 0 || accounts.includes(accountId as string));
    return rows
      .filter(inScope)
      .map(([pk, id, accountId, name, status, paused, plan, type]) => withLazyRaw({ id, accountId, name, status, paused: flag(paused), plan, type }, () => rawOf.get(pk) as string));
  }

  firewallRules(zoneId: string): Readout<FirewallRuleRow> {
    return this.coverage.readout('zone', zoneId, 'firewall_rules', (ref) =>
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
    return this.coverage.readout('zone', zoneId, 'filters', (ref) =>
      this.rows('filters', 'zone_id', zoneId, 'item_id, expression, paused, raw', ref).map((r) => ({
        id: r['item_id'] as string,
        expression: r['expression'] as string | null,
        paused: flag(r['paused'] as number | null),
        raw: r['raw'] as string,
      })),
    );
  }

  /** A zone list stored as the API served its items (certificate packs, WAF packages, groups, rules, overrides). */
  zoneRawRows(zoneId: string, partition: 'certificate_packs' | 'waf_packages' | 'waf_groups' | 'waf_rules' | 'waf_overrides'): Readout<RawRow> {
    return this.coverage.readout('zone', zoneId, partition, (ref) => this.rawRows(partition, 'zone_id', zoneId, ref));
  }

  /** Rows (the named columns) of a table valid at `ref` for one scope, in item_id order when read ahead. */
  rows(table: string, scopeColumn: string, scopeId: string, columns: string, ref: number): Array<Record<string, unknown>> {
    const view = this.view;
    const ahead =
      scopeColumn === 'zone_id'
        ? view.ahead?.rows(
            table,
            scopeId,
            (ids) =>
              loadByDataRef(view, ids, [table as Partition], (group, r) =>
                byZone(view.statement(view.forZones(table, columns, r)).iterate(JSON.stringify(group)) as Iterable<Record<string, unknown>>, (row) => row['zone_id'] as string, (row) => row),
              ),
            { weight: view.weightOf(table as Partition) },
          )
        : undefined;
    return ahead ?? (view.statement(`${view.valid(table, columns, ref)} AND ${scopeColumn} = ?`).all(scopeId) as Array<Record<string, unknown>>);
  }

  private rawRows(table: string, scopeColumn: string, scopeId: string, ref: number): RawRow[] {
    return this.rows(table, scopeColumn, scopeId, 'item_id, raw', ref).map((r) => ({ id: r['item_id'] as string, raw: r['raw'] as string }));
  }

  /** See SnapshotReader.certificatePackFirstSeen. */
  certificatePackFirstSeen(zoneId: string): Map<string, string> {
    const base = scanRef(0);
    const sql = `SELECT f.item_id, s.started_at FROM (
        SELECT p.item_id, min(k.id) AS first_id FROM certificate_packs p
        JOIN scans k ON k.id BETWEEN p.first_scan - ${base} AND min(p.last_scan - ${base}, ?)
        WHERE p.zone_id = ? AND p.first_scan <= ? GROUP BY p.item_id
      ) f JOIN scans s ON s.id = f.first_id`;
    const rows = this.view.statement(sql, 'raw').all(this.view.scan.id, zoneId, scanRef(this.view.scan.id)) as Array<[string, string]>;
    return new Map(rows);
  }
}
