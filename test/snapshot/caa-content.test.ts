import { describe, expect, it } from 'vitest';
import { snapshotOf, zoneIdOf, type Item } from '../../src/rules-api/fixture.js';
import { MIGRATIONS } from '../../src/snapshot/migrations.js';

/**
 * vendor docs, DNS records: the API may answer a CAA record with `data {flags, tag, value}` and no
 * `content` (as the captured answers do). The snapshot stores it as served: no content the API did
 * not send; the reader gives such a record's data, which is then where its meaning is.
 */
function stored(records: Item[]) {
  const fixture = snapshotOf({ zones: [{ name: 'shop.example', dnsRecords: records }] });
  const fields = () => {
    const read = fixture.reader.dnsRecordFields(zoneIdOf('shop.example'));
    if (!read.known) throw new Error(read.reason);
    return Object.fromEntries(read.items.map((r) => [r.id, { content: r.content, data: r.data }]));
  };
  const columns = () => Object.fromEntries((fixture.db.prepare('SELECT item_id, content FROM dns_records').all() as Array<{ item_id: string; content: string | null }>).map((r) => [r.item_id, r.content]));
  return { ...fixture, fields, columns };
}

const record = (id: string, extra: Item): Item => ({ id, type: 'CAA', name: 'shop.example', proxied: false, ttl: 1, ...extra });
const dataOnly = record('a', { data: { flags: 0, tag: 'issuewild', value: 'example.com' } });
const both = record('b', { content: '0 issue "letsencrypt.org"', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } });

describe('DNS records stored as served', () => {
  it('stores no content for a record served with data only, and reads its data', () => {
    const s = stored([dataOnly]);
    try {
      expect(s.columns()).toEqual({ a: null });
      expect(s.fields()).toEqual({ a: { content: null, data: { flags: 0, tag: 'issuewild', value: 'example.com' } } });
      // The reader with raw JSON gives the same fields.
      const full = s.reader.dnsRecords(zoneIdOf('shop.example'));
      expect(full.known && full.items.map((r) => [r.content, r.data])).toEqual([[null, { flags: 0, tag: 'issuewild', value: 'example.com' }]]);
    } finally {
      s.db.close();
    }
  });

  it('keeps the content the API gives, and leaves out the data it duplicates', () => {
    const s = stored([both, { id: 'c', type: 'A', name: 'shop.example', content: '192.0.2.1', proxied: true, ttl: 1 }]);
    try {
      expect(s.fields()).toEqual({ b: { content: '0 issue "letsencrypt.org"', data: null }, c: { content: '192.0.2.1', data: null } });
    } finally {
      s.db.close();
    }
  });

  it('migration 13 empties the content an earlier version invented, and keeps content the API sent', () => {
    const s = stored([dataOnly, both]);
    try {
      // What versions before wrote for a data-only CAA record: its presentation form as content.
      s.db.exec(`UPDATE dns_records SET content = '0 issuewild "example.com"' WHERE item_id = 'a'`);
      s.db.exec(MIGRATIONS[12]!);
      expect(s.columns()).toEqual({ a: null, b: '0 issue "letsencrypt.org"' });
      expect(s.fields()['a']).toEqual({ content: null, data: { flags: 0, tag: 'issuewild', value: 'example.com' } });
    } finally {
      s.db.close();
    }
  });
});
