import { describe, expect, it } from 'vitest';
import { dataFreshness } from '../../src/report/data-freshness.js';
import { pruneScans } from '../../src/snapshot/prune.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { emulatorsClosedAfterEach } from '../support/http.js';
import { scanNight, snapshotsClosedAfterEach } from '../support/nights.js';

/**
 * What reports say of a scan's freshness (issue 30, item 8: how many zones were read tonight and
 * carried forward, and when each carried zone's data was last read) must agree with what the scan
 * did, whatever the token may read and however many scans are kept.
 */
const emulator = emulatorsClosedAfterEach();
const openDb = snapshotsClosedAfterEach();

describe('data freshness', () => {
  it('counts a carried zone as carried when the token may not read DNS records', async () => {
    // A token without DNS Read: the DNS part is refused every night, so it holds no data, read or carried.
    const emu = await emulator({ dataset: 'generated', generated: { seed: 4, accounts: 2, zones: 20, records: 400 }, denyRoutes: ['GET /zones/{zone_id}/dns_records'] });
    const db = openDb();
    const first = await scanNight(emu, db, 'incremental');
    emu.night({ share: 0.1, seed: 2 });
    const second = await scanNight(emu, db, 'incremental');
    const reads = second.outcome.summary.reads!;
    expect(reads.zonesCarried).toBeGreaterThan(0);
    const freshness = dataFreshness(db, second.outcome.scanId);
    expect({ readInFull: freshness.readInFull, carried: freshness.carried }).toEqual({ readInFull: reads.zonesRead, carried: reads.zonesCarried });
    const firstStart = new SnapshotReader(db, first.outcome.scanId).scan.startedAt;
    const carried = new SnapshotReader(db, second.outcome.scanId).zones().filter((z) => freshness.lastReadOf(z.id) !== '');
    expect(carried).toHaveLength(reads.zonesCarried);
    for (const z of carried) expect(freshness.lastReadOf(z.id)).toBe(firstStart);
    expect(freshness.oldest).toBe(firstStart);
  });

  it('gives the time of a full read whose scan was pruned (--keep below --full-every)', async () => {
    const emu = await emulator({ dataset: 'generated', generated: { seed: 5, accounts: 2, zones: 20, records: 400 } });
    const db = openDb();
    const first = await scanNight(emu, db, 'incremental');
    const firstStart = new SnapshotReader(db, first.outcome.scanId).scan.startedAt;
    emu.night({ share: 0.1, seed: 1 });
    await scanNight(emu, db, 'incremental');
    emu.night({ share: 0.1, seed: 2 });
    const third = await scanNight(emu, db, 'incremental');
    // `run --keep 1`: the scans the third carries from are gone, their data kept.
    pruneScans(db, 1);
    expect(db.prepare('SELECT count(*) FROM scans').pluck().get()).toBe(1);
    const freshness = dataFreshness(db, third.outcome.scanId);
    const reader = new SnapshotReader(db, third.outcome.scanId);
    const carried = reader.zones().filter((z) => freshness.lastReadOf(z.id) !== '');
    expect(carried.length).toBe(third.outcome.summary.reads!.zonesCarried);
    // Each an ISO time no later than the scan (docs/audit-json.md: carriedZones are ISO times), never "scan N".
    for (const z of carried) {
      const at = freshness.lastReadOf(z.id);
      expect(at).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(at <= reader.scan.startedAt).toBe(true);
      expect(at >= firstStart).toBe(true);
    }
    // Zones carried since the first scan say so: the oldest data is its start.
    expect(freshness.oldest).toBe(firstStart);
  });
});
