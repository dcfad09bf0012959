import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../rules/index.js';
import { DEMO_RULE_SETTINGS } from '../../src/cli/commands/demo.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { recordAudit, runAudit, type AuditResult } from '../../src/policy/audit.js';
import type { Finding } from '../../src/policy/findings.js';
import { activeRules, loadCatalogue, type RuleSettings } from '../../src/policy/registry.js';
import { referencedAudits } from '../../src/policy/reuse-rows.js';
import { auditFindings, auditFindingsJson, auditHeader, storedFindingsJson } from '../../src/policy/store.js';
import { officialAuditId } from '../../src/policy/audit-identity.js';
import type { Waiver } from '../../src/policy/waivers.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { pruneScans } from '../../src/snapshot/prune.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorsClosedAfterEach, TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/**
 * Verdict reuse (issue 30): an audit that keeps the verdicts of unchanged zones must store exactly
 * what a full audit of the same scan would: the same findings (fingerprints, statuses, severities,
 * messages, data, waivers) in the same order, the same counts and waiver report. The scans are
 * real scans of the emulator, changed between them by its night control.
 */

const emulator = emulatorsClosedAfterEach();
const catalogue = loadCatalogue(RULES);

async function scanned(emu: RunningEmulator): Promise<{ db: Db; scan: () => Promise<number> }> {
  const dir = mkdtempSync(join(tmpdir(), 'zw-reuse-'));
  const path = join(dir, 'zonewarden.db');
  const scan = async () => {
    const run = await runInProcess(['scan', '--base-url', emu.url, '--db', path, '--budget', '1000000', '--quiet'], { ZONEWARDEN_API_TOKEN: TOKEN }, dir);
    expect(run.code, run.stderr).toBeLessThanOrEqual(3);
    const db = openSnapshot(path);
    try {
      return db.prepare('SELECT max(id) FROM scans').pluck().get() as number;
    } finally {
      db.close();
    }
  };
  await scan();
  return { db: openSnapshot(path), scan };
}

const shown = (f: Finding) => ({ ...f });

/** A generated organisation small enough for a test, large enough for nights to change some zones and keep others. */
const GENERATED_ORG = { dataset: 'generated', generated: { seed: 11, accounts: 2, zones: 30, records: 1200 } } as const;

/**
 * The audit as stored, next to the same audit held in memory without reuse. Audits of one scan
 * with other settings or waivers are trials beside its official audit (issue 32): each is read
 * back by the id it was stored under.
 */
function auditBoth(db: Db, scanId: number, settings: Record<string, RuleSettings>, waivers: Waiver[] = [], rulesFrom = catalogue, onStored = () => {}): { stored: AuditResult; full: AuditResult } {
  const rules = activeRules(rulesFrom, settings);
  const stored = recordAudit(db, new SnapshotReader(db, scanId), rules, waivers);
  onStored();
  const full = runAudit(new SnapshotReader(db, scanId), rules, waivers, { keepPasses: false });
  const auditId = stored.stored!.auditId;
  const findings = [...auditFindings(db, auditId)].map(shown);
  expect(findings).toEqual(full.findings.map(shown));
  // The JSON texts built by SQLite follow the same path.
  expect([...auditFindingsJson(db, auditId)].map((t) => JSON.parse(t) as unknown)).toEqual(JSON.parse(JSON.stringify(full.findings)));
  expect(stored.counts).toEqual(full.counts);
  expect(stored.failingAtOrAbove).toEqual(full.failingAtOrAbove);
  expect(stored.waivers).toEqual(full.waivers);
  expect(stored.errors).toEqual(full.errors);
  expect(auditHeader(db, auditId)?.counts).toEqual(full.counts);
  return { stored, full };
}

const waiver = (over: Partial<Waiver>): Waiver => ({
  index: 1,
  rule: 'dns-*',
  zone: '*',
  resource: null,
  reason: 'accepted',
  owner: 'ops',
  expires: '2099-01-01',
  expiresAt: new Date('2099-01-02T00:00:00Z'),
  ...over,
});

describe('an audit that keeps the verdicts of unchanged zones', () => {
  // design.md "A rule": a check is pure and judges against the scan's time; issue 30 item 4: rules that use it declare it.
  it("is equal to a full audit on the tests' organisation after changes, option changes, waivers and time", async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const { db, scan } = await scanned(emu);
    try {
      const first = auditBoth(db, 1, DEMO_RULE_SETTINGS);
      expect(first.stored.reused).toBeUndefined();

      emu.night({ share: 0.3, seed: 3 });
      const second = await scan();
      const { stored } = auditBoth(db, second, DEMO_RULE_SETTINGS);
      expect(stored.reused?.fromScan).toBe(1);
      expect(stored.reused?.zones).toBeGreaterThan(0);
      expect(stored.reused!.zones).toBeLessThan(stored.zones);

      // An option changed: nothing is kept (the key differs), and the result is still the full audit's.
      const changedOptions = { ...DEMO_RULE_SETTINGS, 'dns-record-not-proxied': { enabled: false } };
      expect(auditBoth(db, second, changedOptions).stored.reused).toBeUndefined();

      // A waiver added: nothing kept either; then the next audit with it keeps from that one.
      const waivers = [waiver({})];
      expect(auditBoth(db, second, DEMO_RULE_SETTINGS, waivers).stored.reused).toBeUndefined();
      emu.night({ share: 0.1, seed: 4 });
      const third = await scan();
      const withWaiver = auditBoth(db, third, DEMO_RULE_SETTINGS, waivers).stored;
      expect(withWaiver.reused?.fromScan).toBe(second);
      expect(withWaiver.counts.byStatus.waived).toBeGreaterThan(0);

      // A waiver that ends between the two scans' times changes kept failures: no reuse.
      const scanTime = (id: number) => new Date(db.prepare('SELECT started_at FROM scans WHERE id = ?').pluck().get(id) as string).getTime();
      const ending = [waiver({ expires: 'between', expiresAt: new Date((scanTime(second) + scanTime(third)) / 2) })];
      auditBoth(db, second, DEMO_RULE_SETTINGS, ending);
      expect(auditBoth(db, third, DEMO_RULE_SETTINGS, ending).stored.reused).toBeUndefined();

      // Time moves 40 days with no zone changed: rules on the time are judged again, the rest kept.
      auditBoth(db, third, DEMO_RULE_SETTINGS);
      for (let night = 0; night < 40; night++) emu.night({ share: 0, seed: 5 });
      const later = await scan();
      const aged = auditBoth(db, later, DEMO_RULE_SETTINGS).stored;
      expect(aged.reused?.fromScan).toBe(third);
    } finally {
      db.close();
    }
  }, 120_000);

  it('is equal to a full audit on a generated organisation, through a chain of audits, a re-audit and prune', async () => {
    const emu = await emulator(GENERATED_ORG);
    const { db, scan } = await scanned(emu);
    try {
      auditBoth(db, 1, {});
      const ids = [1];
      for (const seed of [1, 2, 3]) {
        emu.night({ share: 0.1, seed });
        const id = await scan();
        const { stored } = auditBoth(db, id, {});
        expect(stored.reused?.fromScan).toBe(ids.at(-1));
        ids.push(id);
      }
      const last = ids.at(-1)!;
      const [firstAudit, lastAudit] = [officialAuditId(db, 1)!, officialAuditId(db, last)!];
      // Flattened: the last audit reads rows of the audits that judged each zone, the first included.
      expect(referencedAudits(db, lastAudit)).toContain(firstAudit);
      const before = [...storedFindingsJson(db, last)];
      // Auditing the first scan again with the same settings replaces its rows (keeping its id): the
      // audits that read them get their own copy first.
      const again = recordAudit(db, new SnapshotReader(db, 1), activeRules(catalogue, {}), [], { reuse: false });
      expect(again.stored).toMatchObject({ auditId: firstAudit, replaced: true, trial: null });
      expect(referencedAudits(db, lastAudit)).not.toContain(firstAudit);
      expect([...storedFindingsJson(db, last)]).toEqual(before);
      // Prune deletes the older scans, audits included: a kept audit that read rows of one gets its own
      // copy first, so no old scan is kept only for the verdicts a later audit reused.
      emu.night({ share: 0.1, seed: 4 });
      const newest = await scan();
      auditBoth(db, newest, {});
      const newestAudit = officialAuditId(db, newest)!;
      expect(referencedAudits(db, newestAudit)).toContain(lastAudit);
      const newestBefore = [...storedFindingsJson(db, newest)];
      const pruned = pruneScans(db, 1);
      expect(pruned.keptScans).toEqual([newest]);
      expect(referencedAudits(db, newestAudit)).toEqual([]);
      expect([...storedFindingsJson(db, newest)]).toEqual(newestBefore);
    } finally {
      db.close();
    }
  }, 120_000);

  // Issue 30 item 4 ("an audit that does only new work"): a zone whose DNS records alone changed is
  // judged again by the rules that read them; the other rules' verdicts are taken over, and the
  // audit is still the full audit's, findings, counts and order.
  it('judges a zone whose records alone changed again by the rules that read its records only', async () => {
    const calls: Array<[rule: string, zone: string | undefined]> = [];
    const counted = loadCatalogue(
      RULES.map((r) => ({ ...r, check: (ctx: Parameters<typeof r.check>[0]) => (calls.push([r.meta.id, (ctx as { zone?: { id: string } }).zone?.id]), r.check(ctx as never)) })) as typeof RULES,
    );
    const emu = await emulator(GENERATED_ORG);
    const { db, scan } = await scanned(emu);
    try {
      const first = auditBoth(db, 1, {}, [], counted).stored;
      const order = JSON.parse(db.prepare('SELECT reused_rules FROM audits WHERE id = ?').pluck().get(first.stored!.auditId) as string) as string[];
      const readsOf = (auditId: number, zoneId: string) => {
        // Stored as {endpoint: [places of the rules in the audit's order]}: read back as rule -> endpoints.
        // A kept zone's are its source audit's.
        const text = db
          .prepare('SELECT coalesce(a.reads, s.reads) FROM audit_zones a LEFT JOIN audit_zones s ON s.audit_id = a.source_audit AND s.zone_id = a.zone_id WHERE a.audit_id = ? AND a.zone_id = ?')
          .pluck()
          .get(auditId, zoneId) as string;
        const byRule = new Map<string, string[]>();
        for (const [endpoint, places] of Object.entries(JSON.parse(text) as Record<string, number[]>)) for (const i of places) byRule.set(order[i]!, [...(byRule.get(order[i]!) ?? []), endpoint]);
        return byRule;
      };
      const night = emu.night({ share: 0.3, seed: 3 });
      const renewed = new Set(night.renewed.map((r) => r.zone_id));
      const kinds = new Map<string, Set<string>>();
      for (const c of night.changed) (kinds.get(c.zone_id) ?? kinds.set(c.zone_id, new Set()).get(c.zone_id)!).add(c.change);
      const recordsOnly = [...kinds].filter(([zone, k]) => k.size === 1 && k.has('dns_record') && !renewed.has(zone)).map(([zone]) => zone);
      expect(recordsOnly.length).toBeGreaterThan(0);
      // Rows of two zones changed in what the first audit stored. On one, a row of a rule that
      // does not read records taken away: its verdicts no longer match what that audit counted, so
      // the rule runs rather than replays, and the zone is not kept as it was. On another, a row of
      // a rule that reads records altered: the rule run no longer gives what that audit holds, so
      // that zone is not kept as it was either.
      const rowsOf = (zone: string) => db.prepare('SELECT pk, rule FROM findings WHERE audit_id = ? AND zone_id = ? ORDER BY pk').all(first.stored!.auditId, zone) as Array<{ pk: number; rule: string }>;
      const readsRecordsOn = (zone: string) => (rule: string) => (readsOf(first.stored!.auditId, zone).get(rule) ?? []).some((e) => e === 'dns_records' || e === 'dns_targets');
      const rowWhere = (zone: string, records: boolean) => rowsOf(zone).find((r) => order.includes(r.rule) && readsRecordsOn(zone)(r.rule) === records);
      const tampered = recordsOnly.find((z) => rowWhere(z, false));
      expect(tampered).toBeDefined();
      const readsRecords = readsRecordsOn(tampered!);
      const lost = rowWhere(tampered!, false)!;
      const alteredZone = recordsOnly.find((z) => z !== tampered && rowWhere(z, true));
      expect(alteredZone).toBeDefined();
      db.prepare('DELETE FROM findings WHERE pk = ?').run(lost.pk);
      db.prepare("UPDATE findings SET message = message || ' (altered)' WHERE pk = ?").run(rowWhere(alteredZone!, true)!.pk);
      const second = await scan();
      calls.length = 0;
      let storing: typeof calls = [];
      const stored = auditBoth(db, second, {}, [], counted, () => (storing = calls.splice(0))).stored;
      // Each such zone is judged in part: stored so, or kept as it was when its rules run gave what they had.
      expect(stored.reused!.inPart + stored.reused!.unchanged).toBeGreaterThanOrEqual(recordsOnly.length);
      const sourceOf = (zone: string) => db.prepare('SELECT source_audit FROM audit_zones WHERE audit_id = ? AND zone_id = ?').pluck().get(stored.stored!.auditId, zone);
      expect(sourceOf(tampered!)).toBe(stored.stored!.auditId);
      expect(sourceOf(alteredZone!)).toBe(stored.stored!.auditId);
      // Many zones changed in the night give the verdicts they had: kept as they were, their rows
      // the first audit's, none read back or written again (the audit still equals a full one).
      expect(stored.reused!.unchanged).toBeGreaterThan(0);
      const keptAsTheyWere = [...new Set([...kinds.keys(), ...renewed])].filter((z) => sourceOf(z) === first.stored!.auditId);
      expect(keptAsTheyWere.length).toBe(stored.reused!.unchanged);
      const rowsWritten = db.prepare('SELECT count(*) FROM findings WHERE audit_id = ? AND zone_id = ? AND rule IN (SELECT value FROM json_each(?))').pluck();
      for (const zone of keptAsTheyWere) expect(rowsWritten.get(stored.stored!.auditId, zone, JSON.stringify(order))).toBe(0);
      for (const zone of recordsOnly) {
        const ran = new Set(storing.filter(([, z]) => z === zone).map(([rule]) => rule));
        // The rules run on the zone: those that read its records (dns_records) or what the scan
        // resolved of them (dns_targets), and those judged every time (they read the time).
        const before = readsOf(first.stored!.auditId, zone);
        const readRecords = (rule: string) => (before.get(rule) ?? []).some((e) => e === 'dns_records' || e === 'dns_targets');
        expect(ran.has('dns-record-not-proxied')).toBe(true);
        if (zone === tampered) expect(ran.has(lost.rule)).toBe(true);
        if (lost.rule !== 'ssl-mode-insecure' || zone !== tampered) expect(ran.has('ssl-mode-insecure')).toBe(false);
        for (const rule of ran) if (order.includes(rule) && !(zone === tampered && rule === lost.rule)) expect(readRecords(rule), rule).toBe(true);
        // What the rules read is kept whole: the rules not run keep what they read before.
        expect(readsOf(stored.stored!.auditId, zone).get('ssl-mode-insecure')).toEqual(before.get('ssl-mode-insecure'));
        // The SSL mode is a zone setting: read with the settings, never with the records.
        expect(before.get('ssl-mode-insecure')?.some((e) => e === 'zone_settings' || e === 'setting:ssl')).toBe(true);
        expect(before.get('ssl-mode-insecure')).not.toContain('dns_records');
      }
    } finally {
      db.close();
    }
  }, 120_000);

  // An audit chooses what to keep in its read transaction and stores in a later write transaction.
  // Another process that prunes the audit it keeps from in between (two cron jobs, a manual prune)
  // must not leave it pointing at rows that are gone: it notices when storing, and judges again.
  it('judges again when the audit it keeps verdicts from is pruned while it runs', async () => {
    const emu = await emulator(GENERATED_ORG);
    const { db, scan } = await scanned(emu);
    const path = db.name;
    let pruneOnce: (() => void) | null = null;
    // A rule that, the first time it runs while armed, has another connection prune the older scan.
    const racing = loadCatalogue(
      RULES.map((r) =>
        r.meta.id === 'zone-not-active'
          ? { ...r, check: (ctx: Parameters<typeof r.check>[0]) => (pruneOnce?.(), r.check(ctx as never)) }
          : r,
      ) as typeof RULES,
    );
    try {
      auditBoth(db, 1, {}, [], racing);
      emu.night({ share: 0.1, seed: 5 });
      const second = await scan();
      let pruned = 0;
      pruneOnce = () => {
        pruneOnce = null;
        const other = openSnapshot(path);
        try {
          pruned = pruneScans(other, 1).deletedScans.length;
        } finally {
          other.close();
        }
      };
      const { stored } = auditBoth(db, second, {}, [], racing);
      expect(pruned).toBe(1);
      // The second attempt found no audit to keep from (its scan is gone) and judged every zone.
      expect(stored.reused).toBeUndefined();
      expect(referencedAudits(db, stored.stored!.auditId)).toEqual([]);
    } finally {
      db.close();
    }
  }, 120_000);

  // issue 31 dns-dangling-target: a target inside another zone of the scan is judged from that zone's
  // records, so a zone whose own data did not change must still be judged again when that zone's
  // did, or when that zone goes (the target is then resolved live).
  // Schema 11: an audit keeps the sum of its zones' counts, and the next one adds the kept zones'
  // as that sum less the zones it judges again. An audit without the sum (stored before schema 11)
  // or whose rows do not add up to it is no base: every zone is judged, and the next audit keeps again.
  it('judges every zone when the base audit has no sum of counts or its rows do not add up to it', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const { db, scan } = await scanned(emu);
    try {
      const first = auditBoth(db, 1, DEMO_RULE_SETTINGS).stored;
      db.prepare('UPDATE audits SET tally_total = NULL WHERE id = ?').run(first.stored!.auditId);
      emu.night({ share: 0.2, seed: 7 });
      const second = await scan();
      const upgraded = auditBoth(db, second, DEMO_RULE_SETTINGS).stored;
      expect(upgraded.reused).toBeUndefined();

      // A sum smaller than its rows: taking away the zones judged again would leave less than nothing.
      db.prepare(`UPDATE audits SET tally_total = '{"q":[],"s":{},"w":{}}' WHERE id = ?`).run(upgraded.stored!.auditId);
      emu.night({ share: 0.2, seed: 8 });
      const third = await scan();
      const mended = auditBoth(db, third, DEMO_RULE_SETTINGS).stored;
      expect(mended.reused).toBeUndefined();

      emu.night({ share: 0.2, seed: 9 });
      const fourth = await scan();
      expect(auditBoth(db, fourth, DEMO_RULE_SETTINGS).stored.reused?.fromScan).toBe(third);
    } finally {
      db.close();
    }
  }, 120_000);

  it('judges a zone again when another zone its verdicts looked at changed or went', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const zones = emu.org.state.zones.filter((z) => z.type === 'full' && z.status === 'active');
    const [pointing, pointedAt] = [zones[0]!, zones[1]!];
    const iso = new Date().toISOString();
    const record = (id: string, type: string, name: string, content: string) => ({ id, type, name, content, proxiable: true, proxied: false, ttl: 300, comment: null, tags: [], created_on: iso, modified_on: iso });
    const target = `not-yet.${pointedAt.name}`;
    emu.org.addDnsRecord(pointing, record('c0ffee00000000000000000000000001', 'CNAME', `link.${pointing.name}`, target));
    const { db, scan } = await scanned(emu);
    try {
      const failing = (audit: AuditResult) => audit.findings.filter((f) => f.rule === 'dns-dangling-target' && f.zone?.id === pointing.id && f.message.includes(target));
      // RFC 1034 4.3.2: no record at or under the name in its zone: it does not exist.
      expect(failing(auditBoth(db, 1, DEMO_RULE_SETTINGS).full)).toHaveLength(1);
      emu.org.addDnsRecord(pointedAt, record('c0ffee00000000000000000000000002', 'A', target, '192.0.2.10'));
      const second = await scan();
      const { stored, full } = auditBoth(db, second, DEMO_RULE_SETTINGS);
      expect(stored.reused?.zones).toBeGreaterThan(0);
      expect(failing(full)).toEqual([]);
      // The zone pointed at goes: the target is now outside the scan and resolved live (no such name).
      emu.org.removeZone(pointedAt);
      const third = await scan();
      const after = auditBoth(db, third, DEMO_RULE_SETTINGS);
      expect(after.stored.reused?.zones).toBeGreaterThan(0);
      expect(after.full.findings.filter((f) => f.rule === 'dns-dangling-target' && f.zone?.id === pointing.id && f.message.includes(target))).toHaveLength(1);
    } finally {
      db.close();
    }
  }, 120_000);

  // issue 31 dns-dangling-target, issue 30 item 4: a zone that comes into the scan may hold a name
  // an unchanged zone's records point at, under it (RFC 1034 4.3.2: the zone holding the name
  // answers for it). The unchanged zone's verdicts are then judged again (audit_names), not kept.
  it('judges a zone again when a zone added to the scan holds a name its records point at', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const zones = emu.org.state.zones.filter((z) => z.type === 'full' && z.status === 'active');
    // A zone with no wildcard record: under one, every name exists.
    const recordNames = (z: (typeof zones)[number]) => Array.from({ length: z.dns.size }, (_, i) => z.dns.at(i).name);
    const arriving = zones.find((z) => !recordNames(z).some((n) => n.startsWith('*')))!;
    const pointing = zones.filter((z) => z !== arriving);
    const iso = new Date().toISOString();
    const target = `www.deep.${arriving.name}`;
    pointing.forEach((z, i) =>
      emu.org.addDnsRecord(z, { id: `c0ffee${String(i).padStart(26, '0')}`, type: 'CNAME', name: `deep-link.${z.name}`, content: target, proxiable: true, proxied: false, ttl: 300, comment: null, tags: [], created_on: iso, modified_on: iso }),
    );
    emu.org.removeZone(arriving);
    const { db, scan } = await scanned(emu);
    try {
      const verdicts = (audit: AuditResult) => audit.findings.filter((f) => f.rule === 'dns-dangling-target' && f.message.includes(target)).map((f) => [f.zone!.id, f.messageId]);
      // RFC 1034 4.3.2: outside the scan, the name is resolved and does not exist (zones whose records
      // the rule judges: one of the dataset's has its DNS records unread).
      const before = verdicts(auditBoth(db, 1, DEMO_RULE_SETTINGS).full);
      expect(before.length).toBeGreaterThan(pointing.length / 2);
      expect(before.every(([, id]) => id === 'dangling')).toBe(true);
      // The zone arrives without a record at the name: live DNS answers as before (no such name), so
      // nothing of the pointing zones changed; only which zone of the scan holds the name did.
      emu.org.addZone(arriving);
      const second = await scan();
      const startedAt = Date.parse(new SnapshotReader(db, second).scan.startedAt);
      const { stored, full } = auditBoth(db, second, DEMO_RULE_SETTINGS);
      expect(stored.reused?.zones).toBeGreaterThan(0);
      expect(verdicts(full)).toEqual(before.map(([zone]) => [zone, 'danglingInside']));
      // Some of the pointing zones' verdicts would still hold on the time: those too were judged again.
      const holds = db.prepare('SELECT holds FROM audit_zones WHERE audit_id = ? AND zone_id = ?').pluck();
      const wouldHold = pointing.filter((z) => (JSON.parse((holds.get(officialAuditId(db, 1), z.id) as string | null) ?? '{}') as { h?: number }).h! > startedAt);
      expect(wouldHold.length).toBeGreaterThan(0);
      const kept = db.prepare('SELECT zone_id FROM audit_zones WHERE audit_id = ? AND source_audit <> audit_id').pluck().all(officialAuditId(db, second)) as string[];
      expect(kept.filter((id) => pointing.some((z) => z.id === id))).toEqual([]);
    } finally {
      db.close();
    }
  }, 120_000);

  // issue 30 item 4: "rules that depend on the time declare it": a rule whose verdicts move with the
  // time alone, on the same data, must say so, or an audit would keep a stale verdict.
  it('is only safe because every rule that reads the time declares it', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const { db } = await scanned(emu);
    try {
      const rules = activeRules(catalogue, DEMO_RULE_SETTINGS);
      const reader = () => new SnapshotReader(db, 1);
      const start = new Date(reader().scan.startedAt).getTime();
      const byRule = (now: number) => {
        const audit = runAudit(reader(), rules, [], { now: new Date(now), keepPasses: true });
        const grouped = new Map<string, string[]>();
        for (const f of audit.findings) (grouped.get(f.rule) ?? grouped.set(f.rule, []).get(f.rule)!).push(JSON.stringify([f.fingerprint, f.status, f.severity, f.message, f.data]));
        return grouped;
      };
      const times = [start - 400 * 86_400_000, start, start + 45 * 86_400_000, start + 400 * 86_400_000];
      const results = times.map(byRule);
      const moved = new Set<string>();
      for (const r of rules) for (const other of results.slice(1)) if (JSON.stringify(other.get(r.rule.meta.id)) !== JSON.stringify(results[0]!.get(r.rule.meta.id))) moved.add(r.rule.meta.id);
      const undeclared = [...moved].filter((id) => catalogue.get(id)!.meta.dependsOnTime !== true);
      expect(undeclared).toEqual([]);
      // The check sees something: the certificate rule's verdicts do move with the time.
      expect(moved).toContain('certificate-expiry');
    } finally {
      db.close();
    }
  });
});
