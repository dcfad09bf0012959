import { scanRef } from '../../snapshot/scan-ref.js';
import type { PartitionWriter } from '../../snapshot/writer.js';
import type { ZoneItem } from '../reads/zone-read.js';

/**
 * Fields of a zone list item that move with the clock, not with a change to the zone:
 * `development_mode` counts the seconds Development Mode has left, and once it has expired the
 * (negative) seconds since, so it differs on every night for every zone that ever used it
 * (vendor's API reference, zones). A listing that differs in these alone is no reason to read the
 * zone again; the item is still stored as served, so rules judge tonight's value.
 */
export const CLOCK_FIELDS: readonly string[] = ['development_mode'];

/**
 * The item's JSON with its clock fields' counts left out, for comparison. Whether the list carries
 * a clock field at all is kept: a list that stops carrying development_mode has the setting read
 * instead (reads/zone-settings.ts), which a zone carried forward would not do.
 */
function withoutClock(item: unknown): string {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return JSON.stringify(item);
  const rest: Record<string, unknown> = { ...(item as Record<string, unknown>) };
  for (const f of CLOCK_FIELDS) if (typeof rest[f] === 'number' && Number.isFinite(rest[f])) rest[f] = 'a count';
  return JSON.stringify(rest);
}

/**
 * Whether the zone as listed tonight (already written into `partition`) differs, beyond its
 * clock fields, from the version stored for the scans that decide what is read again: the last
 * complete listing, and `base` (the scan this one reads on from), for each of which the partition
 * writer found another version. `redact`: the writer's redaction, which stored versions went through.
 */
export function listingChanged(partition: PartitionWriter, zone: ZoneItem, base: number | undefined, redact: (text: string) => string): boolean {
  const lastOk = partition.previousOk;
  if (lastOk === null) return true;
  const served = withoutClock(JSON.parse(redact(JSON.stringify(zone))));
  const differsAt = (ref: number) => {
    const stored = partition.storedRawAt(zone.id, ref);
    return stored === undefined || withoutClock(JSON.parse(stored)) !== served;
  };
  return (partition.wroteNewVersion && differsAt(lastOk)) || (base !== undefined && partition.storedSince(base) && differsAt(scanRef(base)));
}
