import type { Db } from '../snapshot/db.js';
import type { DataRead } from './findings-json.js';
import { SCAN_REF_BASE, scanRef } from '../snapshot/scan-ref.js';
import { ZONE_READS } from '../crawler/reads/index.js';

/**
 * The partitions a full read of a zone reads afresh and a night that carries the zone does not (those
 * refreshed when the zone changed). Entry points (read by version), certificate packs (by date) and a
 * finished migration may be carried or read again either way, so they say nothing of a full read.
 */
const FULL_READ_PARTITIONS: readonly string[] = ZONE_READS.filter((r) => r.scope === 'zone' && r.refresh === 'zone-changed').flatMap((r) => r.partitions);

/**
 * How fresh a scan's data is, zone by zone: an incremental scan reads a zone in full only when it
 * changed or its turn came, and carries the rest forward. A zone is carried when a partition of its
 * full read holds data of an earlier scan; the latest such scan is its last full read. (Not its DNS
 * records alone: a token without DNS Read has no DNS data, and the zone would count as read tonight.)
 */
export interface DataFreshness {
  /** Zones read in full by this scan, and zones carried forward. */
  readInFull: number;
  carried: number;
  /** The oldest full read a carried zone rests on (ISO time), or null. */
  oldest: string | null;
  /** By zone id: when its data was last read in full (ISO time), for zones this scan carried. */
  lastReadOf(zoneId: string): string;
}

export function dataFreshness(db: Db, scanId: number): DataFreshness {
  const ref = scanRef(scanId);
  const partitions = JSON.stringify(FULL_READ_PARTITIONS);
  const rows = db
    .prepare(
      `SELECT c.scope_id AS zone, max(c.data_scan) - ${SCAN_REF_BASE} AS read_in, s.started_at AS at, f.read_at AS full_read
       FROM coverage c LEFT JOIN scans s ON s.id = c.data_scan - ${SCAN_REF_BASE} LEFT JOIN zone_full_reads f ON f.zone_id = c.scope_id
       WHERE c.kind = 'zone' AND c.endpoint IN (SELECT value FROM json_each(?)) AND c.first_scan <= ? AND c.last_scan >= ? AND c.data_scan IS NOT NULL
       GROUP BY c.scope_id`,
    )
    .all(partitions, ref, ref) as Array<{ zone: string; read_in: number; at: string | null; full_read: string | null }>;
  const total =
    (db
      .prepare(`SELECT count(DISTINCT scope_id) FROM coverage WHERE kind = 'zone' AND endpoint IN (SELECT value FROM json_each(?)) AND first_scan <= ? AND last_scan >= ?`)
      .pluck()
      .get(partitions, ref, ref) as number) ?? 0;
  const startedAt = db.prepare('SELECT started_at FROM scans WHERE id = ?').pluck().get(scanId) as string | undefined;
  // A zone whose last full read's scan was pruned (`--keep` below `--full-every`): its last full read (zone_full_reads) if not
  // later than this scan; else (a report of an older scan, the zone since read again) it cannot tell, and the scan's id stands in.
  const pruned = (fullRead: string | null) => (fullRead !== null && startedAt !== undefined && fullRead <= startedAt ? fullRead : null);
  const carried = new Map(rows.map((r) => [r.zone, r.at ?? pruned(r.full_read) ?? `scan ${r.read_in}`]));
  const lastReadOf = (zoneId: string) => carried.get(zoneId) ?? '';
  return { readInFull: total - rows.length, carried: rows.length, oldest: oldestOf(carried.values()), lastReadOf };
}

/** The oldest of the times of full reads; a pruned scan's zones say `scan N`, no time to compare. */
const oldestOf = (times: Iterable<string>): string | null => [...times].filter((at) => !at.startsWith('scan ')).sort()[0] ?? null;

/** The same of some zones (a report of --zone or --account), as findings.json's `dataRead` of the same view. */
export function freshnessOf(f: DataFreshness, zones: ReadonlyArray<{ id: string }>): DataFreshness {
  const view = carriedZones(zones, f.lastReadOf);
  const oldest = oldestOf(Object.values(view.carriedZones));
  return { readInFull: view.readInFull, carried: view.carried, oldest, lastReadOf: f.lastReadOf };
}

/** The zones of a view that were carried forward, from when each zone's data was last read ('' for read by this scan). */
export function carriedZones(zones: ReadonlyArray<{ id: string }>, lastReadOf: (zoneId: string) => string): DataRead {
  const carried = Object.fromEntries(zones.map((z) => [z.id, lastReadOf(z.id)]).filter(([, at]) => at));
  const n = Object.keys(carried).length;
  return { readInFull: zones.length - n, carried: n, carriedZones: carried };
}

/** One line for the top of a report: how much of the organisation (or of the report's view) this scan read tonight. */
export function freshnessStatement(f: DataFreshness): string | null {
  if (f.carried === 0) return null;
  const oldest = f.oldest ? `; the oldest carried data was read on ${f.oldest.slice(0, 10)}` : '';
  return `${f.readInFull.toLocaleString('en-US')} zones read in full in this scan, ${f.carried.toLocaleString('en-US')} carried forward unchanged from earlier reads (the audit log showed no change${oldest})`;
}
