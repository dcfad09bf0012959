import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IGNORED_FIELDS } from '../../src/drift/ignore.js';

/** The README's Drift section documents the default ignore list as it is. */
describe('README drift section', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Drift'), readme.indexOf('\n## ', readme.indexOf('## Drift') + 1));

  it.each(DEFAULT_IGNORED_FIELDS)('lists the default ignored field %s', (pattern) => {
    expect(section).toContain(`\`${pattern}\``);
  });

  it('lists no default that is not one', () => {
    const table = section.slice(section.indexOf('| pattern | why |'), section.indexOf('The config file'));
    const listed = [...table.matchAll(/`([^`]+)`/g)].map((m) => m[1]).filter((p) => /^[*a-z_]+\.[a-z_.*]+$/.test(p!));
    expect(listed.sort()).toEqual([...DEFAULT_IGNORED_FIELDS].sort());
  });
});
