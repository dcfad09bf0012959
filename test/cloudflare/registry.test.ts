import { describe, expect, it } from 'vitest';
import { ACCOUNT_READS, DECLARABLE_READS, LIST_ENDPOINTS, ZONE_OBJECT_READS } from '../../src/api/endpoints.js';
import { readDeclarationOf, PARTITION_NAMES, PARTITIONS, partitionsWhere, specOf, ZONE_OBJECT_PARTITIONS, type Partition, type ReadPartition } from '../../src/cloudflare/reads.js';
import { ZONE_READS } from '../../src/crawler/reads/index.js';
import { CERTIFICATE_KIND, RESOURCE_KINDS } from '../../src/drift/resources.js';
import { snapshotOf, type FixtureZone } from '../../src/rules-api/fixture.js';
import { TABLES } from '../../src/snapshot/tables.js';

/**
 * The registry of reads (src/cloudflare/reads.ts) is the one place a partition is named: the
 * snapshot, drift, the rule fixture, the crawler and the declarable reads know the partitions it
 * lists and no other, each as its entry says. A list kept by hand beside it would fail here.
 */

const has = <T extends object>(spec: T, key: string) => Object.hasOwn(spec, key);

describe('the registry of reads', () => {
  it('is every partition the snapshot stores, each in the table its entry names', () => {
    expect(Object.keys(TABLES)).toEqual(PARTITION_NAMES);
    for (const p of PARTITION_NAMES) {
      const storage = specOf(p).storage;
      expect({ p, table: TABLES[p]?.table ?? null }).toEqual({ p, table: storage?.table ?? null });
      // Shared tables say whose row it is; a zone's partition is keyed by the zone.
      if (storage) expect({ p, shared: has(TABLES[p]!, 'endpointColumn'), zoneKeyed: TABLES[p]!.scopeColumn === 'zone_id' }).toEqual({ p, shared: /_objects$/.test(storage.table), zoneKeyed: specOf(p).kind === 'zone' });
    }
    // A single object is its partition's only row, whatever the item says.
    expect(TABLES.bot_management!.itemId({ id: 'x' }, 'bot_management')).toBe('bot_management');
    expect(TABLES.rulesets!.itemId({ id: 'x' }, 'rulesets')).toBe('x');
  });

  it('gives drift its resource kinds, one per entry with a drift identity, in the registry order', () => {
    const withDrift = partitionsWhere((s) => s.drift !== undefined);
    expect(RESOURCE_KINDS.map((k) => k.partition)).toEqual(withDrift);
    for (const k of RESOURCE_KINDS) {
      const spec = specOf(k.partition);
      expect(k).toMatchObject({ type: spec.drift!.type, label: spec.drift!.label, table: spec.storage!.table, scope: spec.kind });
    }
    const types = [...RESOURCE_KINDS.map((k) => k.type), CERTIFICATE_KIND.type];
    expect(new Set(types).size).toBe(types.length);
  });

  it("is what the rule fixture writes for each of a zone's fields", () => {
    const zoneFixtures = partitionsWhere((s, p) => s.kind === 'zone' && s.fixture !== undefined && p !== 'zone_settings');
    expect(zoneFixtures.length).toBeGreaterThan(10);
    for (const p of zoneFixtures) {
      const spec = specOf(p);
      const value = spec.paging.kind === 'object' ? { id: 'item1', enabled: true } : [{ id: 'item1', name: 'item1.example.com', package_id: 'pkg' }];
      const zone = { name: 'fixture.example', plan: 'enterprise', [spec.fixture!]: value } as FixtureZone;
      const { db } = snapshotOf({ zones: [zone] });
      const table = TABLES[p]!;
      const where = `${table.scopeColumn} IN (SELECT item_id FROM zones)${table.endpointColumn ? ` AND ${table.endpointColumn} = ?` : ''}`;
      const rows = db.prepare(`SELECT count(*) FROM ${table.table} WHERE ${where}`).pluck().get(...(table.endpointColumn ? [p] : [])) as number;
      expect({ p, rows }).toEqual({ p, rows: 1 });
      const denied = snapshotOf({ zones: [{ name: 'fixture.example', plan: 'enterprise', unread: { [p]: 'denied' } }] });
      const state = denied.db.prepare("SELECT state FROM coverage WHERE kind = 'zone' AND endpoint = ?").pluck().get(p);
      expect({ p, state }).toEqual({ p, state: 'denied' });
    }
  });

  it("declares the crawler's reads: each one's name, endpoint, scope, partitions, refresh and optional from its entry", () => {
    const leads = partitionsWhere((s) => s.read !== undefined) as ReadPartition[];
    expect(ZONE_READS.map((r) => r.partitions[0]).sort()).toEqual([...leads].sort());
    for (const read of ZONE_READS) {
      const { name, endpoint, scope, partitions, refresh, optional } = read;
      expect({ name, endpoint, scope, partitions, refresh, optional }).toEqual({ optional: undefined, ...readDeclarationOf(read.partitions[0] as ReadPartition) });
    }
    // Every partition is written by one read of the crawler's, but for what the crawl itself lists and the audit log.
    const written = new Set(ZONE_READS.flatMap((r) => r.partitions));
    expect(PARTITION_NAMES.filter((p) => !written.has(p))).toEqual(['accounts', 'invites', 'zones', 'zone', 'audit_log']);
  });

  it('gives the API room its lists and the reads a rule may declare', () => {
    expect(Object.values(LIST_ENDPOINTS).map((e) => e.template)).toEqual(partitionsWhere((s) => s.paging.kind === 'list').map((p) => specOf(p).api));
    expect(LIST_ENDPOINTS.dnsRecords).toMatchObject({ template: PARTITIONS.dns_records.api, maxPerPage: 5_000_000, crawlPerPage: 5000 });
    expect(Object.keys(ZONE_OBJECT_READS).sort()).toEqual(partitionsWhere((s) => s.rules === 'object').sort());
    expect(Object.keys(ACCOUNT_READS)).toEqual(partitionsWhere((s) => s.rules === 'account'));
    expect(DECLARABLE_READS).toEqual(partitionsWhere((s) => s.rules !== undefined));
    // A declarable zone object is one the snapshot reader serves.
    for (const p of Object.keys(ZONE_OBJECT_READS) as Partition[]) expect(ZONE_OBJECT_PARTITIONS).toContain(p);
  });
});
