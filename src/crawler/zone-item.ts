/** A zone as the zone list serves it, and what every part of the crawler says of a zone's read. */
export interface ZoneItem {
  id: string;
  name: string;
  plan?: { legacy_id?: string };
  account?: { id?: string };
  /** Seconds Development Mode has left (negative: since it expired; 0: never on), when the zone list carries it (vendor's API reference, zones). */
  development_mode?: unknown;
}

/** Whether the zone list, read every night at no cost, told the zone's Development Mode: the setting need not be read. */
export function listTellsDevelopmentMode(zone: ZoneItem): boolean {
  return typeof zone.development_mode === 'number' && Number.isFinite(zone.development_mode);
}

/** How a zone is read tonight: everything (first read, a change, its turn), or only what is due by date. */
export type ZoneMode = 'full' | 'due-only';

export const DEFERRED = Symbol('deferred');
export type Deferred = typeof DEFERRED;
