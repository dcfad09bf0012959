import { scanRef } from '../../snapshot/scan-ref.js';
import type { PartitionWriter } from '../../snapshot/writer.js';
import type { ZoneItem } from '../zone-item.js';

/**
 * Fields of a zone list item that move with the clock: `development_mode` counts the seconds left,
 * then (negative) since it expired (vendor's API reference, zones). A listing differing in these
 * alone is no reason to read the zone again; the item is still stored as served.
 */
const CLOCK_FIELDS: readonly string[] = ['development_mode'];

/** The item's JSON without its clock fields' counts; whether the list carries one is kept (zone-settings.ts reads it otherwise). */
function withoutClock(item: unknown): string {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return JSON.stringify(item);
  const rest: Record<string, unknown> = { ...(item as Record<string, unknown>) };
  for (const f of CLOCK_FIELDS) if (typeof rest[f] === 'number' && Number.isFinite(rest[f])) rest[f] = 'a count';
  return JSON.stringify(rest);
}

/**
 * Whether the zone as listed tonight (written into `partition`) differs, beyond its clock fields,
 * from the last complete listing or from `base` (the scan read on from). `redact`: the writer's.
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
