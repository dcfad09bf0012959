import type { ZoneObjectPartition } from '../cloudflare/reads.js';
import type { Db } from './db.js';
import type { Partition, PartitionKind } from './tables.js';
import { ZoneReadAhead } from './read-ahead.js';
import { openScanRow, ScanView, type ScanRow } from './scan-view.js';
import { CoverageReader } from './coverage-reader.js';
import type { CoverageRow, Readout } from './coverage-row.js';
import { RowReader, type AccountRow, type FilterRow, type FirewallRuleRow, type RawRow, type ZoneRow } from './row-reader.js';
import { DnsReader, type DnsRecordFields, type DnsRecordRow } from './dns-reader.js';
import { ZoneObjectsReader } from './zone-objects-reader.js';

export type { ScanRow } from './scan-view.js';
export { toCoverage, type CoverageRow, type Readout } from './coverage-row.js';
export type { AccountRow, FilterRow, FirewallRuleRow, RawRow, ZoneRow } from './row-reader.js';
export type { DnsRecordFields, DnsRecordRow } from './dns-reader.js';
export type { ZoneObjectPartition };

/**
 * The typed, read-only view of one scan: the only way the policy engine sees data. A partition the
 * scan did not read completely answers `known: false` with the reason, so a check can say "unknown".
 * A facade over a module per job, all sharing one ScanView: a new read is one more line here.
 */
export class SnapshotReader {
  readonly scan: ScanRow;
  private readonly view: ScanView;
  private readonly coverageReader: CoverageReader;
  private readonly rowReader: RowReader;
  private readonly dnsReader: DnsReader;
  private readonly zoneObjectsReader: ZoneObjectsReader;

  constructor(db: Db, scanId: number) {
    this.scan = openScanRow(db, scanId);
    this.view = new ScanView(db, this.scan);
    this.coverageReader = new CoverageReader(this.view);
    this.rowReader = new RowReader(this.view, this.coverageReader);
    this.dnsReader = new DnsReader(this.view, this.coverageReader, this.rowReader);
    this.zoneObjectsReader = new ZoneObjectsReader(this.view, this.coverageReader);
  }

  /** The order zones will be asked about in, so each list is read for a run of zones at once (ZoneReadAhead); null: one at a time. */
  readAhead(zoneIds: readonly string[] | null): void {
    this.view.ahead = zoneIds ? new ZoneReadAhead(zoneIds) : null;
    this.coverageReader.forget();
    this.zoneObjectsReader.forget();
  }

  // What the scan read, and how (coverage-reader.ts).
  /** Everything this scan recorded about what it read; `onlyUnread`: the failed, denied and cut-short partitions only. */
  coverage(onlyUnread = false): CoverageRow[] { return this.coverageReader.coverage(onlyUnread); }
  /** How this scan read one partition, if it did (a scope's rows held until another scope is asked for). */
  coverageOf(kind: PartitionKind, scopeId: string, partition: Partition): CoverageRow | undefined { return this.coverageReader.coverageOf(kind, scopeId, partition); }
  /** When a partition's data was read (this scan's start, or that of the scan it was carried from); null when not recorded. */
  readStartedAt(kind: PartitionKind, scopeId: string, partition: Partition): string | null { return this.coverageReader.readStartedAt(kind, scopeId, partition); }

  // Rows of the tables read per scope (row-reader.ts).
  accounts(): Readout<AccountRow> { return this.rowReader.accounts(); }
  invites(): Readout<RawRow> { return this.rowReader.invites(); }
  /** Zones this scan read, by name (raw JSON read when first asked for). */
  zones(): ZoneRow[] { return this.rowReader.zones(); }
  firewallRules(zoneId: string): Readout<FirewallRuleRow> { return this.rowReader.firewallRules(zoneId); }
  filters(zoneId: string): Readout<FilterRow> { return this.rowReader.filters(zoneId); }
  certificatePacks(zoneId: string): Readout<RawRow> { return this.rowReader.zoneRawRows(zoneId, 'certificate_packs'); }
  wafPackages(zoneId: string): Readout<RawRow> { return this.rowReader.zoneRawRows(zoneId, 'waf_packages'); }
  wafGroups(zoneId: string): Readout<RawRow> { return this.rowReader.zoneRawRows(zoneId, 'waf_groups'); }
  wafRules(zoneId: string): Readout<RawRow> { return this.rowReader.zoneRawRows(zoneId, 'waf_rules'); }
  wafOverrides(zoneId: string): Readout<RawRow> { return this.rowReader.zoneRawRows(zoneId, 'waf_overrides'); }
  /** A list of an account stored one row per item (account_objects: members, notification policies, the vendor's insights); unknown when not read whole. */
  accountObjects(accountId: string, partition: Partition): Readout<RawRow> { return this.rowReader.accountObjects(accountId, partition); }
  /** An account's members (`account_members`, as the registry keeps them: cloudflare/accounts/member.ts), when the scan read them. */
  accountMembers(accountId: string): Readout<RawRow> { return this.rowReader.accountObjects(accountId, 'account_members'); }
  /**
   * When scans first saw each certificate pack of a zone (by id, the start of the earliest kept scan
   * up to this one that a stored version spans: after pruning, later than the truth, so an age is
   * never too long). Dates a pack the API lists without `created_on`.
   */
  certificatePackFirstSeen(zoneId: string): Map<string, string> { return this.rowReader.certificatePackFirstSeen(zoneId); }

  // DNS records (dns-reader.ts).
  dnsRecords(zoneId: string): Readout<DnsRecordRow> { return this.dnsReader.dnsRecords(zoneId); }
  /** DNS records without their raw JSON, in item_id order: what checks use (a zone can hold a million). */
  dnsRecordFields(zoneId: string): Readout<DnsRecordFields> { return this.dnsReader.dnsRecordFields(zoneId); }

  // Zone objects, one row per endpoint or setting (zone-objects-reader.ts).
  /** A single-object endpoint of a zone (migration status, check, config, entry points, DNSSEC...), or the zone's settings, one row each. */
  zoneObject(zoneId: string, partition: ZoneObjectPartition): Readout<RawRow> { return this.zoneObjectsReader.zoneObject(zoneId, partition); }
}
