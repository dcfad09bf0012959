import { describe, expect, it } from 'vitest';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { recordingLogger } from '../support/client.js';
import { emulatorsClosedAfterEach } from '../support/http.js';
import { findings, scanNight, snapshotsClosedAfterEach, zoneData } from '../support/nights.js';

/**
 * Issue 49, part 5: a token that loses a permission is noticed the first night, and what that
 * permission covers is denied for every zone of the credential, not carried forward from the reads
 * it could still make yesterday. vendor docs: API token permissions: each zone read belongs to a
 * permission group (Bot Management Read, DNS Read...), and a token lacking one is answered 403 for
 * every zone; vendor docs: audit logs: a token's permissions are not a zone's resource, so no entry
 * of any zone says it changed.
 */

const emulator = emulatorsClosedAfterEach();
const openDb = snapshotsClosedAfterEach();

const BOT = 'GET /zones/{zone_id}/bot_management';
const AUDIT_LOG = 'GET /accounts/{account_id}/logs/audit';

/** The verdicts of bot-fight-mode-off, by status. */
function botVerdicts(lines: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const l of lines) {
    const [rule, , , status] = JSON.parse(l) as [string, string | null, string, string];
    if (rule === 'bot-fight-mode-off') counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

describe('a permission lost between two nights', () => {
  it('is noticed the first night: bot management is denied for every zone, carried ones included, at one request more at most', async () => {
    const denied: string[] = [];
    const emu = await emulator({ dataset: 'generated', generated: { seed: 3, accounts: 3, zones: 60, records: 3000 }, denyRoutes: denied });
    const db = openDb();
    const first = await scanNight(emu, db, 'incremental');
    expect(first.outcome.status).toBe('complete');
    emu.night({ share: 0.05, seed: 1 });
    // The token loses Bot Management Read; nothing in any account's audit log says so.
    denied.push(BOT);
    const logger = recordingLogger();
    const night = await scanNight(emu, db, 'incremental', 7, logger);
    const reads = night.outcome.summary.reads!;
    expect(reads).toMatchObject({ incremental: true, base: first.outcome.scanId });
    expect(reads.zonesCarried).toBeGreaterThan(0);
    // Denied, as any refused read: the scan is incomplete (exit 3).
    expect(night.outcome.status).toBe('incomplete');
    const reader = new SnapshotReader(db, night.outcome.scanId);
    const zones = reader.zones();
    expect(zones).toHaveLength(emu.org.visibleZones().length);
    for (const z of zones) expect(reader.coverageOf('zone', z.id, 'bot_management')?.state, z.name).toBe('denied');
    const missingBot = night.outcome.summary.missing.filter((p) => p.endpoint === 'bot_management');
    expect(missingBot).toHaveLength(zones.length);
    // No verdict on bot data the token can no longer read: every zone's is unknown.
    expect(botVerdicts(findings(db, night.outcome.scanId))).toEqual({ unknown: zones.length });
    // The zones read in full were refused; the carried ones cost nothing, or one probe of the credential.
    expect(night.byRoute[BOT]! - reads.zonesRead).toBeGreaterThanOrEqual(0);
    expect(night.byRoute[BOT]! - reads.zonesRead).toBeLessThanOrEqual(1);
    expect(logger.lines.filter((l) => l.includes('the default credential was refused Zone · Bot Management · Read'))).toHaveLength(1);
    // Nothing stored is lost: yesterday's bot settings are still the first scan's.
    const before = new SnapshotReader(db, first.outcome.scanId);
    for (const z of before.zones()) expect(before.zoneObject(z.id, 'bot_management').known).toBe(true);
    // What a full scan with the same token finds, zone by zone.
    const fullDb = openDb();
    const full = await scanNight(emu, fullDb, 'full');
    expect(zoneData(db, night.outcome.scanId)).toEqual(zoneData(fullDb, full.outcome.scanId));
    const statusOf = (lines: string[]) => lines.map((l) => (JSON.parse(l) as unknown[]).slice(0, 4).join(' ')).sort();
    expect(statusOf(findings(db, night.outcome.scanId))).toEqual(statusOf(findings(fullDb, full.outcome.scanId)));
  });

  it('asks one request per credential and permission group when no read of the group is made tonight, and none more', async () => {
    // A quiet night on a long cycle: no zone is read in full, so no read of any group is made but the parts due by
    // date; the credential's standing with each group is one request, whatever the number of carried zones.
    const denied: string[] = [];
    const emu = await emulator({ dataset: 'generated', generated: { seed: 4, accounts: 2, zones: 20, records: 600 }, denyRoutes: denied });
    const db = openDb();
    expect((await scanNight(emu, db, 'incremental', 40)).outcome.status).toBe('complete');
    emu.night({ share: 0, seed: 1 });
    // --full-every 40 over 20 zones: no zone's turn tonight, nothing changed: every zone is carried.
    const granted = await scanNight(emu, db, 'incremental', 40);
    expect(granted.outcome.summary.reads).toMatchObject({ incremental: true, zonesRead: 0, zonesCarried: 20 });
    expect(granted.outcome.status).toBe('complete');
    // One probe per permission group the carried parts belong to, for the one credential: no zone read its bot
    // settings, DNSSEC, universal SSL, filters, rulesets or settings tonight (certificate packs are read where due by date).
    for (const route of [BOT, 'GET /zones/{zone_id}/dnssec', 'GET /zones/{zone_id}/ssl/universal/settings', 'GET /zones/{zone_id}/filters', 'GET /zones/{zone_id}/rulesets', 'GET /zones/{zone_id}/settings/{setting_id}']) {
      expect(granted.byRoute[route], route).toBe(1);
    }
    emu.night({ share: 0, seed: 2 });
    denied.push(BOT);
    const refused = await scanNight(emu, db, 'incremental', 40);
    expect(refused.outcome.summary.reads).toMatchObject({ zonesRead: 0, zonesCarried: 20 });
    expect(refused.byRoute[BOT]).toBe(1);
    expect(refused.outcome.status).toBe('incomplete');
    const reader = new SnapshotReader(db, refused.outcome.scanId);
    for (const z of reader.zones()) {
      expect(reader.coverageOf('zone', z.id, 'bot_management')?.state).toBe('denied');
      // The other groups answered: their parts are carried.
      expect(reader.coverageOf('zone', z.id, 'dns_records')?.state).toBe('ok');
    }
    // Granted again: the denied parts are read again the next night (a permission granted is in no log either).
    denied.splice(0);
    emu.night({ share: 0, seed: 3 });
    const again = await scanNight(emu, db, 'incremental', 40);
    expect(again.outcome.status).toBe('complete');
    expect(again.byRoute[BOT]).toBe(20);
  });

  it('carries as before, and says so, when the probe gets an answer that says nothing of the permission', async () => {
    // A 500 (vendor docs: API errors, a server-side failure) is no refusal: the token may still hold the permission.
    const fails: string[] = [];
    const emu = await emulator({ dataset: 'generated', generated: { seed: 4, accounts: 2, zones: 20, records: 600 }, failRoutes: fails });
    const db = openDb();
    expect((await scanNight(emu, db, 'incremental', 40)).outcome.status).toBe('complete');
    emu.night({ share: 0, seed: 1 });
    fails.push(BOT);
    const logger = recordingLogger();
    const night = await scanNight(emu, db, 'incremental', 40, logger);
    expect(night.outcome.summary.reads).toMatchObject({ zonesRead: 0, zonesCarried: 20 });
    expect(night.byRoute[BOT]).toBe(1);
    expect(night.outcome.status).toBe('complete');
    const reader = new SnapshotReader(db, night.outcome.scanId);
    for (const z of reader.zones()) expect(reader.coverageOf('zone', z.id, 'bot_management')?.state).toBe('ok');
    expect(logger.lines.filter((l) => l.includes('whether it may still read Zone · Bot Management · Read could not be confirmed'))).toHaveLength(1);
  });
  it('keeps a refusal of one zone to that zone when the token never could read the group there (a token scoped by zone)', async () => {
    // vendor docs: API token permissions: each policy of a token names the zones its permission groups apply to, so a
    // token may read Bot Management of every zone but one. That zone's refusal, the same every night, is no permission
    // lost: the other zones' bot settings are carried as before, not denied on nights their turn has not come.
    const zoneDenied: Array<{ zoneId: string; route: string }> = [];
    const emu = await emulator({ dataset: 'generated', generated: { seed: 4, accounts: 2, zones: 20, records: 600 }, denyZoneRoutes: zoneDenied });
    const scoped = emu.org.visibleZones()[3]!;
    zoneDenied.push({ zoneId: scoped.id, route: BOT });
    const db = openDb();
    const first = await scanNight(emu, db, 'incremental', 40);
    expect(first.outcome.summary.missing.filter((p) => p.endpoint === 'bot_management')).toHaveLength(1);
    for (const seed of [1, 2]) {
      emu.night({ share: 0, seed });
      const night = await scanNight(emu, db, 'incremental', 40);
      expect(night.outcome.summary.reads).toMatchObject({ zonesRead: 0, zonesCarried: 20 });
      const reader = new SnapshotReader(db, night.outcome.scanId);
      for (const z of reader.zones()) expect(reader.coverageOf('zone', z.id, 'bot_management')?.state, `night ${seed}: ${z.name}`).toBe(z.id === scoped.id ? 'denied' : 'ok');
      // Only the zone refused is unknown to bot-fight-mode-off, as in the first scan.
      expect(botVerdicts(findings(db, night.outcome.scanId))).toEqual(botVerdicts(findings(db, first.outcome.scanId)));
    }
  });
});
