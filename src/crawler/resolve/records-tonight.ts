import type { ScanWriter } from '../../snapshot/writer.js';

export interface StoredRecord {
  type: string | null;
  name: string | null;
  content: string | null;
  raw: string;
}

/** The zone's DNS records as this scan holds them, read or carried; null when not read whole (or awaiting repair). */
export function recordsTonight(writer: ScanWriter, zoneId: string): StoredRecord[] | null {
  const stored = writer.storedId(zoneId);
  const c = writer.get<{ state: string; truncated: number; data_scan: number | null }>(
    "SELECT state, truncated, data_scan FROM coverage WHERE kind = 'zone' AND scope_id = ? AND endpoint = 'dns_records' AND last_scan = ?",
    stored,
    writer.ref,
  );
  if (!c || c.state !== 'ok' || c.truncated === 1) return null;
  const ref = c.data_scan ?? writer.ref;
  return writer.all<StoredRecord>('SELECT type, name, content, raw FROM dns_records WHERE zone_id = ? AND first_scan <= ? AND last_scan >= ?', stored, ref, ref);
}
