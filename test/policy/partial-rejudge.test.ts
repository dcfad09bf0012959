import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReplayMismatch } from '../../src/policy/engine.js';
import { replayer, ZoneReads, type PartialZone } from '../../src/policy/partial-rejudge.js';
import type { ZoneTally } from '../../src/policy/verdict-reuse.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { ZoneView } from '../../src/policy/zone-view.js';
import type { SnapshotReader, ZoneRow } from '../../src/snapshot/reader.js';

/**
 * What a rule read of its zone (ZoneView.readsOf) decides which rules judge a changed zone again
 * (src/policy/partial-rejudge.ts). A rule that reads a list another rule read first gets it from
 * the view's memo, without asking the reader: it must count as a read all the same, or a change to
 * that list would leave its verdicts standing. The audit-level behaviour (the audit equals a full
 * one) is tested in verdict-reuse.test.ts and, night after night, in crawler/incremental.test.ts.
 */

const zone: ZoneRow = { id: 'z1', accountId: 'a1', name: 'example.com', status: 'active', paused: false, plan: 'free', type: 'full', raw: '{}' };

/** A reader (stub: this is a unit test of the view) that tells the view of each endpoint asked about, as the engine's observer does. */
function viewWithReader(): { view: ZoneView; asked: string[] } {
  const asked: string[] = [];
  let view: ZoneView | null = null;
  const ok = { known: true as const, items: [] };
  const reader = {
    dnsRecordFields: (zoneId: string) => (asked.push(`dns:${zoneId}`), view!.noteRead(zoneId, 'dns_records'), ok),
    certificatePacks: (zoneId: string) => (asked.push(`packs:${zoneId}`), view!.noteRead(zoneId, 'certificate_packs'), ok),
  } as unknown as SnapshotReader;
  view = new ZoneView(reader, zone, null);
  return { view, asked };
}

describe('what a rule reads of its zone', () => {
  it('counts a list served from the memo as read by each rule that asks for it', () => {
    const { view, asked } = viewWithReader();
    expect(view.readsOf(() => view.dnsRecords())).toEqual(new Set(['dns_records']));
    // The second rule is served from the memo: the reader is not asked again, the read still counts.
    expect(view.readsOf(() => view.dnsRecords())).toEqual(new Set(['dns_records']));
    expect(asked).toEqual(['dns:z1']);
    expect(view.readsOf(() => view.certificatePacks())).toEqual(new Set(['certificate_packs']));
    expect(view.readsOf(() => undefined)).toEqual(new Set());
  });

  it("does not count another zone's lists, which the rule declares as zones it depends on instead", () => {
    const { view } = viewWithReader();
    expect(view.readsOf(() => view.dnsRecordsOf('z2'))).toEqual(new Set());
    expect(view.readsOf(() => view.dnsRecordsOf('z1'))).toEqual(new Set(['dns_records']));
  });

  it('keeps the reads of a rule that threw up to where it stopped, and stops noting after it', () => {
    const { view } = viewWithReader();
    expect(() =>
      view.readsOf(() => {
        view.certificatePacks();
        throw new Error('boom');
      }),
    ).toThrow('boom');
    // Outside readsOf nothing is noted, and the next rule starts afresh.
    view.dnsRecords();
    expect(view.readsOf(() => view.certificatePacks())).toEqual(new Set(['certificate_packs']));
  });
});

describe("a zone's reads as stored", () => {
  const order = ['a', 'b', 'c'];

  it('keeps per endpoint the places of the rules that read it, zone by zone', () => {
    const reads = new ZoneReads(order);
    reads.add('z1', 'a', new Set(['dns_records', 'certificate_packs']));
    reads.add('z1', 'b', new Set());
    reads.add('z1', 'c', new Set(['dns_records']));
    // A rule outside the order (not kept by a later audit) is left out.
    reads.add('z1', 'other', new Set(['zone_settings']));
    reads.add('z2', 'b', new Set(['dnssec']));
    expect(JSON.parse(reads.of('z1'))).toEqual({ dns_records: [0, 2], certificate_packs: [0] });
    expect(JSON.parse(reads.of('z2'))).toEqual({ dnssec: [1] });
    // A zone whose rules read nothing of it.
    expect(reads.of('z3')).toBe('{}');
  });

  it('adds the reads taken over with verdicts, each place once', () => {
    const reads = new ZoneReads(order);
    reads.add('z1', 'c', new Set(['dns_records']));
    reads.merge('z1', { dns_records: [0, 2], universal_ssl: [1] });
    expect(JSON.parse(reads.of('z1'))).toEqual({ dns_records: [0, 2], universal_ssl: [1] });
  });
});

describe('taken-over verdicts read back', () => {
  // Rows as an earlier audit stored them for zone z1: rule A gave a failure per record of a zone
  // of 2,100 records (more than a slice), rule B three, one waived, and rule C's rows belong to a
  // rule that runs again, so they are not read.
  function storedAudit(): { db: Db; source: number } {
    const db = openSnapshot(join(mkdtempSync(join(tmpdir(), 'zw-replay-')), 'zonewarden.db'));
    const now = new Date().toISOString();
    const scan = Number(
      db.prepare("INSERT INTO scans (started_at, status, base_url, scope, tool_version, pid, host, heartbeat_at) VALUES (?, 'complete', 'http://127.0.0.1:1/client/v4', '{\"accounts\":[],\"zones\":[]}', '0.0.0', 1, 'h', ?)").run(now, now).lastInsertRowid,
    );
    const source = Number(db.prepare("INSERT INTO audits (scan_id, evaluated_at, tool_version, rules, counts, errors, waivers) VALUES (?, ?, '0.0.0', '[]', '{}', '[]', '{}')").run(scan, now).lastInsertRowid);
    const insert = db.prepare(
      `INSERT INTO findings (audit_id, fingerprint, rule, category, severity, status, account_id, account_name, zone_id, zone_name, resource_type, resource_id, resource_name, message, message_id, data, waiver)
       VALUES (?, ?, ?, 'dns', 'low', ?, 'a1', 'Account', 'z1', 'example.com', 'dns_record', ?, ?, 'm', 'id', ?, ?)`,
    );
    db.transaction(() => {
      // Rule B's rows first: the order of the rows read back is the stored one, by rule.
      for (const [i, status] of (['fail', 'waived', 'unknown'] as const).entries()) insert.run(source, `fp-B-${i}`, 'B', status, `r${i}`, null, `{"i":${i}}`, status === 'waived' ? '{"index":0}' : null);
      for (let i = 0; i < 2_100; i++) insert.run(source, `fp-A-${i}`, 'A', 'fail', `r${i}`, `rec${i}.example.com`, `{"i":${i}}`, null);
      insert.run(source, 'fp-C', 'C', 'fail', 'r0', null, '{}', null);
    })();
    return { db, source };
  }
  const partialZone = (source: number, tally: ZoneTally['r']): Map<string, PartialZone> =>
    new Map([['z1', { source, replay: new Set(['A', 'B']), tally: { r: tally, s: {}, w: {} }, holds: null, reads: {}, names: () => [], asKept: { source, fails: 0, passes: 0, holds: null } }]]);
  const given = (verdicts: ReturnType<ReturnType<typeof replayer>>) => [...(verdicts?.findings ?? [])];

  it('gives back each rule’s rows as the rule gave them, a waived failure a failure again, many rows a slice at a time', () => {
    const { db, source } = storedAudit();
    try {
      const replay = replayer(db, partialZone(source, { A: [0, 2_100, 0, 0], B: [4, 1, 1, 1], C: [0, 1, 0, 0] }));
      const b = replay('z1', 'B');
      expect(b?.passes).toBe(4);
      expect(given(b).map((f) => [f.fingerprint, f.status, f.data])).toEqual([
        ['fp-B-0', 'fail', { i: 0 }],
        ['fp-B-1', 'fail', { i: 1 }],
        ['fp-B-2', 'unknown', { i: 2 }],
      ]);
      const a = given(replay('z1', 'A'));
      expect(a).toHaveLength(2_100);
      expect(a.map((f) => f.fingerprint)).toEqual(Array.from({ length: 2_100 }, (_, i) => `fp-A-${i}`));
      expect(a[5]).toMatchObject({ rule: 'A', zone: { id: 'z1', name: 'example.com' }, account: { id: 'a1', name: 'Account' }, resource: { type: 'dns_record', id: 'r5', name: 'rec5.example.com' } });
      // A rule that runs again is not replayed.
      expect(replay('z1', 'C')).toBeNull();
      expect(replay('z2', 'A')).toBeNull();
    } finally {
      db.close();
    }
  });

  it('gives back a few rows read in one query per zone the same way', () => {
    const { db, source } = storedAudit();
    try {
      db.prepare("DELETE FROM findings WHERE rule = 'A' AND resource_id NOT IN ('r0', 'r1')").run();
      const replay = replayer(db, partialZone(source, { A: [0, 2, 0, 0], B: [0, 1, 1, 1] }));
      expect(given(replay('z1', 'A')).map((f) => f.fingerprint)).toEqual(['fp-A-0', 'fp-A-1']);
      expect(given(replay('z1', 'B')).map((f) => f.status)).toEqual(['fail', 'fail', 'unknown']);
    } finally {
      db.close();
    }
  });

  it('refuses rows that are not those the earlier audit counted, for the rule to run instead', () => {
    for (const rows of [2, 3] as const) {
      const { db, source } = storedAudit();
      try {
        db.prepare("DELETE FROM findings WHERE rule = 'A' AND resource_id NOT IN ('r0', 'r1', 'r2')").run();
        // Counted `rows` of three stored, for a zone read in one query (2 + 3 rows of B) and one read by slices.
        for (const slices of [false, true]) {
          const a = slices ? 2_100 : rows;
          const replay = replayer(db, partialZone(source, { A: [0, a, 0, 0], B: [0, 1, 1, 1] }));
          if (a === 3) expect(given(replay('z1', 'A'))).toHaveLength(3);
          else expect(() => given(replay('z1', 'A'))).toThrow(ReplayMismatch);
        }
      } finally {
        db.close();
      }
    }
  });
});
