import type { Statement } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { snapshotOf, type FixtureZone } from '../../src/rules-api/fixture.js';
import type { Db } from '../../src/snapshot/db.js';
import type { Readout, SnapshotReader, ZoneObjectEndpoint } from '../../src/snapshot/reader.js';
import { scanRef } from '../../src/snapshot/scan-ref.js';

/**
 * The reader reads every zone object of a zone in one query. These tests hold what it returns to
 * what plain queries give, which is what it returned before.
 */

/** Strings that must come back unchanged. */
const HOSTILE = ['', 'a\u0000b', '"quoted" \\back\\slash/', '\u0001\u0008\t\n\r\u001f\u007f\u0080', '\u2028\u2029', 'é ü ß 漢字 😀', '\ud800', 'x\udc00y', '\uffff\ufffe\ue000', '{"not":"json"}', '\\u0000', ' lead and trail '];

function itemsOf<T>(r: Readout<T>): T[] {
  if (!r.known) throw new Error(r.reason);
  return r.items;
}

/** Counts the executions of statements whose SQL reads `table`. */
function countQueries(db: Db, table: string): { count: number } {
  const counter = { count: 0 };
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql) as Statement;
    if (sql.includes(`FROM ${table} `)) {
      for (const method of ['all', 'get', 'iterate'] as const) {
        const run = statement[method].bind(statement) as (...args: unknown[]) => unknown;
        (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => (counter.count++, run(...args));
      }
    }
    return statement;
  }) as Db['prepare'];
  return counter;
}

describe('zone objects', () => {
  const ENDPOINTS: ZoneObjectEndpoint[] = ['migration_status', 'migration_check', 'migration_config', 'entrypoint', 'zone_settings', 'dnssec', 'universal_ssl', 'custom_entrypoint'];
  const full = (name: string, n: number): FixtureZone => ({
    name,
    migrationStatus: { migration_state: 'start', n },
    migrationCheck: { compatible: n % 2 === 0 },
    migrationConfig: { name: 'default', rules: [{ id: `r${n}` }] },
    entrypoint: { id: `ep${n}`, rules: [] },
    settings: { ssl: 'full', min_tls_version: '1.2', always_use_https: n % 2 === 0 ? 'on' : 'off', security_level: HOSTILE[n % HOSTILE.length] },
    dnssec: { status: 'active' },
    universalSsl: { enabled: true },
    customEntrypoint: null,
  });

  /** What each endpoint returned when read with its own query. */
  function perEndpoint(db: Db, reader: SnapshotReader, zoneId: string, endpoint: string): Array<{ id: string; raw: string }> {
    const ref = scanRef(reader.scan.id);
    const sql = 'SELECT item_id AS id, raw FROM zone_objects WHERE zone_id = ? AND endpoint = ? AND first_scan <= ? AND last_scan >= ? ORDER BY item_id';
    return db.prepare(sql).all(zoneId, endpoint, ref, ref) as Array<{ id: string; raw: string }>;
  }

  it('serves every endpoint and setting of a run of zones from one query', () => {
    const zones = [full('a.example', 1), full('b.example', 2), { name: 'c.example', migrationStatus: null, unread: { migration_check: 'failed' as const } }, full('d.example', 3)];
    const { db, reader } = snapshotOf({ zones });
    const queries = countQueries(db, 'zone_objects');
    const ids = reader.zones().map((z) => z.id);
    const read = () => ids.map((id) => Object.fromEntries(ENDPOINTS.map((e) => [e, reader.zoneObject(id, e)])));
    const alone = read();
    // One query a zone, whatever the endpoints asked for.
    expect(queries.count).toBe(4);
    for (const [i, id] of ids.entries()) {
      for (const e of ENDPOINTS) {
        const r = alone[i]![e]!;
        if (r.known) expect(r.items).toEqual(perEndpoint(db, reader, id, e));
      }
    }
    expect(itemsOf(alone[0]!['zone_settings']!).map((s) => s.id)).toEqual(['always_use_https', 'min_tls_version', 'security_level', 'ssl']);
    expect(alone[2]!['migration_check']!.known).toBe(false);
    expect(itemsOf(alone[2]!['migration_status']!)).toEqual([]);

    queries.count = 0;
    reader.readAhead(ids);
    const ahead = read();
    reader.readAhead(null);
    expect(ahead).toEqual(alone);
    expect(queries.count).toBe(1);
  });

  it('gives each caller its own list', () => {
    const { reader } = snapshotOf({ zones: [full('a.example', 1)] });
    const id = reader.zones()[0]!.id;
    itemsOf(reader.zoneObject(id, 'zone_settings')).reverse();
    expect(itemsOf(reader.zoneObject(id, 'zone_settings')).map((s) => s.id)).toEqual(['always_use_https', 'min_tls_version', 'security_level', 'ssl']);
  });
});
