import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ZONE_READS } from '../../src/crawler/reads/index.js';
import { TABLES, type Partition } from '../../src/snapshot/tables.js';

/**
 * The reads' declarations are what the crawler and the docs go by: readZoneParts asks a `date`
 * read whether it is due, carries every other read's partitions on a night its zone did not
 * change, and docs/scanning.md lists each read as declared. These checks keep the declarations
 * whole and the docs true to them.
 */

describe('the declared reads of a zone', () => {
  it('each declare dueByDate exactly when they are read again by date', () => {
    for (const read of ZONE_READS) expect({ read: read.name, dueByDate: typeof read.dueByDate === 'function' }).toEqual({ read: read.name, dueByDate: read.refresh === 'date' });
  });

  it('each write partitions of their own, every one a stored endpoint', () => {
    const owner = new Map<string, string>();
    for (const read of ZONE_READS) {
      expect(read.partitions.length, read.name).toBeGreaterThan(0);
      for (const partition of read.partitions) {
        expect(Object.hasOwn(TABLES, partition), `${read.name}: ${partition}`).toBe(true);
        expect(owner.get(partition), `${partition} is written by ${owner.get(partition)} and ${read.name}`).toBeUndefined();
        owner.set(partition, read.name);
      }
    }
  });

  it('name an endpoint of their scope (or DNS, which costs no API request)', () => {
    for (const read of ZONE_READS) {
      const pattern = read.endpoint.startsWith('DNS ') ? /^DNS / : read.scope === 'zone' ? /^GET \/zones\/\{zone_id\}\// : /^GET \/accounts\/\{account_id\}\//;
      expect(read.endpoint, read.name).toMatch(pattern);
    }
  });

  it('are each a row of docs/scanning.md, as declared and in the order they run', () => {
    const doc = readFileSync(new URL('../../docs/scanning.md', import.meta.url), 'utf8');
    const start = doc.indexOf('| read | endpoint | scope | partitions | read again |');
    expect(start).toBeGreaterThan(-1);
    const rows = doc
      .slice(start)
      .split('\n')
      .slice(2)
      .filter((line, i, all) => line.startsWith('|') && all.slice(0, i).every((l) => l.startsWith('|')));
    const cell = (text: string) => text.replace(/\|/g, '\\|');
    const declared = ZONE_READS.map((r) => `| ${r.name} | ${cell(r.endpoint)} | ${r.scope} | ${r.partitions.map((p: Partition) => `\`${p}\``).join(', ')} | \`${r.refresh}\` |`);
    expect(rows).toEqual(declared);
  });
});
