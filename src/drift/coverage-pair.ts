import type { Named } from '../policy/findings.js';
import type { Db } from '../snapshot/db.js';
import type { SnapshotReader } from '../snapshot/reader.js';
import { scanRef } from '../snapshot/scan-ref.js';
import type { Partition, PartitionKind } from '../snapshot/tables.js';
import type { CoverageState } from '../snapshot/writer.js';

/**
 * What each of two scans read, to decide what can be compared. A partition can be compared when both
 * scans read it whole, or knew it to be empty (the crawler skips, say, the legacy WAF of a migrated
 * zone). A zone is present in a scan that read its record, absent when the scan read the listing that
 * would have held it (or the account list without its account), outside a scoped scan's scope, else unread.
 */

export type Presence = 'present' | 'absent' | 'outside' | 'unread';

export interface ZoneInfo {
  id: string;
  name: string;
  accountId: string | null;
}

export const partitionKey = (kind: PartitionKind, scopeId: string, partition: Partition): string => `${kind}|${scopeId}|${partition}`;

/** What a scan read of one partition: the columns of its coverage row that drift needs. */
export interface PartitionRead {
  state: CoverageState;
  truncated: boolean;
  items: number;
  message: string | null;
}

export class ScanCoverage {
  /** By scope, then endpoint: the endpoints of a user, an account and a zone are distinct, so the kind is implied. */
  private readonly byScope = new Map<string, Map<Partition, PartitionRead>>();
  private readonly zones = new Set<string>();
  private accounts: Set<string> | null = null;

  private constructor(readonly reader: SnapshotReader) {}

  /** Both scans' coverage in one pass: a partition read alike in both is one row spanning them (130,000 rows at 10,000 zones). */
  static pair(db: Db, from: SnapshotReader, to: SnapshotReader): { from: ScanCoverage; to: ScanCoverage } {
    const pair = { from: new ScanCoverage(from), to: new ScanCoverage(to) };
    const [f, t] = [scanRef(from.scan.id), scanRef(to.scan.id)];
    const rows = db
      .prepare(
        `SELECT kind, scope_id, endpoint, state, truncated, items, message, first_scan <= ? AND last_scan >= ? AS in_from, first_scan <= ? AND last_scan >= ? AS in_to
         FROM coverage WHERE (first_scan <= ? AND last_scan >= ?) OR (first_scan <= ? AND last_scan >= ?)`,
      )
      .raw()
      .iterate(f, f, t, t, f, f, t, t) as Iterable<[PartitionKind, string, Partition, CoverageState, number, number, string | null, number, number]>;
    for (const [kind, scopeId, endpoint, state, truncated, items, message, inFrom, inTo] of rows) {
      const read: PartitionRead = { state, truncated: truncated === 1, items, message };
      if (inFrom) pair.from.add(kind, scopeId, endpoint, read);
      if (inTo) pair.to.add(kind, scopeId, endpoint, read);
    }
    for (const side of [pair.from, pair.to]) {
      const ref = scanRef(side.scanId);
      side.accounts = side.usable(side.get('', 'accounts'))
        ? new Set((db.prepare('SELECT item_id FROM accounts WHERE first_scan <= ? AND last_scan >= ?').all(ref, ref) as Array<{ item_id: string }>).map((r) => r.item_id))
        : null;
    }
    return pair;
  }

  private add(kind: PartitionKind, scopeId: string, partition: Partition, read: PartitionRead): void {
    let scope = this.byScope.get(scopeId);
    if (!scope) this.byScope.set(scopeId, (scope = new Map()));
    scope.set(partition, read);
    if (kind === 'zone') this.zones.add(scopeId);
  }

  get scanId(): number {
    return this.reader.scan.id;
  }

  get(scopeId: string, partition: Partition): PartitionRead | undefined {
    return this.byScope.get(scopeId)?.get(partition);
  }

  /** Read whole, or known to be empty. */
  usable(row: PartitionRead | undefined): boolean {
    return row !== undefined && ((row.state === 'ok' && !row.truncated) || row.state === 'skipped');
  }

  /** Why a partition cannot be used, for a person. */
  why(row: PartitionRead | undefined, what: string): { state: CoverageState | 'not-read'; reason: string } {
    if (!row) return { state: 'not-read', reason: `scan ${this.scanId} did not read the ${what}` };
    if (row.truncated && row.state === 'ok') return { state: 'failed', reason: `scan ${this.scanId} read the ${what} only in part (the list was truncated)` };
    return { state: row.state, reason: `scan ${this.scanId} could not read the ${what}: ${row.message ?? row.state}` };
  }

  zoneIds(): string[] {
    return [...this.zones];
  }

  presence(zone: ZoneInfo): Presence {
    if (this.get(zone.id, 'zone')?.state === 'ok') return 'present';
    const { zones, accounts } = this.reader.scan.scope;
    if ((zones.length > 0 && !zones.includes(zone.name)) || (accounts.length > 0 && (zone.accountId === null || !accounts.includes(zone.accountId)))) return 'outside';
    if (zone.accountId !== null) {
      if (this.accounts && !this.accounts.has(zone.accountId)) return 'absent';
      if (this.usable(this.get(zone.accountId, 'zones'))) return 'absent';
    }
    return 'unread';
  }

  /** How many resources each partition of a zone held, by endpoint: what an added or removed zone carried. */
  contents(zoneId: string): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [endpoint, read] of this.byScope.get(zoneId) ?? []) if (endpoint !== 'zone' && read.items > 0) out[endpoint] = read.items;
    return out;
  }
}

/** Zone names and accounts as either scan knew them (the later scan's version wins). */
export function zoneInfo(db: Db, from: number, to: number): Map<string, ZoneInfo> {
  const [f, t] = [scanRef(from), scanRef(to)];
  const rows = db
    .prepare(
      `SELECT item_id, name, account_id, first_scan <= ? AND last_scan >= ? AS in_to FROM zones
       WHERE (first_scan <= ? AND last_scan >= ?) OR (first_scan <= ? AND last_scan >= ?) ORDER BY in_to`,
    )
    .all(t, t, f, f, t, t) as Array<{ item_id: string; name: string; account_id: string | null }>;
  return new Map(rows.map((r) => [r.item_id, { id: r.item_id, name: r.name, accountId: r.account_id }]));
}

export const named = (zone: ZoneInfo | undefined, id: string): Named => ({ id, name: zone?.name ?? null });
