import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { recordAudit, runAudit } from '../../src/policy/audit.js';
import { activeRules, loadCatalogue } from '../../src/policy/registry.js';
import { defineRule } from '../../src/policy/rule.js';
import { loadAudit, saveAudit, storedFindings } from '../../src/policy/store.js';
import { parseWaivers } from '../../src/policy/waivers.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/snapshot/migrations.js';
import { pruneScans } from '../../src/snapshot/prune.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { ScanWriter } from '../../src/snapshot/writer.js';
import quota from '../../rules/firewall-rule-quota.js';
import zoneNotActive from '../../rules/zone-not-active.js';
import { firewall, snapshotOf } from '../support/snapshot-fixture.js';

const rules = activeRules(loadCatalogue([quota, zoneNotActive]));
const spec = {
  zones: [
    { name: 'full.example', plan: 'free' as const, ...firewall(Array.from({ length: 5 }, (_, i) => ({ expression: `ip.src eq 192.0.2.${i}` }))) },
    { name: 'paused.example', paused: true },
    { name: 'blind.example', unread: { firewall_rules: 'failed' as const } },
    { name: 'fine.example' },
  ],
};

describe('stored audits', () => {
  it('audits and reads findings back with small page caches, and puts the connection caches back after', () => {
    const { db, reader } = snapshotOf(spec);
    db.pragma('cache_size = -8000');
    const caches = () => [db.pragma('main.cache_size', { simple: true }), db.pragma('temp.cache_size', { simple: true })];
    const before = caches();
    recordAudit(db, reader, rules);
    expect(caches()).toEqual(before);
    // Left after the first finding (as the text table's probe does): the cursor closes and the caches come back.
    let read = 0;
    for (const f of storedFindings(db, reader.scan.id)) {
      read += f.rule ? 1 : 0;
      break;
    }
    expect(read).toBe(1);
    expect(caches()).toEqual(before);
    expect([...storedFindings(db, reader.scan.id)].length).toBeGreaterThan(1);
    expect(caches()).toEqual(before);
  });

  it('keeps failing, unknown and waived findings with the scan and passes as counts', () => {
    const { db, reader } = snapshotOf(spec);
    const waivers = parseWaivers('- {rule: zone-not-active, zone: paused.example, reason: r, owner: o, expires: 2027-01-01}', 'w', ['zone-not-active'], 'yaml');
    const result = runAudit(reader, rules, waivers);
    saveAudit(db, result, new Date('2026-11-01T13:00:00Z'));
    const stored = loadAudit(db, reader.scan.id);
    expect(stored?.evaluatedAt).toBe('2026-11-01T13:00:00.000Z');
    expect(stored?.findings).toEqual(result.findings.filter((f) => f.status !== 'pass'));
    expect(stored?.findings.map((f) => [f.rule, f.status, f.zone?.name])).toEqual([
      ['firewall-rule-quota', 'fail', 'full.example'],
      ['firewall-rule-quota', 'unknown', 'blind.example'],
      ['zone-not-active', 'waived', 'paused.example'],
    ]);
    expect(stored?.counts.byRule['zone-not-active']).toEqual({ fail: 0, unknown: 0, waived: 1, pass: 3 });
    expect(stored?.counts.byStatus).toEqual({ fail: 1, unknown: 1, waived: 1, pass: 5 });
    expect(stored?.rules.map((r) => r.id)).toEqual(['firewall-rule-quota', 'zone-not-active']);
    expect(stored?.waivers.active).toHaveLength(1);
    db.close();
  });

  it('replaces the findings when a scan is audited again', () => {
    const { db, reader } = snapshotOf(spec);
    saveAudit(db, runAudit(reader, rules));
    saveAudit(db, runAudit(reader, activeRules(loadCatalogue([quota, zoneNotActive]), { 'zone-not-active': { enabled: false } })));
    expect(loadAudit(db, reader.scan.id)?.findings.map((f) => f.rule)).toEqual(['firewall-rule-quota', 'firewall-rule-quota']);
    expect((db.prepare('SELECT count(*) AS n FROM audits').get() as { n: number }).n).toBe(1);
    expect(loadAudit(db, 999)).toBeNull();
    db.close();
  });

  it('goes with its scan when the scan is pruned', () => {
    const { db, reader } = snapshotOf(spec);
    saveAudit(db, runAudit(reader, rules));
    const second = ScanWriter.start(db, 'http://127.0.0.1/client/v4', { accounts: [], zones: [] }, (s) => s);
    second.finish('complete', {});
    saveAudit(db, runAudit(new SnapshotReader(db, second.scanId), rules));
    expect(pruneScans(db, 1).deletedScans).toEqual([reader.scan.id]);
    expect(loadAudit(db, reader.scan.id)).toBeNull();
    expect((db.prepare('SELECT DISTINCT scan_id FROM findings').all() as Array<{ scan_id: number }>).map((r) => r.scan_id)).toEqual([]);
    expect(loadAudit(db, second.scanId)).not.toBeNull();
    db.close();
  });

  it('lets a scan write the same file while an audit runs, and replaces the audit only at the end', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'zw-store-')), 'busy.db');
    const db = openSnapshot(path);
    const writer = ScanWriter.start(db, 'http://127.0.0.1/client/v4', { accounts: [], zones: [] }, (s) => s);
    writer.partition('user', '', 'accounts').finish({ state: 'ok', pages: 1, items: 0 });
    writer.finish('complete', {});
    const reader = new SnapshotReader(db, writer.scanId);
    saveAudit(db, runAudit(reader, rules));
    // Another process (here a second connection that will not wait) writes while the rules run.
    const other = new Database(path);
    other.pragma('busy_timeout = 0');
    const seen: Array<number | null> = [];
    const probe = defineRule({
      meta: { ...zoneNotActive.meta, id: 'probe', scope: 'organisation' },
      defaultOptions: {},
      check(ctx) {
        other.prepare("UPDATE scans SET heartbeat_at = 'written during the audit' WHERE id = ?").run(writer.scanId);
        // The earlier audit stays readable, whole, until the new one replaces it.
        seen.push((other.prepare('SELECT count(*) AS n FROM audits').get() as { n: number }).n);
        ctx.pass({ type: 'user', id: 'probe', name: null });
      },
    });
    recordAudit(db, reader, activeRules(loadCatalogue([probe])));
    expect(seen).toEqual([1]);
    expect((db.prepare('SELECT heartbeat_at FROM scans').get() as { heartbeat_at: string }).heartbeat_at).toBe('written during the audit');
    expect(loadAudit(db, writer.scanId)?.rules.map((r) => r.id)).toEqual(['probe']);
    other.close();
    db.close();
  });

  it('upgrades a database of schema 1, keeping its scans', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'zw-store-')), 'old.db');
    const old = new Database(path);
    old.exec(MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    old.prepare("INSERT INTO scans (started_at, finished_at, status, base_url, scope, tool_version, pid, host, heartbeat_at) VALUES ('t', 't', 'complete', 'u', '{}', '0.0.1', 1, 'h', 't')").run();
    old.close();
    const db = openSnapshot(path);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(2);
    expect((db.prepare('SELECT count(*) AS n FROM scans').get() as { n: number }).n).toBe(1);
    expect((db.prepare('SELECT count(*) AS n FROM findings').get() as { n: number }).n).toBe(0);
    db.close();
  });
});
