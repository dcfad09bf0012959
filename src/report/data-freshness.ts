import type { Db } from '../snapshot/db.js';
import type { DataRead } from './findings-json.js';
import { SCAN_REF_BASE, scanRef } from '../snapshot/scan-ref.js';

/**
 * How fresh a scan's data is, zone by zone: an incremental scan reads a zone in full only when it
 * changed or its turn came, and carries the rest forward from the scan that last read it. A zone's
 * DNS records are read in every full read of it and in no other, so the scan that read them is
 * when the zone was last read in full.
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
  const rows = db
    .prepare(
      `SELECT c.scope_id AS zone, c.data_scan - ${SCAN_REF_BASE} AS read_in, s.started_at AS at FROM coverage c LEFT JOIN scans s ON s.id = c.data_scan - ${SCAN_REF_BASE}
       WHERE c.kind = 'zone' AND c.endpoint = 'dns_records' AND c.first_scan <= ? AND c.last_scan >= ? AND c.data_scan IS NOT NULL`,
    )
    .all(ref, ref) as Array<{ zone: string; read_in: number; at: string | null }>;
  const total = (db.prepare("SELECT count(*) FROM coverage WHERE kind = 'zone' AND endpoint = 'dns_records' AND first_scan <= ? AND last_scan >= ?").pluck().get(ref, ref) as number) ?? 0;
  const carried = new Map<string, string>();
  let oldest: string | null = null;
  for (const r of rows) {
    // A scan since pruned: its data stays, its start is no longer known; the scan id says which.
    const at = r.at ?? `scan ${r.read_in}`;
    carried.set(r.zone, at);
    if (r.at !== null && (oldest === null || r.at < oldest)) oldest = r.at;
  }
  return { readInFull: total - rows.length, carried: rows.length, oldest, lastReadOf: (zoneId) => carried.get(zoneId) ?? '' };
}

/**
 * The same for some of the scan's zones (a report of --zone or --account): its counts and oldest
 * read are those of these zones alone, as findings.json's `dataRead` of the same view.
 */
export function freshnessOf(f: DataFreshness, zones: ReadonlyArray<{ id: string }>): DataFreshness {
  const view = carriedZones(zones, f.lastReadOf);
  let oldest: string | null = null;
  // A pruned scan's zones say `scan N`: no time to compare.
  for (const at of Object.values(view.carriedZones)) if (!at.startsWith('scan ') && (oldest === null || at < oldest)) oldest = at;
  return { readInFull: view.readInFull, carried: view.carried, oldest, lastReadOf: f.lastReadOf };
}

/** The zones of a view that were carried forward, from when each zone's data was last read ('' for read by this scan). */
export function carriedZones(zones: ReadonlyArray<{ id: string }>, lastReadOf: (zoneId: string) => string): DataRead {
  const carried: Record<string, string> = {};
  for (const z of zones) {
    const at = lastReadOf(z.id);
    if (at) carried[z.id] = at;
  }
  const n = Object.keys(carried).length;
  return { readInFull: zones.length - n, carried: n, carriedZones: carried };
}

/** One line for the top of a report: how much of the organisation (or of the report's view) this scan read tonight. */
export function freshnessStatement(f: DataFreshness): string | null {
  if (f.carried === 0) return null;
  const oldest = f.oldest ? `; the oldest carried data was read on ${f.oldest.slice(0, 10)}` : '';
  return `${f.readInFull.toLocaleString('en-US')} zones read in full in this scan, ${f.carried.toLocaleString('en-US')} carried forward unchanged from earlier reads (the audit log showed no change${oldest})`;
}
