import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { severityRank } from '../../src/policy/rule.js';
import { reportData } from '../../src/report/report-data.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';
import { thrownBy } from '../support/errors.js';
import { SnapshotError } from '../../src/snapshot/db.js';

/** Report data of real scans of the demo organisation: the second could not read any zone's filters. */
describe('report data', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zw-report-data-'));
  const file = join(dir, 'zonewarden.db');
  const env = { ZONEWARDEN_API_TOKEN: TOKEN };
  const emulators: RunningEmulator[] = [];
  let db: Db;

  beforeAll(async () => {
    const now = new Date();
    for (const failRoutes of [[], ['GET /zones/{zone_id}/filters']]) {
      const emu = await startEmulator({ dataset: 'demo', now, rateLimit: 0, ipRateLimit: 0, failRoutes });
      emulators.push(emu);
      await runInProcess(['scan', '--base-url', emu.url, '--db', file, '--budget', '1000000', '--retries', '0', '--quiet'], env, dir);
    }
    await runInProcess(['scan', '--base-url', emulators[0]!.url, '--db', file, '--budget', '1000000', '--quiet'], env, dir);
    for (const scan of ['1', '2']) await runInProcess(['audit', '--db', file, '--scan', scan, '--quiet'], env, dir);
    db = openSnapshot(file);
  });

  afterAll(async () => {
    db?.close();
    await Promise.all(emulators.map((e) => e.close()));
  });

  it('counts findings by category as the audit counted them by status', () => {
    const data = reportData(db, 1);
    for (const status of ['fail', 'waived', 'unknown', 'pass'] as const) {
      expect(data.categories.reduce((n, c) => n + c[status], 0), status).toBe(data.audit.counts.byStatus[status]);
    }
    expect(data.categories.find((c) => c.category === 'tls')!.fail).toBeGreaterThan(0);
  });

  it('counts passing and failing verdicts per zone, for the pass rate of each zone', () => {
    const { audit } = reportData(db, 1);
    const byZone = audit.counts.byZone!;
    const zones = db.prepare('SELECT count(DISTINCT item_id) FROM zones').pluck().get() as number;
    expect(Object.keys(byZone).length).toBe(zones);
    const zoneFailures = db.prepare("SELECT count(*) FROM findings WHERE audit_id = 1 AND status = 'fail' AND zone_id IS NOT NULL").pluck().get();
    expect(Object.values(byZone).reduce((n, z) => n + z.fail, 0)).toBe(zoneFailures);
    const passes = Object.values(byZone).reduce((n, z) => n + z.pass, 0);
    // Organisation rules pass without a zone: the zones hold most passes, not all.
    expect(passes).toBeGreaterThan(0);
    expect(passes).toBeLessThanOrEqual(audit.counts.byStatus.pass);
  });

  it('lists the worst failures first, up to the limit', () => {
    const risks = reportData(db, 1, { topRisks: 5 }).topRisks;
    expect(risks).toHaveLength(5);
    expect(risks.every((f) => f.status === 'fail')).toBe(true);
    for (let i = 1; i < risks.length; i++) expect(severityRank(risks[i - 1]!.severity)).toBeGreaterThanOrEqual(severityRank(risks[i]!.severity));
  });

  it('has no drift for the first scan, and drift from the audited complete scan before a later one', () => {
    expect(reportData(db, 1).drift).toBeNull();
    const later = reportData(db, 2);
    expect(later.drift?.from.id).toBe(1);
    expect(later.drift?.configuration.unknown.some((u) => u.type === 'filter')).toBe(true);
  });

  it('says what the scan could not read, zone by zone', () => {
    expect(reportData(db, 1).health).toMatchObject({ complete: true, unread: [] });
    const health = reportData(db, 2).health;
    expect(health.complete).toBe(false);
    expect(health.unread.length).toBeGreaterThan(1);
    expect(health.unread.every((u) => u.endpoint === 'filters' && u.state === 'failed' && u.zone?.name)).toBe(true);
  });

  it('refuses a scan that has not been audited', () => {
    expect(thrownBy(() => reportData(db, 3), SnapshotError).message).toBe('scan 3 has not been audited: run zonewarden audit --scan 3 first');
  });
});
