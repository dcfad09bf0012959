import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IGNORED_FIELDS } from '../../src/drift/ignore.js';

/** The drift page (docs/drift.md) documents the default ignore list as it is. */
describe('the drift page', () => {
  const page = readFileSync(new URL('../../docs/drift.md', import.meta.url), 'utf8');
  const section = page.slice(page.indexOf('## Configuration'), page.indexOf('\n## ', page.indexOf('## Configuration') + 1));

  it.each(DEFAULT_IGNORED_FIELDS)('lists the default ignored field %s', (pattern) => {
    expect(section).toContain(`\`${pattern}\``);
  });

  it('lists no default that is not one', () => {
    expect(section.indexOf('| pattern | why |'), 'docs/drift.md lacks the table of defaults').toBeGreaterThan(-1);
    const table = section.slice(section.indexOf('| pattern | why |'), section.indexOf('The config file'));
    const listed = [...table.matchAll(/`([^`]+)`/g)].map((m) => m[1]).filter((p) => /^[*a-z_]+\.[a-z_.*]+$/.test(p!));
    expect(listed.sort()).toEqual([...DEFAULT_IGNORED_FIELDS].sort());
  });
});
