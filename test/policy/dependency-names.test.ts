import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dependencyName, reversedName, zonesLookingUp } from '../../src/policy/verdict-reuse.js';
import { openSnapshot } from '../../src/snapshot/db.js';

/**
 * The names a zone's verdicts looked up (dns-dangling-target: the zone in the scan that holds a
 * target), kept per audit in audit_names. A zone that comes into the scan, or changes, may now hold
 * such a name or a name above it (RFC 1034 4.3.2: the zone holding a name answers for it and for
 * every name under it): the zones that looked it up are judged again.
 */
describe('dependency names (audit_names)', () => {
  const db = openSnapshot(join(mkdtempSync(join(tmpdir(), 'zw-names-')), 'n.db'));
  // The rows are about names only: no audit row is needed for them here.
  db.pragma('foreign_keys = OFF');
  const looked: Array<[string, string]> = [
    ['z-cname', 'www.deep.arriving.example'],
    ['z-mx', 'mx.arriving.example'],
    ['z-apex', 'arriving.example'],
    ['z-beside', 'www.notarriving.example'],
    ['z-dashed', 'a-arriving.example'],
    ['z-emoji', 'www.😀.example'],
    ['z-other-audit', 'www.arriving.example'],
  ];
  const insert = db.prepare('INSERT INTO audit_names (audit_id, rname, zone_id) VALUES (?, ?, ?)');
  for (const [zone, name] of looked) insert.run(zone === 'z-other-audit' ? 2 : 1, reversedName(dependencyName(name)), zone);
  const lookingUp = zonesLookingUp(db);

  it.each([
    // The name itself and every name under it, in this audit only.
    ['arriving.example', ['z-apex', 'z-cname', 'z-mx']],
    ['deep.arriving.example', ['z-cname']],
    ['www.deep.arriving.example', ['z-cname']],
    // Names that end alike without a dot between are not under it.
    ['rriving.example', []],
    ['example', ['z-apex', 'z-beside', 'z-cname', 'z-dashed', 'z-emoji', 'z-mx']],
    // A character outside the BMP stays whole when reversed.
    ['😀.example', ['z-emoji']],
    ['😁.example', []],
    ['nothing.example', []],
  ])('%s is looked up by %j', (name, zones) => {
    expect(lookingUp(1, dependencyName(name)).sort()).toEqual(zones);
  });

  it('keeps names lower case without the trailing dot, as zone names are compared', () => {
    expect(dependencyName('Arriving.Example.')).toBe('arriving.example');
    expect(lookingUp(1, dependencyName('ARRIVING.example.')).sort()).toEqual(['z-apex', 'z-cname', 'z-mx']);
  });
});
