import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMON_OPTIONS, type OptionDef } from '../../src/config/options.js';

/** The README's configuration table is kept in step with the option table. */
describe('README configuration reference', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const table = readme.slice(readme.indexOf('### Configuration'));

  it.each(Object.values(COMMON_OPTIONS) as OptionDef[])('documents --$flag', (def) => {
    const row = table.split('\n').find((line) => line.startsWith(`| \`--${def.flag}`));
    expect(row, `no README row for --${def.flag}`).toBeDefined();
    if (!def.flagOnly) expect(row).toContain(`\`${def.key}\``);
    if (def.env) expect(row).toContain(`\`${def.env}\``);
    if (def.default !== undefined && !Array.isArray(def.default)) expect(row).toContain(String(def.default));
  });
});
