/**
 * Scans as version ranges and partitions refer to them. SQLite stores integers in 0 to 8 bytes by
 * size, so moving last_scan from 127 to 128 would lengthen a record and grow an unchanged database;
 * offset by 2^24, references stay 4 bytes wide and a version is extended in place.
 */
export const SCAN_REF_BASE = 2 ** 24;

/** The scan id a reference names. */
export function scanOfRef(ref: number): number {
  return ref - SCAN_REF_BASE;
}

export function scanRef(scanId: number): number {
  return scanId + SCAN_REF_BASE;
}
