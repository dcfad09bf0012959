import { describe, expect, it } from 'vitest';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import { formatApiTime } from '../../src/emulator/clock.js';
import { scanRef } from '../../src/snapshot/scan-ref.js';
import { emulatorsClosedAfterEach } from '../support/http.js';
import { findings, scanNight, snapshotsClosedAfterEach, storedFindings } from '../support/nights.js';

/**
 * Issue 49: the zone list carries Development Mode's seconds left, read every night, and the
 * setting is not read where it does. A listing that differs only in those seconds is no reason to
 * read the zone again (crawler/incremental/listing-change.ts), so the zone's settings are carried forward; the
 * rule must still judge tonight's list, and the night's audit must not keep last night's pass.
 */

const emulator = emulatorsClosedAfterEach();
const snapshot = snapshotsClosedAfterEach();

// vendor's API reference, zones: development_mode, 0 if never enabled; zone settings: development_mode on | off.
const dataset: DatasetFile = {
  version: 1,
  accounts: [{ name: 'Nights Ltd', zones: [{ name: 'shop.example', plan: 'pro' }, { name: 'blog.example', plan: 'free' }] }],
};

const devMode = (lines: string[]) =>
  lines
    .map((l) => JSON.parse(l) as [string, string | null, unknown, string, string, string])
    .filter(([rule, , , status]) => rule === 'development-mode-on' && status !== 'pass')
    .map(([, zone, , status, , message]) => [zone, status, message.replace(/\(until \S+\)/, '(<left>)')]);

describe('Development Mode switched on between nights, with no log entry', () => {
  it("is judged from tonight's zone list on an incremental night, by the night's audit as by a fresh one", async () => {
    const emu = await emulator({ dataset, rateLimit: 0, ipRateLimit: 0 });
    const db = snapshot();
    // --full-every 1000: no zone's turn to be read in full falls on the emulator's date.
    const first = await scanNight(emu, db, 'full', 1000);
    expect(devMode(storedFindings(db, first.outcome.scanId).lines)).toEqual([]);

    // Switched on an hour ago, as the service does it for a dashboard click the log does not reach
    // here: the only trace is the list's seconds left.
    const zone = emu.org.state.zones.find((z) => z.name === 'shop.example')!;
    zone.security.settings.development_mode = 'on';
    zone.security.modified.development_mode = formatApiTime(new Date(emu.org.clock.now().getTime() - 3_600_000));
    emu.org.touch();
    const night = await scanNight(emu, db, 'incremental', 1000);

    // The night was incremental: the zone's settings were carried from the first scan, not read.
    const carriedFrom = db
      .prepare("SELECT data_scan FROM coverage WHERE kind = 'zone' AND scope_id = ? AND endpoint = 'zone_settings' AND first_scan <= ? AND last_scan >= ?")
      .pluck()
      .get(zone.id, scanRef(night.outcome.scanId), scanRef(night.outcome.scanId));
    expect(carriedFrom).toBe(scanRef(first.outcome.scanId));

    const stored = storedFindings(db, night.outcome.scanId);
    expect(devMode(stored.lines)).toEqual([[zone.id, 'fail', expect.stringContaining('Development Mode is on (<left>)')]]);
    // The same as a fresh audit of the night's scan.
    expect(devMode(stored.lines)).toEqual(devMode(findings(db, night.outcome.scanId)));
  });
});
