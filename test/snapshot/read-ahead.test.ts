import { describe, expect, it } from 'vitest';
import { snapshotOf, type FixtureZone } from '../../src/rules-api/fixture.js';
import { ZoneReadAhead } from '../../src/snapshot/read-ahead.js';
import type { SnapshotReader } from '../../src/snapshot/reader.js';

const record = (zone: string, n: number) => ({ id: `${zone}-rec-${n}`, type: 'A', name: `h${n}.${zone}`, content: `192.0.2.${n}`, proxied: n % 2 === 0, ttl: 300 });

/** Everything a zone's view asks the reader for. */
function readAll(reader: SnapshotReader, zoneId: string) {
  return {
    dns: reader.dnsRecordFields(zoneId),
    packs: reader.certificatePacks(zoneId),
    rules: reader.firewallRules(zoneId),
    filters: reader.filters(zoneId),
    status: reader.zoneObject(zoneId, 'migration_status'),
    check: reader.zoneObject(zoneId, 'migration_check'),
    overrides: reader.wafOverrides(zoneId),
    coverage: reader.coverageOf('zone', zoneId, 'dns_records'),
  };
}

describe('reading zone lists ahead', () => {
  const zones: FixtureZone[] = [
    { name: 'a.example', dnsRecords: [3, 1, 2].map((n) => record('a', n)) },
    { name: 'b.example', dnsRecords: [], unread: { certificate_packs: 'failed' } },
    { name: 'c.example', plan: 'enterprise', dnsRecords: [record('c', 9)], migrationStatus: null, unread: { dns_records: 'denied' } },
    { name: 'd.example', dnsRecords: [5, 4].map((n) => record('d', n)) },
  ];

  it('answers every list as reading one zone at a time does, in any order of asking', () => {
    const { reader } = snapshotOf({ zones });
    const ids = reader.zones().map((z) => z.id);
    const alone = ids.map((id) => readAll(reader, id));
    reader.readAhead(ids);
    // Out of order and twice: a zone asked for again, or asked for out of turn, is read again.
    const ahead = [2, 0, 1, 3, 0].map((i) => readAll(reader, ids[i]!));
    reader.readAhead(null);
    expect(ahead).toEqual([2, 0, 1, 3, 0].map((i) => alone[i]));
    expect((alone[0]!.dns as { items: Array<{ id: string }> }).items.map((r) => r.id)).toEqual(['a-rec-1', 'a-rec-2', 'a-rec-3']);
    expect(alone[2]!.dns.known).toBe(false);
  });

  it('reads a run of zones up to the row budget, a zone larger than the budget alone', () => {
    const loads: string[][] = [];
    const weights: Record<string, number> = { z1: 5_000, z2: 10_000, z3: 10_000, z4: 50_000, z5: 1 };
    const ahead = new ZoneReadAhead(Object.keys(weights));
    const load = (ids: string[]) => {
      loads.push(ids);
      return new Map(ids.map((id) => [id, [id]]));
    };
    for (const id of Object.keys(weights)) expect(ahead.rows('t', id, load, { weight: (z) => weights[z] })).toEqual([id]);
    expect(loads).toEqual([['z1', 'z2'], ['z3'], ['z4'], ['z5']]);
    expect(ahead.rows('t', 'elsewhere', load)).toBeUndefined();
  });

  it('stops a run at a zone whose size is not known yet', () => {
    const loads: string[][] = [];
    const ahead = new ZoneReadAhead(['z1', 'z2', 'z3']);
    const load = (ids: string[]) => (loads.push(ids), new Map<string, string[]>());
    ahead.rows('t', 'z1', load, { weight: (z) => (z === 'z3' ? undefined : 1) });
    expect(loads).toEqual([['z1', 'z2']]);
  });
});
