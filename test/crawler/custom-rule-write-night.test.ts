import { describe, expect, it } from 'vitest';
import { emulatorsClosedAfterEach, raw } from '../support/http.js';
import { findings, scanNight, snapshotsClosedAfterEach, zoneData } from '../support/nights.js';

/**
 * A custom rule written through the rulesets API (as `firewall create` writes it) is in the
 * account audit log (vendor docs: audit logs record API writes), so the next incremental night
 * reads that zone's custom rules again instead of carrying the stored ones by their version.
 */

const emulator = emulatorsClosedAfterEach();
const openDb = snapshotsClosedAfterEach();

describe('the night after a custom rule write', () => {
  it('reads the written zone again and finds what a full scan finds', async () => {
    const emu = await emulator({ dataset: 'generated', generated: { seed: 23, accounts: 2, zones: 10, records: 300 } });
    const zone = emu.org.visibleZones()[0]!;
    const db = openDb();
    expect((await scanNight(emu, db, 'full')).outcome.status).toBe('complete');
    emu.org.clock.advance(60_000);
    const path = `/zones/${zone.id}/rulesets/phases/http_request_firewall_custom/entrypoint`;
    const before = zone.security.customRules?.rules ?? [];
    const written = await raw(emu, 'PUT', path, { body: { rules: [...before, { action: 'block', expression: 'ip.src eq 203.0.113.44', description: 'written tonight' }] } });
    expect(written.status).toBe(200);
    emu.org.clock.advance(60_000);

    const night = await scanNight(emu, db, 'incremental');
    expect(night.outcome.summary.reads).toMatchObject({ incremental: true });
    // The written zone's entry point is asked for again (the others are carried by the rulesets list's version).
    expect(night.byRoute['GET /zones/{zone_id}/rulesets/phases/http_request_firewall_custom/entrypoint']).toBeGreaterThanOrEqual(1);
    const stored = zoneData(db, night.outcome.scanId)[zone.name] as { objects: unknown[] };
    expect(JSON.stringify(stored.objects)).toContain('written tonight');
    const fullDb = openDb();
    const full = await scanNight(emu, fullDb, 'full');
    expect(findings(db, night.outcome.scanId)).toEqual(findings(fullDb, full.outcome.scanId));
  });
});
