import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../rules/index.js';
import { loadCustomRules } from '../../src/policy/custom-rules.js';
import { activeRules } from '../../src/policy/registry.js';
import { rulesDirFingerprint } from '../../src/policy/rule-source.js';
import { ruleIdentity } from '../../src/policy/judgement.js';

/**
 * Loading rules from --rules-dir: real files imported by Node, each refusal one line naming the
 * file and the fix. The rules here are plain objects, as a rules directory without zonewarden
 * installed beside it may write them (defineRule only adds types).
 */

const BUILT_LOADER = new URL('../../dist/src/policy/custom-rules.js', import.meta.url).href;
const BUILT_IN = new Set(RULES.map((r) => r.meta.id));

const meta = (id: string, extra = '') => `{
  id: '${id}', title: 'Zones are tagged', description: 'Why it matters.', severity: 'low', category: 'zone', scope: 'zone',
  resource: 'zone', messages: { untagged: '{{zone}} has no tag' }, remediation: 'Tag it.', references: [] ${extra}
}`;
const ruleSource = (id: string, extra = '') => `export default { meta: ${meta(id, extra)}, defaultOptions: {}, check(ctx) { ctx.pass(); } };\n`;

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'zw-rules-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const load = (...dirs: string[]) => loadCustomRules(dirs, '/', BUILT_IN);

/**
 * Loads rule directories in a plain Node process with the built loader: how the CLI imports rule
 * files. (Under vitest an import goes through Vite's resolver, which Node's loader hooks do not
 * reach.) Resolves with the rule ids, or rejects with the one-line refusal.
 */
function loadInNode(...dirs: string[]): Promise<string[]> {
  const script = `const { loadCustomRules } = await import(${JSON.stringify(BUILT_LOADER)});
try { const rules = await loadCustomRules(${JSON.stringify(dirs)}, '/', new Set()); process.stdout.write(JSON.stringify(rules.map((r) => r.rule.meta.id))); }
catch (e) { process.stderr.write(e.message); process.exitCode = 2; }`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: tmpdir() }, (err, stdout, stderr) => {
      if (err) reject(new Error(stderr || err.message));
      else resolve(JSON.parse(stdout) as string[]);
    });
  });
}

/** The node_modules directories Node would look in for a package imported from a file of `dir`. */
function nodeModulesAbove(dir: string): string[] {
  const found: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules'))) found.push(join(d, 'node_modules'));
    if (dirname(d) === d) return found;
  }
}

describe('custom rules', () => {
  it('loads every .js and .mjs rule of each directory, in name order, skipping tests and declarations', async () => {
    const a = dirWith({ 'acme-b.js': ruleSource('acme-b'), 'acme-a.mjs': ruleSource('acme-a'), 'acme-a.test.js': 'throw new Error("not a rule")', 'acme-b.d.ts': 'export {}', 'notes.md': '#' });
    const b = dirWith({ 'acme-c.js': ruleSource('acme-c') });
    const rules = await load(a, b);
    expect(rules.map((r) => r.rule.meta.id)).toEqual(['acme-a', 'acme-b', 'acme-c']);
    expect(rules[0]!.file).toBe(join(a, 'acme-a.mjs'));
  });

  it('resolves a relative directory against the working directory', async () => {
    const dir = dirWith({ 'acme-a.js': ruleSource('acme-a') });
    expect((await loadCustomRules(['.'], dir, BUILT_IN)).map((r) => r.rule.meta.id)).toEqual(['acme-a']);
  });

  it.each([
    ['an id of a built-in rule', { 'dns-origin-exposed.js': ruleSource('dns-origin-exposed') }, /dns-origin-exposed\.js: "dns-origin-exposed" is the id of a built-in rule; choose another \(prefix .* acme-dns-origin-exposed\)/],
    ['a bad severity', { 'acme-a.js': ruleSource('acme-a').replace("'low'", "'urgent'") }, /acme-a\.js: rule acme-a is malformed: meta\.severity must be one of critical, high, medium, low, info/],
    ['no messages', { 'acme-a.js': ruleSource('acme-a').replace("{ untagged: '{{zone}} has no tag' }", '{}') }, /acme-a\.js: rule acme-a is malformed: meta\.messages must hold at least one message/],
    ['an unknown category', { 'acme-a.js': ruleSource('acme-a').replace("'zone', scope", "'pci', scope") }, /meta\.category must be one of migration, tls, firewall, dns, zone, scan/],
    ['an option without help', { 'acme-a.js': ruleSource('acme-a').replace('defaultOptions: {}', 'defaultOptions: { days: 3 }') }, /option "days" needs a line in meta\.optionHelp/],
    ['a file not named by its id', { 'pci.js': ruleSource('acme-pci') }, /pci\.js: the rule's id is "acme-pci"; name the file acme-pci\.js/],
    ['no default export', { 'acme-a.js': 'export const rule = 1;\n' }, /acme-a\.js: no rule as its default export; end it with export default defineRule/],
    ['a syntax error', { 'acme-a.js': 'export default {\n' }, /acme-a\.js: cannot be loaded: /],
    ['TypeScript', { 'acme-a.ts': 'export default {}' }, /acme-a\.ts is TypeScript, which Node does not load; compile the rules to \.js/],
    ['no rule files', { 'README.md': '#' }, /no rule files \(\.js or \.mjs\) in it/],
  ])('refuses %s with a line naming the file and the fix', async (_, files, message) => {
    await expect(load(dirWith(files))).rejects.toThrow(message);
  });

  it('refuses one id in two directories, naming both files', async () => {
    const a = dirWith({ 'acme-a.js': ruleSource('acme-a') });
    const b = dirWith({ 'acme-a.mjs': ruleSource('acme-a') });
    await expect(load(a, b)).rejects.toThrow(`${join(b, 'acme-a.mjs')}: rule id "acme-a" is also defined in ${join(a, 'acme-a.js')}`);
  });

  it('gives a rule outside any project its own zonewarden/rules: no node_modules needed beside it', async () => {
    // A directory with no node_modules above it: /tmp has no zonewarden, so only the loader's resolve hook answers.
    const source = `import { defineRule, SEVERITIES } from 'zonewarden/rules';
export default defineRule({ meta: ${meta('acme-a', ", optionHelp: { sev: 'a severity' }")}, defaultOptions: { sev: SEVERITIES[0] }, check(ctx) { ctx.pass(); } });
`;
    const dir = dirWith({ 'acme-a.mjs': source });
    expect(nodeModulesAbove(dir)).toEqual([]);
    expect(await loadInNode(dir)).toEqual(['acme-a']);
  });

  it.each([
    ['a package that is not installed', "import pad from 'left-pad';", /acme-a\.mjs: cannot be loaded: it imports the package left-pad, which is not installed there; run: npm install --prefix \S+ left-pad$/],
    ['a subpath of a scoped package', "import x from '@acme/cidr/v4';", /acme-a\.mjs: cannot be loaded: it imports the package @acme\/cidr, which is not installed there; run: npm install --prefix \S+ @acme\/cidr$/],
    ['a helper that does not exist', "import x from './lib/cidr.js';", /acme-a\.mjs: cannot be loaded: \.\/lib\/cidr\.js does not exist$/],
    ['zonewarden itself, which exports no root', "import x from 'zonewarden';", /acme-a\.mjs: cannot be loaded: it imports zonewarden; zonewarden gives its rules zonewarden\/rules and zonewarden\/rules\/testing, import from those$/],
  ])('refuses an import of %s with one line naming it and what to do', async (_, line, message) => {
    const dir = dirWith({ 'acme-a.mjs': `${line}\n${ruleSource('acme-a')}` });
    const error = (await loadInNode(dir).catch((e: Error) => e)) as Error;
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('\n');
    if (String(message).includes('npm install')) expect(error.message).toContain(`--prefix ${dir} `);
  });

  it('refuses a directory that does not exist or is a file', async () => {
    await expect(load('/nonexistent/rules')).rejects.toThrow('--rules-dir /nonexistent/rules: cannot read it (ENOENT); give a directory of rule files');
    const dir = dirWith({ 'acme-a.js': ruleSource('acme-a') });
    await expect(load(join(dir, 'acme-a.js'))).rejects.toThrow(/: not a directory$/);
  });

  it('loads an edited rule again (the scheduler picks up a change at its next run)', async () => {
    const dir = dirWith({ 'acme-a.js': ruleSource('acme-a') });
    expect((await load(dir))[0]!.rule.meta.severity).toBe('low');
    const file = join(dir, 'acme-a.js');
    writeFileSync(file, ruleSource('acme-a').replace("'low'", "'high'"));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect((await load(dir))[0]!.rule.meta.severity).toBe('high');
  });
  it("loads a rule again in one process when a file or package it imports changed (the scheduler's next run), and only then", async () => {
    // Node caches a module by its URL: the rules directory's fingerprint on the URL of what its rules import makes an edit a new module.
    const dir = dirWith({
      'acme-a.js': `import { PREFIX } from './lib/range.js';\nimport { SUFFIX } from 'acme-suffix';\nexport default { meta: ${meta('acme-a', ", optionHelp: { prefix: 'the range' }")}, defaultOptions: { prefix: PREFIX + SUFFIX }, check(ctx) { ctx.pass(); } };\n`,
    });
    mkdirSync(join(dir, 'lib'));
    const helper = join(dir, 'lib', 'range.js');
    writeFileSync(helper, "export const PREFIX = 'first';\n");
    const pkg = join(dir, 'node_modules', 'acme-suffix');
    mkdirSync(pkg, { recursive: true });
    const release = (version: string, suffix: string) => {
      writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'acme-suffix', version, type: 'module', exports: './index.js' }));
      writeFileSync(join(pkg, 'index.js'), `export const SUFFIX = '-${suffix}';\n`);
    };
    release('1.0.0', 'a');
    const script = `const { loadCustomRules } = await import(${JSON.stringify(BUILT_LOADER)});
const { writeFileSync } = await import('node:fs');
const prefix = async () => (await loadCustomRules([${JSON.stringify(dir)}], '/', new Set()))[0].rule.defaultOptions.prefix;
const seen = [await prefix(), await prefix()];
writeFileSync(${JSON.stringify(helper)}, "export const PREFIX = 'second';\\n");
seen.push(await prefix());
writeFileSync(${JSON.stringify(join(pkg, 'package.json'))}, ${JSON.stringify(JSON.stringify({ name: 'acme-suffix', version: '1.1.0', type: 'module', exports: './index.js' }))});
writeFileSync(${JSON.stringify(join(pkg, 'index.js'))}, "export const SUFFIX = '-b';\\n");
seen.push(await prefix());
process.stdout.write(JSON.stringify(seen));`;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: tmpdir() }, (err, stdout, stderr) => (err ? reject(new Error(stderr || err.message)) : resolve(stdout))),
    );
    expect(JSON.parse(out)).toEqual(['first-a', 'first-a', 'second-a', 'second-b']);
  });

  it('fingerprints a directory with symbolic links back up its tree once: they add nothing', async () => {
    const dir = dirWith({ 'acme-a.js': ruleSource('acme-a') });
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'range.js'), 'export const X = 1;\n');
    const before = rulesDirFingerprint(dir);
    // Each link leads back to a directory already walked: followed without end, three of them would make 3^16 walks.
    for (const name of ['again', 'more', 'lib/up']) symlinkSync(name === 'lib/up' ? '..' : '.', join(dir, name));
    expect(rulesDirFingerprint(dir)).toBe(before);
    expect((await load(dir)).map((r) => r.rule.meta.id)).toEqual(['acme-a']);
  });

  it('names the code a custom rule runs by its whole directory: an edit outside check() is another rule', async () => {
    const dir = dirWith({ 'acme-a.js': `const PREFIX = 'first';\nexport default { meta: ${meta('acme-a')}, defaultOptions: {}, check(ctx) { if (PREFIX) ctx.pass(); } };\n` });
    const identity = async () => ruleIdentity(activeRules(new Map([['acme-a', (await load(dir))[0]!.rule]]))[0]!);
    const first = await identity();
    expect(await identity()).toBe(first);
    writeFileSync(join(dir, 'acme-a.js'), readFileSync(join(dir, 'acme-a.js'), 'utf8').replace("'first'", "'other'"));
    const edited = await identity();
    expect(edited).not.toBe(first);
    // A helper file added or edited, and an installed package of another version, each count.
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'range.js'), 'export const X = 1;\n');
    const withHelper = await identity();
    expect(withHelper).not.toBe(edited);
    mkdirSync(join(dir, 'node_modules', 'ipaddr.js'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'ipaddr.js', 'package.json'), '{"name":"ipaddr.js","version":"2.1.0"}');
    const withPackage = await identity();
    expect(withPackage).not.toBe(withHelper);
    writeFileSync(join(dir, 'node_modules', 'ipaddr.js', 'package.json'), '{"name":"ipaddr.js","version":"2.2.0"}');
    expect(await identity()).not.toBe(withPackage);
  });
});

describe('docs/custom-rules.md', () => {
  it('shows the example rule and its table test as they are in docs/examples, which the suite runs', () => {
    const doc = readFileSync(new URL('../../docs/custom-rules.md', import.meta.url), 'utf8');
    for (const file of ['acme-unproxied-in-range.js', 'acme-unproxied-in-range.test.js']) {
      const code = readFileSync(new URL(`../../docs/examples/rules/${file}`, import.meta.url), 'utf8');
      expect(doc, `${file} differs from the copy in the doc`).toContain(`\`\`\`js\n${code}\`\`\``);
    }
  });
});
