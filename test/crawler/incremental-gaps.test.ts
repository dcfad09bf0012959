import { describe, expect, it } from 'vitest';
import type { DeclaredReads } from '../../src/api/endpoints.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import type { Db } from '../../src/snapshot/db.js';
import { pruneScans } from '../../src/snapshot/prune.js';
import { clientFor, recordingLogger } from '../support/client.js';
import { emulatorsClosedAfterEach } from '../support/http.js';
import { allPlansFindings, findings, READS, scanNight, snapshotsClosedAfterEach, zoneData } from '../support/nights.js';

/**
 * Issue 30's guarantee (a night read on from the last scan finds what a full scan finds) where
 * the scans between two nights were other than nightly ones: a scan of some zones made with fewer
 * rules on, a pruned history, a read deferred to the repair pass. Each case was found by a
 * reviewer, and each compares every zone's data and the findings with a full scan of the same state.
 */

const emulator = emulatorsClosedAfterEach();
const openDb = snapshotsClosedAfterEach();

/** A night with nothing changed, read on from scan 1: it holds and finds what a full scan of the same state does. */
async function quietNightLikeFull(emu: RunningEmulator, db: Db): Promise<void> {
  emu.night({ share: 0, seed: 1 });
  const night = await scanNight(emu, db, 'incremental');
  expect(night.outcome.summary.reads).toMatchObject({ incremental: true, base: 1 });
  const fullDb = openDb();
  const full = await scanNight(emu, fullDb, 'full');
  expect(zoneData(db, night.outcome.scanId)).toEqual(zoneData(fullDb, full.outcome.scanId));
  expect(findings(db, night.outcome.scanId)).toEqual(findings(fullDb, full.outcome.scanId));
}

describe('incremental nights after other scans', () => {
  it('reads again a settings partition that a scan of some zones with fewer rules on read since, though the scan read on from was asked for it', async () => {
    // A `scan --zone` (or a write command's rescan) with a config lacking the security level rule reads those zones'
    // settings without it; the next night reads on from the last full scan, which was asked for it, and must not carry them.
    const emu = await emulator({ dataset: 'generated', generated: { seed: 9, accounts: 2, zones: 20, records: 600 } });
    const db = openDb();
    const fewer: DeclaredReads = { ...READS, settings: READS.settings.filter((s) => s !== 'security_level') };
    expect((await scanNight(emu, db, 'full')).outcome.status).toBe('complete');
    const names = emu.org.visibleZones().map((z) => z.name).slice(0, 6);
    const some = await scanNight(emu, db, 'full', 7, recordingLogger(), fewer, { scope: { accounts: [], zones: names } });
    expect(some.outcome.status).toBe('complete');
    await quietNightLikeFull(emu, db);
  });

  it('reads again a settings partition that an aborted scan with fewer rules on read since', async () => {
    // The scan's row says what the rules asked of it from its start, so an aborted (or killed) scan's reads are known too.
    const emu = await emulator({ dataset: 'generated', generated: { seed: 9, accounts: 2, zones: 20, records: 600 } });
    const db = openDb();
    const fewer: DeclaredReads = { ...READS, settings: READS.settings.filter((s) => s !== 'security_level') };
    expect((await scanNight(emu, db, 'full')).outcome.status).toBe('complete');
    const stop = new AbortController();
    const stopped = scanNight(emu, db, 'full', 7, recordingLogger(), fewer, {
      signal: stop.signal,
      onProgress: (p) => {
        if (p.zonesDone >= 8) stop.abort(new Error('stopped'));
      },
    });
    await expect(stopped).rejects.toThrow();
    expect(db.prepare('SELECT status FROM scans WHERE id = 2').pluck().get()).toBe('aborted');
    await quietNightLikeFull(emu, db);
  });

  it('still knows a zone migrated when the scan that read its status was pruned', async () => {
    // vendor docs: WAF migration: the migration cannot be undone. A status carried forward for months keeps the
    // range of the scan that read it; pruning that scan must not make the zone unmigrated, or a night would decide
    // a Free zone's managed entry point as if it had not migrated.
    const fails: string[] = [];
    const emu = await emulator({ dataset: 'generated', generated: { seed: 20, accounts: 2, zones: 20, records: 600 }, failRoutes: fails });
    const db = openDb();
    expect((await scanNight(emu, db, 'full')).outcome.status).toBe('complete');
    expect((await scanNight(emu, db, 'full')).outcome.status).toBe('complete');
    fails.push('GET /zones/{zone_id}/rulesets/phases/http_request_firewall_managed/entrypoint', 'GET /zones/{zone_id}/rulesets');
    expect((await scanNight(emu, db, 'full')).outcome.status).toBe('incomplete');
    fails.splice(0);
    pruneScans(db, 1);
    expect(db.prepare('SELECT count(*) FROM scans WHERE id = 1').pluck().get()).toBe(0);
    const night = await scanNight(emu, db, 'incremental');
    expect(night.outcome.summary.reads).toMatchObject({ incremental: true });
    const fullDb = openDb();
    const full = await scanNight(emu, fullDb, 'full');
    expect(zoneData(db, night.outcome.scanId)).toEqual(zoneData(fullDb, full.outcome.scanId));
    expect(allPlansFindings(db, night.outcome.scanId)).toEqual(allPlansFindings(fullDb, full.outcome.scanId));
  });

  it('carries what the migration decides while its status is refused night after night, as it was decided the night before', async () => {
    // A token without the zone WAF permission is refused the migration status every night: the reads it decides
    // (rulesets list, managed entry point, settings) were decided on the same missing answer the night before,
    // so they are carried, not read again for every zone, and the night still finds what a full scan finds. So are
    // the migration's own check and configuration (and the previous WAF's lists): they change by logged writes only.
    const route = 'GET /zones/{zone_id}/waf_migration/status';
    const settings = 'GET /zones/{zone_id}/settings/{setting_id}';
    const followers = ['GET /zones/{zone_id}/waf_migration/check', 'GET /zones/{zone_id}/waf_migration/config', 'GET /zones/{zone_id}/firewall/waf/packages'];
    const emu = await emulator({ dataset: 'generated', generated: { seed: 11, accounts: 2, zones: 20, records: 600 }, denyRoutes: [route] });
    const db = openDb();
    const first = await scanNight(emu, db, 'full');
    expect(first.outcome.status).toBe('incomplete');
    let base = first.outcome.scanId;
    for (const seed of [6, 7, 8]) {
      emu.night({ share: 0.1, seed });
      const night = await scanNight(emu, db, 'incremental');
      expect(night.outcome.summary.reads).toMatchObject({ incremental: true, base });
      // The status is asked of every zone again (a refused part is never carried); the settings only of zones read in full.
      expect(night.byRoute[route]).toBe(emu.org.visibleZones().length);
      expect(night.byRoute[settings], `night ${seed}`).toBeLessThan(first.byRoute[settings]! / 2);
      for (const follower of followers) {
        expect(first.byRoute[follower], follower).toBeGreaterThan(0);
        expect(night.byRoute[follower] ?? 0, `night ${seed}: ${follower}`).toBeLessThan(first.byRoute[follower]! / 2);
      }
      const fullDb = openDb();
      const full = await scanNight(emu, fullDb, 'full');
      expect(zoneData(db, night.outcome.scanId), `night ${seed}`).toEqual(zoneData(fullDb, full.outcome.scanId));
      expect(allPlansFindings(db, night.outcome.scanId), `night ${seed}`).toEqual(allPlansFindings(fullDb, full.outcome.scanId));
      base = night.outcome.scanId;
    }
  });

  it('resolves the DNS targets of records read again in the repair pass, rather than skipping them in a scan it calls complete', async () => {
    const fails: string[] = [];
    const emu = await emulator({ dataset: 'generated', generated: { seed: 3, accounts: 2, zones: 20, records: 600 }, failRoutes: fails });
    const db = openDb();
    expect((await scanNight(emu, db, 'full')).outcome.status).toBe('complete');
    emu.night({ share: 0.2, seed: 2 });
    fails.push('GET /zones/{zone_id}/dns_records');
    const client = clientFor(emu, { budget: 1_000_000, budgetWindowMs: 1000, retries: 1 });
    // The route answers again once the repair pass begins.
    const night = await scanNight(emu, db, 'incremental', 7, recordingLogger(), READS, {
      client,
      onProgress: (p) => {
        if (p.repairing) fails.splice(0);
      },
    }).finally(() => client.close());
    expect(night.outcome.status).toBe('complete');
    expect(night.outcome.summary.repairs.recovered).toBeGreaterThan(0);
    const fullDb = openDb();
    const full = await scanNight(emu, fullDb, 'full');
    expect(zoneData(db, night.outcome.scanId)).toEqual(zoneData(fullDb, full.outcome.scanId));
    expect(findings(db, night.outcome.scanId)).toEqual(findings(fullDb, full.outcome.scanId));
  });
});
