import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PARTITION_NAMES, specOf } from '../../src/cloudflare/reads.js';

/**
 * The permissions a token needs, as README.md and docs/first-scan.md list them, are the registry's
 * (src/cloudflare/reads.ts, each partition's `permission`): a new read whose permission the docs
 * do not name, or a row no read needs any more, fails here, and so does a first-scan row whose
 * calls leave out a path read with its permission.
 */

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The rows of the page's table headed `| permission |`, as cells. */
function permissionRows(markdown: string): string[][] {
  const lines = markdown.split('\n');
  const header = lines.findIndex((l) => l.startsWith('| permission |'));
  expect(header, 'a table headed "| permission |"').toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split(' | ').map((c) => c.trim()));
  }
  return rows;
}

/** A row's permission as the registry names it: the first cell without its "(or ...)" alternative. */
const permissionOf = (row: string[]) => row[0]!.replace(/\s*\(or [^)]*\)$/, '');

/** The permissions the registry's partitions are read with. */
const registered = new Set(PARTITION_NAMES.flatMap((p) => specOf(p).permission ?? []));

/** A path template with its parameters unnamed, so `{zone_id}` and the docs' `{id}` compare equal. */
const unnamed = (path: string) => path.replace(/\{\w+\}/g, '{}');

/** Whether a calls cell names the path: a `GET ...` span, where `...` stands for any text and `{...}` for a segment. */
function callsName(cell: string, api: string): boolean {
  return [...cell.matchAll(/`(?:GET )?([^`]+)`/g)].some(([, call]) => {
    const pattern = unnamed(call!)
      .split(/(\.\.\.|\{\})/)
      .map((part) => (part === '...' ? '.*' : part === '{}' ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('');
    return new RegExp(`^${pattern}$`).test(unnamed(api));
  });
}

describe.each(['README.md', 'docs/first-scan.md'])('the permission table of %s', (page) => {
  const rows = permissionRows(read(page));

  it("names each permission the registry's reads are read with, and no other", () => {
    expect(rows.map(permissionOf).sort()).toEqual([...registered].sort());
  });
});

describe('docs/first-scan.md', () => {
  const markdown = read('docs/first-scan.md');
  const rows = permissionRows(markdown);

  it.each(PARTITION_NAMES.filter((p) => specOf(p).permission && specOf(p).api))("lists %s's calls in its permission's row", (partition) => {
    const { permission, api } = specOf(partition);
    const row = rows.find((r) => permissionOf(r) === permission);
    expect(row, `a row for ${permission}`).toBeDefined();
    expect(callsName(row![1]!, api!), `${api} in the calls of ${permission}: ${row![1]}`).toBe(true);
  });

  it('names the reads the vendor gives no permission group', () => {
    const paragraph = markdown.split('\n\n').find((p) => p.startsWith('Two kinds of read have no permission group'))!;
    for (const p of PARTITION_NAMES.filter((p) => specOf(p).api && !specOf(p).permission)) {
      expect(paragraph, p).toContain(`${specOf(p).api!.split('/').at(-1)}\``);
    }
  });
});
