import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { crawl } from '../../src/crawler/crawl.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { ArrayRecordStore, type DnsRecord, type Zone } from '../../src/emulator/state.js';
import { createRedactor } from '../../src/common/redact.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { SnapshotReader, type Readout } from '../../src/snapshot/reader.js';
import { scanRef } from '../../src/snapshot/scan-ref.js';
import { ScanWriter, type ScanScope } from '../../src/snapshot/writer.js';
import { clientFor, recordingLogger } from './client.js';
import { TOKEN } from './http.js';

/** The snapshot store's tests (test/snapshot/storage*.test.ts): whole scans in-process and what they leave in the file. */

export function dbFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'zw-store-')), 'zonewarden.db');
}

/** A whole scan in-process, database closed afterwards (as the CLI leaves it). */
export async function scan(emu: RunningEmulator, path: string, scope: Partial<ScanScope> = {}, secrets: string[] = [TOKEN]): Promise<{ scanId: number; status: string }> {
  const s: ScanScope = { accounts: scope.accounts ?? [], zones: scope.zones ?? [] };
  const db = openSnapshot(path);
  // No pacing: these tests measure storage, not politeness to the API.
  const client = clientFor(emu, { budget: 1_000_000, budgetWindowMs: 1000 });
  try {
    const writer = ScanWriter.start(db, emu.url, s, createRedactor(secrets));
    const result = await crawl({ client, writer, scope: s, concurrency: 8, logger: recordingLogger() });
    const status = result.missing.length ? 'incomplete' : 'complete';
    writer.finish(status, { missing: result.missing.length });
    return { scanId: writer.scanId, status };
  } finally {
    await client.close();
    db.close();
  }
}

/** The pid of a process that has exited. */
export function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

export function withDb<T>(path: string, fn: (db: Db) => T): T {
  const db = openSnapshot(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

export const VERSIONED = ['coverage', 'accounts', 'zones', 'dns_records', 'certificate_packs', 'firewall_rules', 'filters', 'zone_objects', 'waf_packages', 'waf_groups', 'waf_rules', 'waf_overrides', 'invites'];

export function rowCounts(db: Db): Record<string, number> {
  return Object.fromEntries(VERSIONED.map((t) => [t, (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]));
}

function shape<T extends { id: string; raw: string }>(r: Readout<T>): unknown {
  return r.known ? r.items.map((i) => [i.id, i.raw]).sort(([a], [b]) => (a! < b! ? -1 : 1)) : { unknown: r.state };
}

/** Everything a reader returns for a scan, in a comparable form. */
export function dump(db: Db, scanId: number): Record<string, unknown> {
  const reader = new SnapshotReader(db, scanId);
  const out: Record<string, unknown> = { accounts: shape(reader.accounts()), invites: shape(reader.invites()) };
  for (const z of reader.zones()) {
    out[z.name] = {
      zone: z.raw,
      dns: shape(reader.dnsRecords(z.id)),
      packs: shape(reader.certificatePacks(z.id)),
      rules: shape(reader.firewallRules(z.id)),
      filters: shape(reader.filters(z.id)),
      packages: shape(reader.wafPackages(z.id)),
      groups: shape(reader.wafGroups(z.id)),
      wafRules: shape(reader.wafRules(z.id)),
      overrides: shape(reader.wafOverrides(z.id)),
      status: shape(reader.zoneObject(z.id, 'migration_status')),
      check: shape(reader.zoneObject(z.id, 'migration_check')),
      config: shape(reader.zoneObject(z.id, 'migration_config')),
      entrypoint: shape(reader.zoneObject(z.id, 'entrypoint')),
    };
  }
  return out;
}

export function dnsOf(db: Db, scanId: number, zone: string): Array<{ id: string; content: string | null }> {
  const r = new SnapshotReader(db, scanId).dnsRecords(zone);
  if (!r.known) throw new Error(r.reason);
  return r.items.map((i) => ({ id: i.id, content: i.content }));
}

/** Makes a zone's records an editable array (generated zones compute them on demand). */
export function records(zone: Zone): DnsRecord[] {
  if (!(zone.dns instanceof ArrayRecordStore)) zone.dns = new ArrayRecordStore(Array.from({ length: zone.dns.size }, (_, i) => zone.dns.at(i)));
  return (zone.dns as ArrayRecordStore).records;
}

export function removeZone(emu: RunningEmulator, name: string): Zone {
  const zone = emu.org.state.zones.find((z) => z.name === name)!;
  emu.org.state.zones.splice(emu.org.state.zones.indexOf(zone), 1);
  emu.org.zonesById.delete(zone.id);
  emu.org.touch();
  return zone;
}

export function restoreZone(emu: RunningEmulator, zone: Zone): void {
  emu.org.state.zones.push(zone);
  emu.org.zonesById.set(zone.id, zone);
  emu.org.touch();
}

/** A generated organisation's size, for the rescan property at the suite's size and at scale. */
export interface GeneratedOrganisation {
  seed: number;
  accounts: number;
  zones: number;
  records: number;
}

/**
 * An unchanged organisation rescanned grows the file by at most 2%, then a rescan versions only
 * what changed and keeps history: `npm test` at a small size, `npm run test:full` at 200 zones.
 */
export async function rescansGrowOnlyWithChanges(emu: RunningEmulator, organisation: GeneratedOrganisation): Promise<void> {
  const path = dbFile();
  const s1 = await scan(emu, path);
  expect(s1.status).toBe('complete');
  const size1 = statSync(path).size;
  const rows1 = withDb(path, rowCounts);
  expect(rows1['dns_records']).toBe(organisation.records);

  const s2 = await scan(emu, path);
  expect(s2.status).toBe('complete');
  const size2 = statSync(path).size;
  // finish() folds the WAL into the file, so the file size is the whole story.
  expect(!existsSync(`${path}-wal`) || statSync(`${path}-wal`).size === 0).toBe(true);
  expect(size2).toBeLessThanOrEqual(size1 * 1.02);
  const rows2 = withDb(path, rowCounts);
  // The migration status of a migrated zone is never read again (the migration is irreversible,
  // vendor docs: WAF migration): the second scan carries it forward, one coverage row a zone
  // pointing at the first scan's read, and copies no data row.
  const migrated = emu.org.visibleZones().filter((z) => z.migration.state === 'complete' || z.migration.state === 'none').length;
  expect(migrated).toBeGreaterThan(0);
  expect({ ...rows2, coverage: rows2['coverage']! - migrated }).toEqual(rows1);
  withDb(path, (db) => {
    expect(db.prepare('SELECT count(*) AS n FROM dns_records WHERE first_scan = ? AND last_scan = ?').get(scanRef(s1.scanId), scanRef(s2.scanId))).toEqual({ n: organisation.records });
    expect(dump(db, s2.scanId)).toEqual(dump(db, s1.scanId));
  });

  const zones = emu.org.visibleZones().filter((z) => z.dns.size >= 5 && z.firewallRules.size > 0);
  const [a, b, c] = [zones[0]!, zones[1]!, zones[2]!];
  const removed = records(a).splice(4, 1)[0]!;
  const rule = [...b.firewallRules.values()][0]!;
  const oldAction = rule.action;
  rule.action = oldAction === 'block' ? 'log' : 'block';
  const added: DnsRecord = { ...c.dns.at(0), id: 'added00000000000000000000000000a', name: `new.${c.name}`, content: '192.0.2.77' };
  emu.org.addDnsRecord(c, added);
  emu.org.touch();

  const s3 = await scan(emu, path);
  expect(s3.status).toBe('complete');
  withDb(path, (db) => {
    const rows3 = rowCounts(db);
    expect(rows3['dns_records']).toBe(rows1['dns_records']! + 1);
    expect(rows3['firewall_rules']).toBe(rows1['firewall_rules']! + 1);
    for (const t of ['zones', 'certificate_packs', 'filters', 'waf_packages', 'waf_groups', 'waf_rules', 'zone_objects', 'accounts', 'invites']) expect(rows3[t], t).toBe(rows1[t]);
    expect(db.prepare('SELECT item_id FROM dns_records WHERE first_scan = ?').all(scanRef(s3.scanId))).toEqual([{ item_id: added.id }]);
    expect(db.prepare('SELECT item_id FROM firewall_rules WHERE first_scan = ?').all(scanRef(s3.scanId))).toEqual([{ item_id: rule.id }]);
    expect(db.prepare('SELECT last_scan FROM dns_records WHERE item_id = ?').get(removed.id)).toEqual({ last_scan: scanRef(s2.scanId) });

    // Scan 1 still answers with the data as it was then.
    expect(dnsOf(db, s1.scanId, a.id).map((r) => r.id)).toContain(removed.id);
    expect(dnsOf(db, s3.scanId, a.id).map((r) => r.id)).not.toContain(removed.id);
    const actionIn = (scanId: number) => {
      const r = new SnapshotReader(db, scanId).firewallRules(b.id);
      return r.known ? r.items.find((i) => i.id === rule.id)?.action : undefined;
    };
    expect(actionIn(s1.scanId)).toBe(oldAction);
    expect(actionIn(s3.scanId)).toBe(rule.action);
    expect(dnsOf(db, s1.scanId, c.id).map((r) => r.id)).not.toContain(added.id);
    expect(dnsOf(db, s3.scanId, c.id)).toContainEqual({ id: added.id, content: '192.0.2.77' });
    expect(dump(db, s2.scanId)).toEqual(dump(db, s1.scanId));
  });
}
