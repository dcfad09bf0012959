import { describe, expect, it } from 'vitest';
import { closestNames, describeUnmatched, ScopeMatchedNothing } from '../../src/crawler/scope-match.js';
import { EXIT } from '../../src/common/errors.js';

describe('closestNames', () => {
  const zones = ['acme-bank.example', 'acme-cards.example', 'northwind.example', 'tinkerer.test', 'pet-photos.example.org'];

  it.each([
    ['acme-bnak.example', 'acme-bank.example'],
    ['tinkerer.tset', 'tinkerer.test'],
    ['pet-photo.example.org', 'pet-photos.example.org'],
    ['acme-card.example', 'acme-cards.example'],
  ])('%s: %s first, then the next nearest', (name, nearest) => {
    const found = closestNames(name, zones);
    expect(found[0]).toBe(nearest);
    expect(found).toHaveLength(3);
  });

  it('never suggests the name itself, in any case', () => {
    expect(closestNames('NORTHWIND.example', zones)).not.toContain('northwind.example');
  });

  it('suggests nothing from nothing, and at most the count asked for', () => {
    expect(closestNames('a.example', [])).toEqual([]);
    expect(closestNames('a.example', zones, 1)).toHaveLength(1);
  });
});

describe('ScopeMatchedNothing', () => {
  it('is one line, exit 2, naming each name, why and the closest, with API text made printable', () => {
    const err = new ScopeMatchedNothing([
      { option: '--zone', name: 'exmaple.com', why: 'no zone of this name is visible to these credentials', closest: ['example.com', 'evil\u001b[2J.com'] },
      { option: '--account', name: 'abc', why: 'no account with this id is visible to these credentials', closest: [] },
    ]);
    expect(err.exitCode).toBe(EXIT.usage);
    expect(err.message).not.toContain('\n');
    expect(err.message).toBe(
      '--zone exmaple.com: no zone of this name is visible to these credentials (closest: example.com, evil\\u001b[2J.com); --account abc: no account with this id is visible to these credentials; nothing to scan (check the names, or drop the filter to scan everything these credentials see)',
    );
    expect(describeUnmatched({ option: '--zone', name: 'x', why: 'why', closest: [] })).toBe('--zone x: why');
  });
});
