import { describe, expect, it } from 'vitest';
import { ZoneReads } from '../../src/policy/partial-rejudge.js';
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
