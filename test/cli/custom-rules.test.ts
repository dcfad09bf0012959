import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { BlockList } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../rules/index.js';
import { demoDataset } from '../../src/emulator/datasets/demo.js';
import { runCliProcess } from '../support/cli.js';

/**
 * Custom rules end to end: the documented example rule (docs/examples/rules, importing
 * zonewarden/rules), copied into a folder of its own outside any project, run by the built CLI on
 * the demo organisation's scan, in its own process as users run it (Node's module hooks load the
 * rules; npm run test:full).
 */

const EXAMPLES = fileURLToPath(new URL('../../docs/examples/rules', import.meta.url));
const RULE = 'acme-unproxied-in-range';
let dir: string;
let db: string;
/** The example rules as a user keeps them: a plain folder with no package.json and no node_modules. */
let rulesDir: string;

/** Every node_modules directory Node would look in for a package imported from a file of `from`. */
function nodeModulesAbove(from: string): string[] {
  const found: string[] = [];
  for (let d = from; ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules'))) found.push(join(d, 'node_modules'));
    if (dirname(d) === d) return found;
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zw-custom-rules-'));
  rulesDir = join(dir, 'rules');
  mkdirSync(rulesDir);
  for (const file of readdirSync(EXAMPLES)) copyFileSync(join(EXAMPLES, file), join(rulesDir, file));
  const demo = await runCliProcess(['demo', '--out', join(dir, 'demo'), '--quiet']);
  expect(demo.code, demo.stderr).toBe(0);
  db = join(dir, 'demo', 'zonewarden-demo.db');
});

/**
 * What the example rule finds in the demo, from the dataset: the DNS-only A and AAAA records of
 * the member accounts' zones whose address is in the rule's default range, 203.0.113.0/24.
 */
function expectedFromDataset(): string[] {
  const range = new BlockList();
  range.addSubnet('203.0.113.0', 24, 'ipv4');
  return demoDataset()
    .accounts.filter((a) => a.member !== false)
    .flatMap((a) => a.zones ?? [])
    .flatMap((z) => z.dns_records ?? [])
    .filter((r) => (r.type === 'A' || r.type === 'AAAA') && r.proxied !== true && r.content !== undefined && range.check(r.content, r.type === 'A' ? 'ipv4' : 'ipv6'))
    .map((r) => r.name)
    .sort();
}

/** The id of the trial audit an audit stored (other rules or settings than the demo's nightly audit: issue 32 item 4). */
function trialOf(stderr: string): string {
  const id = /^stored as audit (\d+) \(trial: /m.exec(stderr)?.[1];
  if (id === undefined) throw new Error(`no trial audit stored: ${stderr}`);
  return id;
}

const findingsOf = (stdout: string) => (JSON.parse(stdout) as { findings: Array<{ rule: string; severity: string; status: string; resource: { name: string } }> }).findings;

describe('custom rules from --rules-dir', () => {
  it('are listed by zonewarden rules after the built-in ones', async () => {
    const r = await runCliProcess(['rules', '--rules-dir', rulesDir, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const ids = (JSON.parse(r.stdout) as Array<{ id: string }>).map((x) => x.id);
    // Every built-in rule first, in the catalogue's order, then the custom one.
    expect(ids).toEqual([...RULES.map((rule) => rule.meta.id), RULE]);
  });

  it('load from a folder outside any project, zonewarden/rules resolved to its own, and run in the audit beside the built-in rules', async () => {
    // Nothing to find zonewarden in: the rule's import is answered by the zonewarden that loads it.
    expect(nodeModulesAbove(rulesDir)).toEqual([]);
    const r = await runCliProcess(['audit', '--db', db, '--rules-dir', rulesDir, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const mine = findingsOf(r.stdout).filter((f) => f.rule === RULE);
    // The demo's DNS-only records in 203.0.113.0/24 (the documentation range the demo uses for origins).
    expect(expectedFromDataset().length).toBeGreaterThan(0);
    expect(mine.map((f) => f.resource.name).sort()).toEqual(expectedFromDataset());
    expect(mine.every((f) => f.status === 'fail' && f.severity === 'high')).toBe(true);
    // A built-in rule ran beside it: without the demo's stand-ins, its documentation addresses are dns-private-address's.
    expect(findingsOf(r.stdout).some((f) => f.rule === 'dns-private-address')).toBe(true);
  });

  it('a rule written for verdict reuse (before every audit judged every zone) still loads and runs: its reuse meta ignored with one warning, its ctx.holdsUntil and ctx.dependsOnZones doing nothing', async () => {
    const old = mkdtempSync(join(tmpdir(), 'zw-rules-reuse-era-'));
    writeFileSync(
      join(old, 'acme-old-contract.js'),
      `export default {
  meta: {
    id: 'acme-old-contract', title: 'Zones have a name', description: 'Why it matters.', severity: 'low', category: 'zone', scope: 'zone',
    resource: 'zone', messages: { unnamed: 'the zone has no name' }, remediation: 'Name it.', references: [],
    dependsOnTime: true, declaresHorizon: true,
  },
  defaultOptions: {},
  check(ctx) {
    ctx.holdsUntil(null);
    ctx.dependsOnZones([ctx.zone.id], [ctx.zone.name]);
    if (ctx.zone.name) ctx.pass(); else ctx.fail(ctx.zone.resource, 'unnamed');
  },
};
`,
    );
    const r = await runCliProcess(['audit', '--db', db, '--rules-dir', old, '--format', 'json', '--passes']);
    expect(r.code, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning: '));
    expect(warnings).toEqual([
      `warning: ${join(old, 'acme-old-contract.js')}: rule acme-old-contract has meta "dependsOnTime", "declaresHorizon", which zonewarden ignores (every audit now judges every zone, so verdicts need no time they hold until); remove them from the rule`,
    ]);
    const mine = findingsOf(r.stdout).filter((f) => f.rule === 'acme-old-contract');
    // Every zone of the demo's scan judged by it, each a pass: the calls did nothing and threw nothing.
    const zones = (JSON.parse(r.stdout) as { zones: number }).zones;
    expect(mine).toHaveLength(zones);
    expect(mine.every((f) => f.status === 'pass')).toBe(true);
  });

  it('a rule importing a package not installed beside it stops the command with one line naming the file, the package and what to run', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'zw-rules-missing-'));
    const source = readFileSync(join(EXAMPLES, `${RULE}.js`), 'utf8').replace("import { BlockList, isIP } from 'node:net';", "import { BlockList, isIP } from 'node:net';\nimport ipaddr from 'ipaddr.js';");
    writeFileSync(join(broken, `${RULE}.js`), source);
    const r = await runCliProcess(['audit', '--db', db, '--rules-dir', broken]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toBe(`zonewarden audit: ${join(broken, `${RULE}.js`)}: cannot be loaded: it imports the package ipaddr.js, which is not installed there; run: npm install --prefix ${broken} ipaddr.js`);
  });

  it('are configured in the config file like the built-in ones: rulesDir, severity and options', async () => {
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ rulesDir: [rulesDir], rules: { [RULE]: { severity: 'low', options: { ranges: ['192.0.2.0/24'] } } } }));
    const r = await runCliProcess(['audit', '--db', db, '--config', config, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { rules: Array<{ id: string; severity: string; options: unknown }> };
    expect(doc.rules.find((x) => x.id === RULE)).toEqual({ id: RULE, severity: 'low', options: { ranges: ['192.0.2.0/24'] }, remediation: expect.stringMatching(/^Proxy the record/), controls: [] });
    expect(findingsOf(r.stdout).filter((f) => f.rule === RULE && f.status === 'fail').every((f) => f.severity === 'low')).toBe(true);
  });

  it('without the directory, a setting for a custom rule is an error naming it', async () => {
    const config = join(dir, 'settings-only.json');
    writeFileSync(config, JSON.stringify({ rules: { [RULE]: { enabled: false } } }));
    const r = await runCliProcess(['audit', '--db', db, '--config', config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`rules.${RULE}: no such rule`);
  });

  it('are in the findings of the report', async () => {
    const out = join(dir, 'reports');
    // Other rules than the demo's nightly audit ran with: a trial (issue 32 item 4), reported when named.
    const audited = await runCliProcess(['audit', '--db', db, '--rules-dir', rulesDir]);
    const r = await runCliProcess(['report', '--db', db, '--rules-dir', rulesDir, '--audit', trialOf(audited.stderr), '--format', 'json', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(r.stdout.split('\n')[0]!, 'utf8')) as { counts: { byRule: Record<string, { fail: number }> } };
    expect(json.counts.byRule[RULE]?.fail).toBeGreaterThan(0);
  });

  it('per-zone settings re-grade and disable rules where they match, and the reports list them', async () => {
    const config = join(dir, 'zone-settings.json');
    const overrides = [
      { accounts: ['Tailspin Toys'], severity: 'critical' },
      { zones: ['tailspintoys-preview.*'], enabled: false },
    ];
    writeFileSync(config, JSON.stringify({ rulesDir: [rulesDir], rules: { [RULE]: { overrides } } }));
    const before = findingsOf((await runCliProcess(['audit', '--db', db, '--rules-dir', rulesDir, '--format', 'json'])).stdout).filter((f) => f.rule === RULE && f.status === 'fail');
    const r = await runCliProcess(['audit', '--db', db, '--config', config, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { rules: Array<{ id: string; overrides?: unknown }>; findings: Array<{ rule: string; status: string; severity: string; zone: { name: string }; account: { name: string } }> };
    expect(doc.rules.find((x) => x.id === RULE)?.overrides).toEqual([
      { zones: null, accounts: ['Tailspin Toys'], severity: 'critical' },
      { zones: ['tailspintoys-preview.*'], accounts: null, enabled: false },
    ]);
    const after = doc.findings.filter((f) => f.rule === RULE && f.status === 'fail');
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((f) => f.severity === (f.account.name === 'Tailspin Toys' ? 'critical' : 'high'))).toBe(true);
    expect(after.some((f) => f.zone.name.startsWith('tailspintoys-preview.'))).toBe(false);
    expect(before.filter((f) => !(f as unknown as { zone: { name: string } }).zone.name.startsWith('tailspintoys-preview.')).length).toBe(after.length);

    const out = join(dir, 'zone-settings-reports');
    const report = await runCliProcess(['report', '--db', db, '--config', config, '--audit', trialOf(r.stderr), '--format', 'md,html', '--out', out]);
    expect(report.code, report.stderr).toBe(0);
    const [md, html] = report.stdout.split('\n');
    expect(readFileSync(md!, 'utf8')).toContain(`- \`${RULE}\` for zones tailspintoys-preview.\\*: off`);
    expect(readFileSync(html!, 'utf8')).toContain(`<tr><td>${RULE}</td><td>accounts Tailspin Toys</td><td>critical</td></tr>`);
  });

  it('a broken rule stops the command with exit 2 and one line naming the file', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'zw-broken-rules-'));
    writeFileSync(join(broken, 'acme-x.js'), "export default { meta: { id: 'acme-x' }, defaultOptions: {}, check() {} };\n");
    const r = await runCliProcess(['audit', '--db', db, '--rules-dir', broken]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/acme-x\.js: rule acme-x is malformed: meta\.title must be a non-empty string/);
  });
});
