import type { Statement } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { snapshotOf, type FixtureZone, type Item } from '../../src/rules-api/fixture.js';
import type { Db } from '../../src/snapshot/db.js';
import { compareBinary, inBinaryOrder } from '../../src/snapshot/json-rows.js';
import { toCoverage, type DnsRecordFields, type Readout, type SnapshotReader, type ZoneObjectPartition } from '../../src/snapshot/reader.js';
import { scanRef } from '../../src/snapshot/scan-ref.js';

/**
 * The reader builds DNS fields and coverage rows as JSON inside SQLite (json_group_array of
 * json_object) and parses them, and reads every zone object of a zone in one query. These tests
 * hold what it returns to what plain column reads give, which is what it returned before.
 */

/**
 * Strings that JSON must carry through unchanged: json_object quotes text as a JSON string
 * (https://sqlite.org/json1.html#jobj), JSON.parse reads it back. A lone surrogate is stored as
 * the three bytes V8 writes for it (not UTF-8), which read back as three U+FFFD either way.
 */
const HOSTILE = ['', 'a\u0000b', '"quoted" \\back\\slash/', '\u0001\u0008\t\n\r\u001f\u007f\u0080', '\u2028\u2029', 'é ü ß 漢字 😀', '\ud800', 'x\udc00y', '\uffff\ufffe\ue000', '{"not":"json"}', '\\u0000', ' lead and trail '];

const flag = (v: number | null): boolean | null => (v === null ? null : v === 1);

/** A zone's DNS fields read column by column, in item_id order: what dnsRecordFields returned before it read JSON. */
function columnsOf(db: Db, reader: SnapshotReader, zoneId: string): DnsRecordFields[] {
  const ref = scanRef(reader.scan.id);
  const rows = db
    .prepare('SELECT item_id, type, name, content, proxied, ttl, raw FROM dns_records WHERE zone_id = ? AND first_scan <= ? AND last_scan >= ? ORDER BY item_id')
    .raw(true)
    .all(zoneId, ref, ref) as Array<[string, string | null, string | null, string | null, number | null, number | null, string]>;
  // data: the raw item's object `data`, for a record without content only (DnsRecordFields.data).
  const dataOf = (content: string | null, raw: string): Record<string, unknown> | null => {
    const data = (JSON.parse(raw) as Record<string, unknown>)['data'];
    return (content === null || content === '') && data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
  };
  return rows.map((r) => ({ id: r[0], type: r[1], name: r[2], content: r[3], data: dataOf(r[3], r[6]), proxied: flag(r[4]), ttl: r[5] }));
}

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

const record = (id: string, n: number, extra: Item = {}): Item => ({ id, type: 'A', name: `h${n}.example.com`, content: `192.0.2.${n % 256}`, proxied: n % 3 === 0 ? null : n % 2 === 0, ttl: n, ...extra });

describe('the binary order of item ids', () => {
  // SQLite's BINARY collation compares with memcmp() (https://www.sqlite.org/datatype3.html#collating_sequences): UTF-8 byte order, which is code point order.
  const ids = ['b', 'a', '', 'ab', 'a\u0000', 'Z', 'é', '\uffff', '\ue000', '😀', '\ud7ff', 'z😀', 'z\uffff', 'A'];

  it('orders strings as SQLite orders text with its default collation', () => {
    const { db } = snapshotOf();
    db.exec('CREATE TEMP TABLE ids (id TEXT)');
    for (const id of ids) db.prepare('INSERT INTO ids VALUES (?)').run(id);
    const sqlite = db.prepare('SELECT id FROM ids ORDER BY id').pluck().all();
    expect([...ids].sort(compareBinary)).toEqual(sqlite);
    // JavaScript's own order differs: it puts 😀 (a surrogate pair) before U+E000.
    expect([...ids].sort()).not.toEqual(sqlite);
  });

  it('tells rows in that order from rows out of it', () => {
    expect(inBinaryOrder([{ id: '' }, { id: 'a' }, { id: 'b' }, { id: '\uffff' }, { id: '😀' }], (r) => r.id)).toBe(true);
    expect(inBinaryOrder([{ id: 'a' }, { id: '😀' }, { id: '\uffff' }], (r) => r.id)).toBe(false);
    expect(inBinaryOrder([], (r: { id: string }) => r.id)).toBe(true);
  });
});

describe('the zone list read as JSON', () => {
  it('carries hostile names and list fields through unchanged, in the name order SQLite gives', () => {
    const zones: FixtureZone[] = HOSTILE.map((_, n) => ({ name: `z${n}.example` }));
    const { db, reader } = snapshotOf({ zones });
    // Values the writer would not write from the API but the columns may hold (the list as stored is what is read).
    HOSTILE.forEach((s, n) => {
      db.prepare('UPDATE zones SET name = ?, status = ?, plan = ?, type = ?, paused = ? WHERE name = ?').run(`${s}.${n}`, s, n % 2 ? s : null, s, [null, 0, 1, 7][n % 4], `z${n}.example`);
    });
    const ref = scanRef(reader.scan.id);
    // What a plain column read gives, which is what zones() returned before it read JSON.
    const expected = (
      db.prepare('SELECT item_id, account_id, name, status, paused, plan, type FROM zones WHERE first_scan <= ? AND last_scan >= ? ORDER BY name').raw(true).all(ref, ref) as Array<
        [string, string | null, string, string | null, number | null, string | null, string | null]
      >
    ).map(([id, accountId, name, status, paused, plan, type]) => ({ id, accountId, name, status, paused: flag(paused), plan, type }));
    expect(expected.length).toBe(HOSTILE.length);
    const read = reader.zones().map(({ id, accountId, name, status, paused, plan, type }) => ({ id, accountId, name, status, paused, plan, type }));
    expect(read).toEqual(expected);
  });
});

describe('DNS records read as JSON', () => {
  it('carry hostile strings, flags and numbers through unchanged', () => {
    const records = HOSTILE.flatMap((s, n) => [
      record(`id-${n}-${s}`, n, { name: s, content: s, type: s }),
      record(s, n + 100, { proxied: n % 2 === 0 }),
    ]);
    const zones: FixtureZone[] = [
      { name: 'hostile.example', dnsRecords: records },
      { name: 'other.example', dnsRecords: [record('o1', 1), record('o2', 2, { ttl: 2 ** 53 + 2 })] },
    ];
    const { db, reader } = snapshotOf({ zones });
    // Values the writer does not write but a column may hold: another integer as a flag (read as false), reals.
    db.prepare("UPDATE dns_records SET proxied = 7, ttl = 0.1 WHERE item_id = 'o1'").run();
    db.prepare('UPDATE dns_records SET ttl = 1e300 WHERE item_id = ?').run(`id-1-${HOSTILE[1]}`);
    db.prepare('UPDATE dns_records SET ttl = 9223372036854775807 WHERE item_id = ?').run(`id-2-${HOSTILE[2]}`);
    const ids = reader.zones().map((z) => z.id);
    const expected = ids.map((id) => columnsOf(db, reader, id));
    expect(expected[0]!.length).toBe(records.length);
    expect(expected[1]![0]).toMatchObject({ proxied: false, ttl: 0.1 });

    // Alone (in slices), and ahead (both zones in one query).
    expect(ids.map((id) => itemsOf(reader.dnsRecordFields(id)))).toEqual(expected);
    reader.readAhead(ids);
    const ahead = ids.map((id) => itemsOf(reader.dnsRecordFields(id)));
    reader.readAhead(null);
    expect(ahead).toEqual(expected);
    // Same keys in the same order as the objects built column by column.
    expect(Object.keys(ahead[0]![0]!)).toEqual(['id', 'type', 'name', 'content', 'data', 'proxied', 'ttl']);
  });

  it('reads a zone larger than the read-ahead budget in slices, in item_id order, as the one-zone path does', () => {
    // 20,500 records (the budget is 20,000): read alone, 500 a slice; written in an order that is
    // not item_id order, with ids whose BINARY order differs from JavaScript's across slices.
    const big = Array.from({ length: 20_500 }, (_, i) => {
      const n = (i * 7919) % 20_500;
      return record(`${n % 3 === 0 ? '😀' : n % 3 === 1 ? '\ue000' : 'r'}${String(n).padStart(5, '0')}`, n);
    });
    const zones: FixtureZone[] = [
      { name: 'a.example', dnsRecords: [record('a1', 1)] },
      { name: 'b.example', dnsRecords: big },
      { name: 'c.example', dnsRecords: [record('c2', 2), record('c1', 1)] },
    ];
    const { db, reader } = snapshotOf({ zones });
    const queries = countQueries(db, 'dns_records');
    const ids = reader.zones().map((z) => z.id);
    const expected = ids.map((id) => columnsOf(db, reader, id));
    expect(expected[1]!.length).toBe(20_500);
    const alone = ids.map((id) => itemsOf(reader.dnsRecordFields(id)));
    expect(alone).toEqual(expected);

    queries.count = 0;
    reader.readAhead(ids);
    const ahead = ids.map((id) => itemsOf(reader.dnsRecordFields(id)));
    reader.readAhead(null);
    expect(ahead).toEqual(expected);
    // a.example alone (b.example does not fit its run), b.example in 42 slices (the last one empty), c.example.
    expect(queries.count).toBe(1 + 42 + 1);
  });

  it('reads a zone again in the order SQLite gives when the JSON array is not in that order', () => {
    // Ids stored as bytes that are not UTF-8 (a lone surrogate) read back as U+FFFD, which sorts
    // after U+F000 although the stored bytes (ED A0 80) sort before it (EF 80 80): to JavaScript
    // the array is out of order, and the reader asks SQLite to order it.
    // 499 ids before them, so that a slice (500 records) ends on one: the next starts after its stored bytes.
    const before = Array.from({ length: 499 }, (_, n) => `a${String(n).padStart(3, '0')}`);
    const odd = ['\ud800-1', '\uf000', ...before, '\ud800-2'].map((id, n) => record(id, n));
    const zones: FixtureZone[] = [
      { name: 'a.example', dnsRecords: odd },
      { name: 'b.example', dnsRecords: [record('b1', 1)] },
    ];
    const { db, reader } = snapshotOf({ zones });
    const ids = reader.zones().map((z) => z.id);
    const expected = ids.map((id) => columnsOf(db, reader, id));
    expect(expected[0]!.map((r) => r.id)).toEqual([...before, '\ufffd\ufffd\ufffd-1', '\ufffd\ufffd\ufffd-2', '\uf000']);
    expect(inBinaryOrder(expected[0]!, (r) => r.id)).toBe(false);
    expect(ids.map((id) => itemsOf(reader.dnsRecordFields(id)))).toEqual(expected);
    reader.readAhead(ids);
    expect(ids.map((id) => itemsOf(reader.dnsRecordFields(id)))).toEqual(expected);
    reader.readAhead(null);
  });
});

describe('zone objects', () => {
  const ENDPOINTS: ZoneObjectPartition[] = ['migration_status', 'migration_check', 'migration_config', 'entrypoint', 'zone_settings', 'dnssec', 'universal_ssl', 'custom_entrypoint'];
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

describe('coverage read as JSON', () => {
  it('returns every row, in the order of the index on first_scan, with its values unchanged', () => {
    // 45 zones of 13 partitions: more rows than one slice.
    const zones: FixtureZone[] = Array.from({ length: 45 }, (_, i) => ({ name: `z${i}.example`, dnsRecords: [], unread: i % 4 === 0 ? { firewall_rules: 'failed' as const, filters: 'denied' as const } : {} }));
    const { db, reader } = snapshotOf({ zones });
    const ref = scanRef(reader.scan.id);
    // Versions carried from an earlier scan (first_scan before this one's), hostile messages, a truncated list.
    db.prepare('UPDATE coverage SET first_scan = ? WHERE pk % 3 = 0').run(ref - 1);
    db.prepare("UPDATE coverage SET truncated = 1, api_code = 10000, error_code = 'x' WHERE pk = 7").run();
    HOSTILE.forEach((message, i) => db.prepare('UPDATE coverage SET message = ? WHERE pk = ?').run(message, 20 + i));
    const expected = (db.prepare('SELECT * FROM coverage WHERE first_scan <= ? AND last_scan >= ? ORDER BY first_scan, pk').all(ref, ref) as Array<Record<string, unknown>>).map(toCoverage);
    expect(expected.length).toBeGreaterThan(500);

    const all = reader.coverage();
    expect(all).toEqual(expected);
    expect(all.map((c) => Object.keys(c))).toEqual(expected.map((c) => Object.keys(c)));

    // A zone's rows, alone and read ahead with the run.
    const ids = reader.zones().map((z) => z.id);
    const ofZone = (id: string) => expected.filter((c) => c.kind === 'zone' && c.scopeId === id);
    const partitions = [...new Set(expected.map((c) => c.endpoint))];
    const each = () => ids.map((id) => partitions.map((e) => reader.coverageOf('zone', id, e) ?? null));
    const alone = each();
    expect(alone).toEqual(ids.map((id) => partitions.map((e) => ofZone(id).find((c) => c.endpoint === e) ?? null)));
    reader.readAhead(ids);
    expect(each()).toEqual(alone);
    reader.readAhead(null);
  });
});

describe("an account's lists", () => {
  /** A list read with its own plain query, in the order of the table's (scope_id, item_id) index: what accountObjects returned before. */
  function plain(db: Db, reader: SnapshotReader, accountId: string, endpoint: string): Array<{ id: string; raw: string }> {
    const ref = scanRef(reader.scan.id);
    const sql = 'SELECT item_id AS id, raw FROM account_objects WHERE scope_id = ? AND endpoint = ? AND first_scan <= ? AND last_scan >= ? ORDER BY item_id';
    return db.prepare(sql).all(accountId, endpoint, ref, ref) as Array<{ id: string; raw: string }>;
  }

  it('gives a short list found among a long one, and a long list, in item id order as a plain read does', () => {
    // Member ids in SQLite's binary order differ from JavaScript's (a surrogate pair, U+E000...), and are not written in it.
    const members = (n: number, prefix: string): Item[] =>
      Array.from({ length: n }, (_, i) => ({ id: `${prefix}${HOSTILE[(i * 7) % HOSTILE.length]}${(n - i) * 31}`, user: { email: `u${i}@example.com` }, status: 'accepted' }));
    const long = { id: 'acc0000000000000000000000000000b', name: 'Long', type: 'standard' };
    const short = { id: 'acc0000000000000000000000000000c', name: 'Short', type: 'standard' };
    const { db, reader } = snapshotOf({
      accounts: [long, short],
      members: { [long.id]: members(1_200, 'l'), [short.id]: members(12, 's') },
      notificationPolicies: { [short.id]: [{ id: 'p2', alert_type: 'x' }, { id: 'p1', alert_type: 'y' }] },
    });
    // The vendor's insights of the short lists' account, thousands of rows around them in the same index.
    const ref = scanRef(reader.scan.id);
    const insight = db.prepare("INSERT INTO account_objects (scope_id, item_id, hash, first_scan, last_scan, endpoint, raw) VALUES (?, ?, 'h', ?, ?, 'security_insights', ?)");
    for (let i = 0; i < 3_000; i++) insight.run(short.id, `${i % 2 ? 's' : 'p'}${(i * 7919) % 3_000}`, ref, ref, JSON.stringify({ id: i }));
    // A version of a member no longer valid at this scan is not read.
    db.prepare("INSERT INTO account_objects (scope_id, item_id, hash, first_scan, last_scan, endpoint, raw) VALUES (?, 's-old', 'h', ?, ?, 'account_members', '{}')").run(short.id, ref - 2, ref - 1);

    for (const [account, endpoint] of [[short.id, 'account_members'], [short.id, 'notification_policies'], [long.id, 'account_members']] as const) {
      const read = itemsOf(reader.accountObjects(account, endpoint));
      expect(read).toEqual(plain(db, reader, account, endpoint));
      expect(read.length).toBe(account === long.id ? 1_200 : endpoint === 'account_members' ? 12 : 2);
    }
  });
});
