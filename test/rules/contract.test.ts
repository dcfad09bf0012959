import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../rules/index.js';
import { rulesMarkdown } from '../../src/cli/output/rules-catalogue.js';
import { loadCatalogue } from '../../src/policy/registry.js';
import type { AnyRule } from '../../src/policy/rule.js';
import { expectGeneratedRegion } from '../support/generated-docs.js';

/**
 * Keeps the catalogue in step: every file in rules/ is one rule named by its id, listed in
 * rules/index.ts, tested by test/rules/<id>.test.ts, and shown in the rule table of docs/rules.md.
 */

const rulesDir = fileURLToPath(new URL('../../rules/', import.meta.url));
const testsDir = fileURLToPath(new URL('./', import.meta.url));
const ruleFiles = readdirSync(rulesDir)
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
  .map((f) => basename(f, '.ts'))
  .sort();

describe('rule catalogue contract', () => {
  it('loads: every rule passes metadata validation', () => {
    expect(loadCatalogue(RULES).size).toBe(RULES.length);
  });

  it('rules/index.ts lists exactly the rule files', () => {
    expect(RULES.map((r) => r.meta.id).sort()).toEqual(ruleFiles);
  });

  it.each(ruleFiles)('rules/%s.ts default-exports the rule of that id, and the index holds that very object', async (id) => {
    const mod = (await import(pathToFileURL(`${rulesDir}${id}.ts`).href)) as { default: AnyRule };
    expect(mod.default.meta.id).toBe(id);
    expect(RULES).toContain(mod.default);
  });

  it.each(ruleFiles)('test/rules/%s.test.ts exists and tests that rule with testRule', (id) => {
    const path = `${testsDir}${id}.test.ts`;
    expect(existsSync(path), `missing ${path}`).toBe(true);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain(`rules/${id}.js'`);
    expect(text).toContain('testRule(');
  });

  it('every rule test file belongs to a rule', () => {
    const tests = readdirSync(testsDir)
      .filter((f) => f.endsWith('.test.ts') && f !== 'contract.test.ts')
      .map((f) => basename(f, '.test.ts'))
      .sort();
    expect(tests).toEqual(ruleFiles);
  });

  it("docs/rules.md's rule table is the catalogue's (zonewarden rules --format md; npm run docs rewrites it)", () => {
    const path = new URL('../../docs/rules.md', import.meta.url);
    expectGeneratedRegion(path, ['<!-- rules:start -->', '<!-- rules:end -->'], rulesMarkdown(RULES).trim(), 'docs/rules.md');
  });
});
