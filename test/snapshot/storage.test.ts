import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { crawl } from '../../src/crawler/crawl.js';
import type { DnsRecord } from '../../src/emulator/state.js';
import { createRedactor, REDACTED } from '../../src/common/redact.js';
import { openSnapshot, SnapshotError, type Db } from '../../src/snapshot/db.js';
import { pruneScans } from '../../src/snapshot/prune.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { scanRef } from '../../src/snapshot/scan-ref.js';
import { ScanWriter } from '../../src/snapshot/writer.js';
import { caseDataset } from '../support/case-dataset.js';
import { clientFor, recordingLogger } from '../support/client.js';
import { thrownBy } from '../support/errors.js';
import { emulatorsClosedAfterEach, zoneId } from '../support/http.js';
import { dbFile, deadPid, dnsOf, dump, records, removeZone, rescansGrowOnlyWithChanges, restoreZone, rowCounts, scan, VERSIONED, withDb } from '../support/storage.js';

const emulator = emulatorsClosedAfterEach();

describe('scan writer', () => {
  function freshScan(db: Db): ScanWriter {
    return ScanWriter.start(db, 'http://127.0.0.1:1/client/v4', { accounts: [], zones: [] }, createRedactor(['s3cret-value']));
  }

  it('stores an item served twice in one read once', () => {
    withDb(dbFile(), (db) => {
      for (let round = 0; round < 2; round++) {
        const w = freshScan(db);
        const p = w.partition('zone', 'z1', 'dns_records');
        // Paging shifts (an insert before the cursor) serve the same record on two pages.
        p.write([{ id: 'r1', type: 'A', content: '192.0.2.1' }, { id: 'r2', type: 'A', content: '192.0.2.2' }]);
        p.write([{ id: 'r2', type: 'A', content: '192.0.2.2' }, { id: 'r3', type: 'A', content: '192.0.2.3' }]);
        p.finish({ state: 'ok', pages: 2, items: 4 });
        w.finish('complete', {});
        expect(dnsOf(db, w.scanId, 'z1').map((r) => r.id).sort()).toEqual(['r1', 'r2', 'r3']);
      }
      expect(rowCounts(db)['dns_records']).toBe(3);
    });
  });

  it('extends unchanged items, versions changed ones, and redacts secrets in stored JSON', () => {
    withDb(dbFile(), (db) => {
      const write = (items: unknown[]) => {
        const w = freshScan(db);
        const p = w.partition('zone', 'z1', 'dns_records');
        p.write(items);
        p.finish({ state: 'ok', pages: 1, items: items.length });
        w.finish('complete', {});
        return w.scanId;
      };
      const a = { id: 'a', type: 'TXT', content: 'token=s3cret-value' };
      const b = { id: 'b', type: 'A', content: '192.0.2.1', proxied: true, ttl: 300 };
      const s1 = write([a, b]);
      const s2 = write([a, { ...b, content: '192.0.2.9' }]);
      expect(db.prepare('SELECT item_id, first_scan, last_scan FROM dns_records ORDER BY pk').all()).toEqual([
        { item_id: 'a', first_scan: scanRef(s1), last_scan: scanRef(s2) },
        { item_id: 'b', first_scan: scanRef(s1), last_scan: scanRef(s1) },
        { item_id: 'b', first_scan: scanRef(s2), last_scan: scanRef(s2) },
      ]);
      expect(dnsOf(db, s1, 'z1')).toEqual(expect.arrayContaining([{ id: 'b', content: '192.0.2.1' }]));
      expect(dnsOf(db, s2, 'z1')).toEqual(expect.arrayContaining([{ id: 'b', content: '192.0.2.9' }]));
      const rows = db.prepare('SELECT raw, content FROM dns_records').all() as Array<{ raw: string; content: string }>;
      expect(rows.map((r) => r.raw).join('\n')).not.toContain('s3cret-value');
      expect(rows[0]!.raw).toContain(REDACTED);
      const r = new SnapshotReader(db, s1).dnsRecords('z1');
      expect(r.known && r.items.find((i) => i.id === 'b')).toMatchObject({ type: 'A', proxied: true, ttl: 300 });
    });
  });

  it('answers unknown for a partition the scan did not read, or read only in part', () => {
    withDb(dbFile(), (db) => {
      const w = freshScan(db);
      const p = w.partition('zone', 'z1', 'firewall_rules');
      p.write([{ id: 'f1', action: 'block' }]);
      p.finish({ state: 'failed', pages: 1, items: 1, httpStatus: 502, message: 'Bad gateway' });
      const t = w.partition('zone', 'z1', 'filters');
      t.write([{ id: 'x' }]);
      t.finish({ state: 'ok', pages: 1, items: 1, truncated: true, message: 'list truncated' });
      w.finish('incomplete', {});
      const reader = new SnapshotReader(db, w.scanId);
      expect(reader.firewallRules('z1')).toEqual({ known: false, state: 'failed', reason: 'firewall_rules: Bad gateway' });
      expect(reader.filters('z1')).toMatchObject({ known: false, state: 'failed' });
      expect(reader.dnsRecords('z1')).toMatchObject({ known: false, state: 'not-read' });
      expect(reader.coverageOf('zone', 'z1', 'firewall_rules')).toMatchObject({ state: 'failed', httpStatus: 502, items: 1 });
    });
  });
});

describe('rescans', () => {
  it('grow an unchanged organisation by at most 2%, then version only what changed, keeping history', async () => {
    // At 200 zones and 20,000 records: storage.scale.test.ts, in npm run test:full.
    const organisation = { seed: 5, accounts: 4, zones: 20, records: 2000 };
    await rescansGrowOnlyWithChanges(await emulator({ dataset: 'generated', generated: organisation }), organisation);
  });

  it('never shows a record in a scan that did not see it, even when it comes back identical', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const path = dbFile();
    const zone = emu.org.zonesById.get(zoneId(emu, 'northwind.example'))!;
    const list = records(zone);
    const s1 = await scan(emu, path);
    const [gone] = list.splice(0, 1);
    emu.org.touch();
    const s2 = await scan(emu, path);
    list.unshift(gone!);
    emu.org.touch();
    const s3 = await scan(emu, path);
    withDb(path, (db) => {
      expect(dnsOf(db, s1.scanId, zone.id).map((r) => r.id)).toContain(gone!.id);
      expect(dnsOf(db, s2.scanId, zone.id).map((r) => r.id)).not.toContain(gone!.id);
      expect(dnsOf(db, s3.scanId, zone.id).map((r) => r.id)).toContain(gone!.id);
      expect(dnsOf(db, s2.scanId, zone.id)).toHaveLength(list.length - 1);
    });
  });

  it('drops a zone the listing no longer has from that scan, and shows it again when restored', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const path = dbFile();
    const s1 = await scan(emu, path);
    const zone = removeZone(emu, 'northwind-shop.example');
    const s2 = await scan(emu, path);
    expect(s2.status).toBe('complete');
    restoreZone(emu, zone);
    const s3 = await scan(emu, path);
    withDb(path, (db) => {
      const names = (id: number) => new SnapshotReader(db, id).zones().map((z) => z.name);
      expect(names(s1.scanId)).toContain(zone.name);
      expect(names(s2.scanId)).not.toContain(zone.name);
      // The tests' organisation's 22 visible zones, less the removed one.
      expect(names(s2.scanId)).toHaveLength(21);
      expect(names(s3.scanId)).toContain(zone.name);
      expect(new SnapshotReader(db, s2.scanId).dnsRecords(zone.id)).toMatchObject({ known: false, state: 'not-read' });
      expect(dnsOf(db, s3.scanId, zone.id)).toHaveLength(zone.dns.size);
    });
  });

  it('drops a vanished zone from history even when a scoped scan read it after the last full listing', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const path = dbFile();
    const name = 'northwind-shop.example';
    await scan(emu, path);
    // A --zone scan reads the zone but not its account's listing.
    await scan(emu, path, { zones: [name] });
    const zone = removeZone(emu, name);
    const gone = await scan(emu, path);
    restoreZone(emu, zone);
    await scan(emu, path);
    withDb(path, (db) => {
      const reader = new SnapshotReader(db, gone.scanId);
      expect(reader.zones().map((z) => z.name)).not.toContain(name);
      expect(reader.dnsRecords(zone.id).known).toBe(false);
    });
  });
});

describe('scoped scans', () => {
  it('show only their scope, even where versions of other zones span them', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const path = dbFile();
    const first = await scan(emu, path);
    const scoped = await scan(emu, path, { zones: ['tinkerer.test'] });
    const last = await scan(emu, path);
    withDb(path, (db) => {
      const all = new SnapshotReader(db, first.scanId).zones().map((z) => z.name);
      // The tests' organisation's 22 visible zones.
      expect(all).toHaveLength(22);
      expect(new SnapshotReader(db, scoped.scanId).zones().map((z) => z.name)).toEqual(['tinkerer.test']);
      expect(new SnapshotReader(db, last.scanId).zones().map((z) => z.name)).toEqual(all);
    });
  });
});

describe('prune', () => {
  it('keeps the newest N, the latest complete scan and baselines, and the versions they use', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const path = dbFile();
    const zone = emu.org.zonesById.get(zoneId(emu, 'northwind.example'))!;
    const list = records(zone);
    const temp: DnsRecord = { ...list[0]!, id: 'temp0000000000000000000000000001', name: `tmp.${zone.name}`, content: '192.0.2.55' };
    const ids: number[] = [];
    ids.push((await scan(emu, path)).scanId);
    list.push(temp);
    emu.org.touch();
    ids.push((await scan(emu, path)).scanId);
    list.pop();
    emu.org.touch();
    for (let i = 0; i < 3; i++) ids.push((await scan(emu, path)).scanId);
    expect(ids).toEqual([1, 2, 3, 4, 5]);

    const before = withDb(path, (db) => {
      db.prepare("INSERT INTO baselines (scan_id, accepted_at, note) VALUES (1, '2026-11-01T00:00:00Z', 'accepted')").run();
      // The two newest did not finish reading: scan 3 is the latest complete one.
      db.prepare("UPDATE scans SET status = 'incomplete' WHERE id IN (4, 5)").run();
      return Object.fromEntries([1, 3, 4, 5].map((id) => [id, dump(db, id)]));
    });

    const result = withDb(path, (db) => pruneScans(db, 2));
    expect(result.deletedScans).toEqual([2]);
    expect(result.keptScans).toEqual([1, 3, 4, 5]);
    expect(result.deletedRows).toBeGreaterThan(0);
    withDb(path, (db) => {
      expect((db.prepare('SELECT id FROM scans ORDER BY id').all() as Array<{ id: number }>).map((r) => r.id)).toEqual([1, 3, 4, 5]);
      // The record only scan 2 saw is gone; nothing is left that no kept scan uses.
      expect(db.prepare('SELECT count(*) AS n FROM dns_records WHERE item_id = ?').get(temp.id)).toEqual({ n: 0 });
      for (const t of VERSIONED) {
        const orphans = (db.prepare(`SELECT first_scan, last_scan FROM ${t}`).all() as Array<{ first_scan: number; last_scan: number }>).filter(
          (r) => ![1, 3, 4, 5].some((id) => r.first_scan <= scanRef(id) && scanRef(id) <= r.last_scan),
        );
        expect(orphans, t).toEqual([]);
      }
      for (const id of [1, 3, 4, 5]) expect(dump(db, id), `scan ${id}`).toEqual(before[id]);
    });

    // Pruning to one still keeps the baseline and the latest complete scan.
    expect(withDb(path, (db) => pruneScans(db, 1))).toMatchObject({ deletedScans: [4], keptScans: [1, 3, 5] });
    // A later scan still extends the surviving versions instead of copying them.
    const rows = withDb(path, rowCounts);
    const next = await scan(emu, path);
    expect(next.status).toBe('complete');
    expect(withDb(path, rowCounts)['dns_records']).toBe(rows['dns_records']);
  });

  it('stores every item of a list whose earlier versions vanish between its pages (deleted by another process)', () => {
    const path = dbFile();
    withDb(path, (db) => {
      const start = () => ScanWriter.start(db, 'http://127.0.0.1:1/client/v4', { accounts: [], zones: [] }, createRedactor([]));
      const records = Array.from({ length: 6 }, (_, i) => ({ id: `rec${i}`, type: 'A', name: `h${i}.example.com`, content: `192.0.2.${i}`, proxied: false, ttl: 1 }));
      const first = start();
      const listed = first.partition('zone', 'z1', 'dns_records');
      listed.write(records);
      listed.finish({ state: 'ok', pages: 1, items: records.length });
      first.finish('complete', {});

      const second = start();
      const paged = second.partition('zone', 'z1', 'dns_records');
      paged.write(records.slice(0, 3));
      // What a prune of the first scan deletes: the versions only it used.
      expect(db.prepare('DELETE FROM dns_records WHERE last_scan = ?').run(scanRef(first.scanId)).changes).toBe(3);
      paged.write(records.slice(3));
      paged.finish({ state: 'ok', pages: 2, items: records.length });
      second.finish('complete', {});
      const stored = new SnapshotReader(db, second.scanId).dnsRecords('z1');
      expect(stored.known && stored.items.map((r) => [r.id, r.content]).sort()).toEqual(records.map((r) => [r.id, r.content]));
    });
  });

  it('refuses while a live scan runs, deleting nothing, and keeps the scan of a dead one', () => {
    const path = dbFile();
    withDb(path, (db) => {
      for (let i = 0; i < 3; i++) ScanWriter.start(db, 'http://127.0.0.1:1/client/v4', { accounts: [], zones: [] }, createRedactor([])).finish('complete', {});
      // Another live process on this host: the test runner's parent.
      db.prepare("UPDATE scans SET status = 'running', pid = ?, heartbeat_at = ? WHERE id = 1").run(process.ppid, new Date().toISOString());
      const err = thrownBy(() => pruneScans(db, 1), SnapshotError);
      expect(err.code).toBe('ZW_DB_BUSY');
      expect(err.message).toContain('scan 1 is running');
      expect(db.prepare('SELECT count(*) AS n FROM scans').get()).toEqual({ n: 3 });
      // Its process is gone: prune goes ahead, and leaves the row for the next open to mark aborted.
      db.prepare('UPDATE scans SET pid = ? WHERE id = 1').run(deadPid());
      expect(pruneScans(db, 1)).toMatchObject({ deletedScans: [2], keptScans: [1, 3] });
    });
  });
});

describe('secrets', () => {
  it('never stores the token, even when the API serves it back, nor credentials in the base URL', async () => {
    const token = 'zw-test-token-7f3c2a9e41b8';
    const emu = await emulator({ dataset: caseDataset(), token });
    const zone = emu.org.zonesById.get(zoneId(emu, 'northwind.example'))!;
    // Someone pasted the token into a TXT record: the API serves it like any other content.
    emu.org.addDnsRecord(zone, { ...zone.dns.at(0), id: 'leak0000000000000000000000000001', type: 'TXT', name: `leak.${zone.name}`, content: `api-token=${token}` });
    const path = dbFile();
    const db = openSnapshot(path);
    const client = clientFor(emu, { credentials: { kind: 'token', token } });
    try {
      const writer = ScanWriter.start(db, emu.url, { accounts: [], zones: [] }, createRedactor([token]));
      const result = await crawl({ client, writer, scope: { accounts: [], zones: [] }, concurrency: 4, logger: recordingLogger() });
      expect(result.missing).toEqual([]);
      // Stop before finish(): the WAL still holds the pages, and it must be clean too.
      expect(existsSync(`${path}-wal`)).toBe(true);
      for (const file of [path, `${path}-wal`]) expect(readFileSync(file).includes(token), file).toBe(false);
      writer.finish('complete', {});
      expect(readFileSync(path).includes(token)).toBe(false);
      const leak = dnsOf(db, writer.scanId, zone.id).find((r) => r.id === 'leak0000000000000000000000000001');
      expect(leak?.content).toBe(`api-token=${REDACTED}`);
      const base = (db.prepare('SELECT base_url FROM scans').get() as { base_url: string }).base_url;
      expect(base).toBe(emu.url);
      expect(new URL(base).username + new URL(base).password).toBe('');
    } finally {
      await client.close();
      db.close();
    }
  });
});
