import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { recordAudit, runAudit } from '../../src/audit/audit.js';
import { activeRules, loadCatalogue } from '../../src/policy/registry.js';
import { defineRule } from '../../src/policy/rule.js';
import { auditFindings, auditHeader, saveAudit } from '../../src/audit/store.js';
import { loadAudit, storedFindings } from '../support/stored-audit.js';
import { officialAuditId } from '../../src/audit/audit-identity.js';
import { judgementOf } from '../../src/policy/judgement.js';
import { parseWaivers } from '../../src/policy/waivers.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/snapshot/migrations.js';
import { pruneScansAndAudits } from '../../src/audit/retention.js';
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

  it('replaces the audit, keeping its id, when a scan is audited again with the same rules and waivers', () => {
    const { db, reader } = snapshotOf(spec);
    const first = saveAudit(db, runAudit(reader, rules));
    const again = saveAudit(db, runAudit(reader, rules));
    expect(again).toEqual({ auditId: first.auditId, scanId: reader.scan.id, trial: null, replaced: true, official: null });
    expect((db.prepare('SELECT count(*) AS n FROM audits').get() as { n: number }).n).toBe(1);
    expect(loadAudit(db, 999)).toBeNull();
    db.close();
  });

  // issue 32 item 4: an audit with other rules, options or waivers than the scan's official audit
  // is stored as an audit of its own; the official audit, which reports and drift rest on, stays.
  it('stores an audit with other rules or waivers as a trial beside the official audit, which stays', () => {
    const { db, reader } = snapshotOf(spec);
    const official = saveAudit(db, runAudit(reader, rules));
    const before = [...storedFindings(db, reader.scan.id)];
    const fewer = activeRules(loadCatalogue([quota, zoneNotActive]), { 'zone-not-active': { enabled: false } });
    const trial = saveAudit(db, runAudit(reader, fewer));
    expect(trial.trial).toBe('rules or their settings differ from the official audit of scan 1');
    expect(trial).toMatchObject({ scanId: reader.scan.id, replaced: false, official: official.auditId });
    expect(trial.auditId).not.toBe(official.auditId);
    expect([...storedFindings(db, reader.scan.id)]).toEqual(before);
    expect([...auditFindings(db, trial.auditId)].map((f) => f.rule)).toEqual(['firewall-rule-quota', 'firewall-rule-quota']);
    // Waivers alone make a trial too; auditing again with a trial's settings refreshes that trial.
    const waivers = parseWaivers('- {rule: zone-not-active, zone: paused.example, reason: r, owner: o, expires: 2027-01-01}', 'w', ['zone-not-active'], 'yaml');
    const waived = saveAudit(db, runAudit(reader, rules, waivers));
    expect(waived.trial).toBe('waivers differ from the official audit of scan 1');
    expect(saveAudit(db, runAudit(reader, rules, waivers))).toMatchObject({ auditId: waived.auditId, replaced: true, trial: waived.trial });
    expect(officialAuditId(db, reader.scan.id)).toBe(official.auditId);
    expect((db.prepare('SELECT count(*) AS n FROM audits').get() as { n: number }).n).toBe(3);
    // Made official on purpose (audit --official): the former official audit stays, as a trial.
    const chosen = saveAudit(db, runAudit(reader, fewer), new Date(), { judgement: judgementOf(fewer, [], null), madeBy: 'audit', official: true });
    expect(chosen).toMatchObject({ auditId: trial.auditId, trial: null, official: official.auditId });
    expect(officialAuditId(db, reader.scan.id)).toBe(trial.auditId);
    expect(auditHeader(db, official.auditId)?.trial).toBe('replaced as the official audit of scan 1 by audit --official');
    db.close();
  });

  it('goes with its scan when the scan is pruned', () => {
    const { db, reader } = snapshotOf(spec);
    saveAudit(db, runAudit(reader, rules));
    const second = ScanWriter.start(db, 'http://127.0.0.1/client/v4', { accounts: [], zones: [] }, (s) => s);
    second.finish('complete', {});
    saveAudit(db, runAudit(new SnapshotReader(db, second.scanId), rules));
    expect(pruneScansAndAudits(db, 1).deletedScans).toEqual([reader.scan.id]);
    expect(loadAudit(db, reader.scan.id)).toBeNull();
    expect(db.prepare('SELECT DISTINCT audit_id FROM findings').pluck().all()).toEqual([]);
    expect(loadAudit(db, second.scanId)).not.toBeNull();
    db.close();
  });

  it('prunes the trial audits of a deleted scan with it, and keeps those of the scans kept', () => {
    const { db, reader } = snapshotOf(spec);
    const fewer = activeRules(loadCatalogue([quota]));
    saveAudit(db, runAudit(reader, rules));
    saveAudit(db, runAudit(reader, fewer));
    const second = ScanWriter.start(db, 'http://127.0.0.1/client/v4', { accounts: [], zones: [] }, (s) => s);
    second.finish('complete', {});
    const secondReader = new SnapshotReader(db, second.scanId);
    saveAudit(db, runAudit(secondReader, rules));
    const kept = saveAudit(db, runAudit(secondReader, fewer));
    expect(kept.trial).not.toBeNull();
    expect(pruneScansAndAudits(db, 1).deletedScans).toEqual([reader.scan.id]);
    expect(db.prepare('SELECT scan_id, trial IS NULL AS official FROM audits ORDER BY id').all()).toEqual([
      { scan_id: second.scanId, official: 1 },
      { scan_id: second.scanId, official: 0 },
    ]);
    expect(db.prepare('SELECT count(*) FROM findings WHERE audit_id NOT IN (SELECT id FROM audits)').pluck().get()).toBe(0);
    expect(auditHeader(db, kept.auditId)?.scanId).toBe(second.scanId);
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
    const probing = activeRules(loadCatalogue([probe]));
    // Other rules than the stored audit's: made the official audit on purpose, else it would be a trial beside it.
    recordAudit(db, reader, probing, [], { identity: { judgement: judgementOf(probing, [], null), madeBy: 'audit', official: true } });
    expect(seen).toEqual([1]);
    expect((db.prepare('SELECT heartbeat_at FROM scans').get() as { heartbeat_at: string }).heartbeat_at).toBe('written during the audit');
    expect(loadAudit(db, writer.scanId)?.rules.map((r) => r.id)).toEqual(['probe']);
    other.close();
    db.close();
  });

  // issue 32 item 4: audits get ids of their own (schema 10); a database of schema 9 keeps every
  // audit, finding and per-zone count, each audit under its scan's id, official, the foreign keys following.
  it('upgrades a database of schema 9 with audits, keeping them whole under ids of their own', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'zw-store-')), 'schema9.db');
    const old = new Database(path);
    for (const m of MIGRATIONS.slice(0, 9)) old.exec(m);
    old.pragma('user_version = 9');
    const scan = old.prepare("INSERT INTO scans (started_at, finished_at, status, base_url, scope, tool_version, pid, host, heartbeat_at) VALUES (?, ?, 'complete', 'u', '{}', '0.0.1', 1, 'h', ?)");
    for (const at of ['2026-11-01T02:00:00.000Z', '2026-11-02T02:00:00.000Z']) scan.run(at, at, at);
    const counts = JSON.stringify({ byStatus: { fail: 1, unknown: 0, waived: 0, pass: 2 }, failBySeverity: { high: 1 }, byRule: {} });
    const audit = old.prepare("INSERT INTO audits (scan_id, evaluated_at, tool_version, rules, counts, errors, waivers, findings_from, findings_to, reuse_key, reused_rules) VALUES (?, 't', '0.0.1', '[]', ?, '[]', '{}', ?, ?, 'k', '[\"r\"]')");
    audit.run(1, counts, 1, 1);
    audit.run(2, counts, 2, 2);
    const finding = old.prepare("INSERT INTO findings (scan_id, fingerprint, rule, category, severity, status, zone_id, zone_name, resource_type, resource_id, message, data) VALUES (?, ?, 'r', 'dns', 'high', 'fail', 'z1', 'a.example', 'zone', 'z1', 'm', '{}')");
    finding.run(1, 'fp-1');
    finding.run(2, 'fp-2');
    // Scan 2's audit kept zone z1's verdicts from scan 1's: its rows stay there.
    old.prepare("INSERT INTO audit_zones (scan_id, zone_id, source_scan, counts) VALUES (1, 'z1', 1, '{\"q\":[1]}'), (2, 'z1', 1, '')").run();
    old.close();

    const db = openSnapshot(path);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT id, scan_id, trial, made_by, judgement, reuse_key FROM audits ORDER BY id').all()).toEqual([
      { id: 1, scan_id: 1, trial: null, made_by: 'audit', judgement: null, reuse_key: 'k' },
      { id: 2, scan_id: 2, trial: null, made_by: 'audit', judgement: null, reuse_key: 'k' },
    ]);
    expect(db.prepare('SELECT audit_id, fingerprint FROM findings ORDER BY pk').all()).toEqual([
      { audit_id: 1, fingerprint: 'fp-1' },
      { audit_id: 2, fingerprint: 'fp-2' },
    ]);
    expect(db.prepare('SELECT audit_id, zone_id, source_audit, counts FROM audit_zones ORDER BY audit_id').all()).toEqual([
      { audit_id: 1, zone_id: 'z1', source_audit: 1, counts: '{"q":[1]}' },
      { audit_id: 2, zone_id: 'z1', source_audit: 1, counts: '' },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(officialAuditId(db, 2)).toBe(2);
    expect(loadAudit(db, 1)?.findings.map((f) => f.fingerprint)).toEqual(['fp-1']);
    // A new audit takes an id after the migrated ones; deleting a scan still takes its audit and findings.
    const reader = new SnapshotReader(db, 2);
    const trial = saveAudit(db, runAudit(reader, rules));
    expect(trial.auditId).toBe(3);
    expect(trial.trial).toBe('rules, settings or waivers may differ (it was stored by an earlier zonewarden) from the official audit of scan 2');
    db.prepare('DELETE FROM scans WHERE id = 1').run();
    expect(db.prepare('SELECT count(*) FROM findings WHERE audit_id = 1').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM audit_zones WHERE audit_id = 1').pluck().get()).toBe(0);
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
