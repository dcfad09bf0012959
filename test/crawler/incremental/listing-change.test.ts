import { describe, expect, it } from 'vitest';
import { listingChanged } from '../../../src/crawler/incremental/listing-change.js';
import type { ZoneItem } from '../../../src/crawler/zone-item.js';
import { openSnapshot, type Db } from '../../../src/snapshot/db.js';
import { ScanWriter } from '../../../src/snapshot/writer.js';

/**
 * vendor's API reference (zones): a zone's development_mode is the seconds until Development Mode
 * expires, negative since it last expired: it differs at every listing of a zone that ever used
 * it, with no change to the zone. That alone must not have the zone read again.
 */
const zone = (extra: Partial<ZoneItem> & Record<string, unknown>): ZoneItem => ({ id: 'z1', name: 'shop.example', plan: { legacy_id: 'pro' }, development_mode: 0, ...extra });

/** Lists the zone in a new scan of `db`, as the crawler does, and says whether the listing changed. */
function list(db: Db, item: ZoneItem, base?: number): { changed: boolean; scanId: number } {
  const writer = ScanWriter.start(db, 'http://127.0.0.1/client/v4', { accounts: [], zones: [] }, (s) => s);
  const partition = writer.partition('zone', item.id, 'zone');
  partition.write([item]);
  partition.finish({ state: 'ok', pages: 1, items: 1 });
  const changed = listingChanged(partition, item, base, (t) => t);
  writer.finish('complete', {});
  return { changed, scanId: writer.scanId };
}

describe('listingChanged', () => {
  it('is a change for a zone listed the first time', () => {
    const db = openSnapshot(':memory:');
    expect(list(db, zone({})).changed).toBe(true);
    db.close();
  });

  it('ignores a development_mode that counted down or expired, and stores it as served', () => {
    const db = openSnapshot(':memory:');
    const first = list(db, zone({ development_mode: 3000 }));
    expect(list(db, zone({ development_mode: 1200 }), first.scanId).changed).toBe(false);
    expect(list(db, zone({ development_mode: -86400 })).changed).toBe(false);
    const stored = db.prepare('SELECT raw FROM zones ORDER BY pk DESC LIMIT 1').pluck().get() as string;
    expect(JSON.parse(stored)).toMatchObject({ development_mode: -86400 });
    db.close();
  });

  it('is a change when anything else changed, with development_mode or without', () => {
    const db = openSnapshot(':memory:');
    list(db, zone({ development_mode: 0 }));
    expect(list(db, zone({ development_mode: 10800, plan: { legacy_id: 'business' } })).changed).toBe(true);
    expect(list(db, zone({ development_mode: 10000, plan: { legacy_id: 'business' }, paused: true })).changed).toBe(true);
    // Unchanged since: the same item, the version extended.
    expect(list(db, zone({ development_mode: 10000, plan: { legacy_id: 'business' }, paused: true })).changed).toBe(false);
    db.close();
  });
  it('is a change when the list stops carrying development_mode, or starts: which of the list and the setting tells it changes', () => {
    // zone-settings.ts reads the development_mode setting only where the list does not carry the field: a zone
    // carried forward on such a night would have neither (the settings read while the list carried it lack it).
    const db = openSnapshot(':memory:');
    const first = list(db, zone({ development_mode: 3000 }));
    const { development_mode: _, ...without } = zone({});
    const dropped = list(db, without as ZoneItem, first.scanId);
    expect(dropped.changed).toBe(true);
    expect(list(db, zone({ development_mode: -500 }), dropped.scanId).changed).toBe(true);
    db.close();
  });
});
