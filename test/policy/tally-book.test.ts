import { describe, expect, it } from 'vitest';
import { packTally, TallyBook, unpackTally } from '../../src/policy/tally-book.js';
import { encodeTally, tallyVerdicts, type ZoneTally } from '../../src/policy/verdict-reuse.js';

const ORDER = ['caa-missing', 'hsts-weak', 'dns-record-not-proxied'];

function tallied(): ZoneTally {
  const t: ZoneTally = { r: {}, s: {}, w: {} };
  tallyVerdicts(t, 'caa-missing', 'pass', 'info', 1);
  tallyVerdicts(t, 'dns-record-not-proxied', 'fail', 'low', 12);
  tallyVerdicts(t, 'dns-record-not-proxied', 'waived', 'low', 2);
  t.w['0'] = 2;
  return t;
}

describe('packed tallies', () => {
  it('unpack to what was packed, counts and what the verdicts hold on', () => {
    const plain = tallied();
    expect(unpackTally(packTally(plain, ORDER), ORDER)).toEqual(plain);
    const holding: ZoneTally = { ...tallied(), e: 1, h: 1_790_000_000_000, z: ['zone-b'], n: ['mail.example.net'] };
    expect(unpackTally(packTally(holding, ORDER), ORDER)).toEqual(holding);
  });

  it('keep the stored form of the counts, so a zone without holds packs as it is stored', () => {
    const t = tallied();
    expect(packTally(t, ORDER)).toBe(encodeTally(t, ORDER));
  });
});

describe('TallyBook', () => {
  it('goes on counting a zone the audit comes back to after moving on', () => {
    const book = new TallyBook(ORDER);
    tallyVerdicts(book.of('a'), 'hsts-weak', 'fail', 'medium', 1);
    tallyVerdicts(book.of('b'), 'hsts-weak', 'pass', 'info', 1);
    book.of('a').h = 5;
    tallyVerdicts(book.of('a'), 'hsts-weak', 'fail', 'medium', 1);
    expect(book.read('a')).toEqual({ r: { 'hsts-weak': [0, 2, 0, 0] }, s: { medium: 2 }, w: {}, h: 5 });
    expect(book.read('b')).toEqual({ r: { 'hsts-weak': [1, 0, 0, 0] }, s: {}, w: {} });
  });

  it('reads an empty tally for a zone it never counted, without keeping one', () => {
    const book = new TallyBook(ORDER);
    expect(book.read('nowhere')).toEqual({ r: {}, s: {}, w: {} });
    book.read('nowhere').e = 1;
    expect(book.read('nowhere')).toEqual({ r: {}, s: {}, w: {} });
  });
});
