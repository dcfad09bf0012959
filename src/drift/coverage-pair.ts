import type { Named } from '../policy/findings.js';
import type { Db } from '../snapshot/db.js';
import type { CoverageRow, SnapshotReader } from '../snapshot/reader.js';
import { scanRef } from '../snapshot/scan-ref.js';
import type { Endpoint, PartitionKind } from '../snapshot/tables.js';

/**
 * What each of two scans read, to decide what can be compared. A partition can be compared when
 * both scans read it whole, or knew it to be empty (the crawler skips, for instance, the legacy WAF
 * of a migrated zone: it no longer exists). A zone is present in a scan that read its record,
 * absent when the scan read the listing that would have held it (or the account list without its
 * account), outside a scoped scan's scope, and otherwise unread.
 */

export type Presence = 'present' | 'absent' | 'outside' | 'unread';

export interface ZoneInfo {
  id: string;
  name: string;
  accountId: string | null;
}

export const partitionKey = (kind: PartitionKind, scopeId: string, endpoint: Endpoint): string => `${kind}|${scopeId}|${endpoint}`;

export class ScanCoverage {
  private readonly rows = new Map<string, CoverageRow>();
  private readonly byZone = new Map<string, CoverageRow[]>();
  private readonly accounts: Set<string> | null;

  constructor(
    db: Db,
    readonly reader: SnapshotReader,
  ) {
    for (const row of reader.coverage()) {
      this.rows.set(partitionKey(row.kind, row.scopeId, row.endpoint), row);
      if (row.kind !== 'zone') continue;
      const zone = this.byZone.get(row.scopeId);
      if (zone) zone.push(row);
      else this.byZone.set(row.scopeId, [row]);
    }
    const ref = scanRef(reader.scan.id);
    this.accounts = this.usable(this.get('user', '', 'accounts'))
      ? new Set((db.prepare('SELECT item_id FROM accounts WHERE first_scan <= ? AND last_scan >= ?').all(ref, ref) as Array<{ item_id: string }>).map((r) => r.item_id))
      : null;
  }

  get scanId(): number {
    return this.reader.scan.id;
  }

  get(kind: PartitionKind, scopeId: string, endpoint: Endpoint): CoverageRow | undefined {
    return this.rows.get(partitionKey(kind, scopeId, endpoint));
  }

  /** Read whole, or known to be empty. */
  usable(row: CoverageRow | undefined): boolean {
    return row !== undefined && ((row.state === 'ok' && !row.truncated) || row.state === 'skipped');
  }

  /** Why a partition cannot be used, for a person. */
  why(row: CoverageRow | undefined, what: string): { state: CoverageRow['state'] | 'not-read'; reason: string } {
    if (!row) return { state: 'not-read', reason: `scan ${this.scanId} did not read the ${what}` };
    if (row.truncated && row.state === 'ok') return { state: 'failed', reason: `scan ${this.scanId} read the ${what} only in part (the list was truncated)` };
    return { state: row.state, reason: `scan ${this.scanId} could not read the ${what}: ${row.message ?? row.state}` };
  }

  zoneIds(): string[] {
    return [...this.byZone.keys()];
  }

  presence(zone: ZoneInfo): Presence {
    if (this.get('zone', zone.id, 'zone')?.state === 'ok') return 'present';
    const { zones, accounts } = this.reader.scan.scope;
    if ((zones.length > 0 && !zones.includes(zone.name)) || (accounts.length > 0 && (zone.accountId === null || !accounts.includes(zone.accountId)))) return 'outside';
    if (zone.accountId !== null) {
      if (this.accounts && !this.accounts.has(zone.accountId)) return 'absent';
      if (this.usable(this.get('account', zone.accountId, 'zones'))) return 'absent';
    }
    return 'unread';
  }

  /** How many resources each partition of a zone held, by endpoint: what an added or removed zone carried. */
  contents(zoneId: string): Record<string, number> {
    const out: Record<string, number> = {};
    for (const r of this.byZone.get(zoneId) ?? []) if (r.endpoint !== 'zone' && r.items > 0) out[r.endpoint] = r.items;
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
  const map = new Map<string, ZoneInfo>();
  for (const r of rows) map.set(r.item_id, { id: r.item_id, name: r.name, accountId: r.account_id });
  return map;
}

export const named = (zone: ZoneInfo | undefined, id: string): Named => ({ id, name: zone?.name ?? null });
