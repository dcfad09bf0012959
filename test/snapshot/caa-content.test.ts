import { describe, expect, it } from 'vitest';
import { snapshotOf, zoneIdOf, type Item } from '../../src/rules-api/fixture.js';

/**
 * vendor docs, DNS records: the API may answer a CAA record with `data {flags, tag, value}` and no
 * `content`. The stored content is then the record's zone-file presentation form (RFC 8659 4.1.1:
 * flags, tag, and the value as a quoted <character-string>, RFC 1035 5.1), as the API writes it
 * when it does give content.
 */
function contentsOf(records: Item[]): Record<string, string | null> {
  const { reader, db } = snapshotOf({ zones: [{ name: 'shop.example', dnsRecords: records }] });
  try {
    const read = reader.dnsRecordFields(zoneIdOf('shop.example'));
    if (!read.known) throw new Error(read.reason);
    return Object.fromEntries(read.items.map((r) => [r.id, r.content]));
  } finally {
    db.close();
  }
}

const record = (id: string, extra: Item): Item => ({ id, type: 'CAA', name: 'shop.example', proxied: false, ttl: 1, ...extra });

describe('CAA content derived from data', () => {
  it('writes data without content in presentation form', () => {
    // The live shape: data {flags, tag, value}, no content.
    expect(contentsOf([record('a', { data: { flags: 0, tag: 'issuewild', value: 'example.com' } })])).toEqual({ a: '0 issuewild "example.com"' });
  });

  it('keeps the content the API gives', () => {
    expect(contentsOf([record('a', { content: '0 issue "letsencrypt.org"', data: { flags: 128, tag: 'issue', value: 'pki.goog' } })])).toEqual({ a: '0 issue "letsencrypt.org"' });
  });

  it('keeps the critical flag and the parameters', () => {
    // RFC 8659 4.1: flags 128 is the Issuer Critical Flag; RFC 8657: parameters follow the issuer.
    expect(contentsOf([record('a', { data: { flags: 128, tag: 'issue', value: 'letsencrypt.org; validationmethods=dns-01' } })])).toEqual({
      a: '128 issue "letsencrypt.org; validationmethods=dns-01"',
    });
  });

  it('escapes quotes and backslashes in the value', () => {
    // RFC 1035 5.1: `\X` stands for X inside a quoted string.
    expect(contentsOf([record('a', { data: { flags: 0, tag: 'iodef', value: 'mailto:a"b\\c@shop.example' } })])).toEqual({ a: '0 iodef "mailto:a\\"b\\\\c@shop.example"' });
  });

  it('reads flags given as a string of digits', () => {
    // RFC 8659 4.1: flags is an unsigned one-octet integer; the value is the same written as a
    // number or as its decimal digits ("0", "128"), and 128 is still the Issuer Critical Flag.
    expect(
      contentsOf([record('a', { data: { flags: '0', tag: 'issue', value: 'letsencrypt.org' } }), record('b', { data: { flags: '128', tag: 'tbs', value: 'x' } })]),
    ).toEqual({ a: '0 issue "letsencrypt.org"', b: '128 tbs "x"' });
  });

  it('derives nothing from flags that are not a number or a string of digits', () => {
    expect(contentsOf([record('a', { data: { flags: 'critical', tag: 'issue', value: 'letsencrypt.org' } }), record('b', { data: { flags: '', tag: 'issue', value: 'x' } })])).toEqual({ a: null, b: null });
  });

  it('derives nothing from incomplete data, or for other types', () => {
    expect(
      contentsOf([
        record('a', { data: { tag: 'issue', value: 'letsencrypt.org' } }),
        record('b', {}),
        { id: 'c', type: 'SRV', name: '_sip._tcp.shop.example', data: { flags: 0, tag: 'issue', value: 'x' } },
      ]),
    ).toEqual({ a: null, b: null, c: null });
  });
});
