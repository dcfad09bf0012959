/**
 * How scans are referred to inside version ranges (first_scan, last_scan) and partitions.
 * SQLite stores integers in 0 to 8 bytes by size, so a nightly rescan that moves last_scan from
 * 1 to 2 (or 127 to 128) would lengthen every record by a byte and grow an unchanged database by
 * a few percent. Offsetting references by 2^24 keeps them 4 bytes wide for two billion scans, so
 * extending a version rewrites it in place. Scan ids shown to users stay small.
 */
export const SCAN_REF_BASE = 2 ** 24;

/** The scan id a reference names. */
export function scanOfRef(ref: number): number {
  return ref - SCAN_REF_BASE;
}

export function scanRef(scanId: number): number {
  return scanId + SCAN_REF_BASE;
}
