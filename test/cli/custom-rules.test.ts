import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

/**
 * Custom rules end to end: the documented example rule (docs/examples/rules, importing
 * zonewarden/rules) run by the built CLI on the demo organisation's scan.
 */

const EXAMPLES = fileURLToPath(new URL('../../docs/examples/rules', import.meta.url));
const RULE = 'acme-unproxied-in-range';
let dir: string;
let db: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zw-custom-rules-'));
  const demo = await runCli(['demo', '--out', join(dir, 'demo'), '--quiet']);
  expect(demo.code, demo.stderr).toBe(0);
  db = join(dir, 'demo', 'zonewarden-demo.db');
}, 60_000);

const findingsOf = (stdout: string) => (JSON.parse(stdout) as { findings: Array<{ rule: string; severity: string; status: string; resource: { name: string } }> }).findings;

describe('custom rules from --rules-dir', () => {
  it('are listed by zonewarden rules after the built-in ones', async () => {
    const r = await runCli(['rules', '--rules-dir', EXAMPLES, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const ids = (JSON.parse(r.stdout) as Array<{ id: string }>).map((x) => x.id);
    expect(ids.at(-1)).toBe(RULE);
    expect(ids.at(-2)).toBe('scan-coverage');
  });

  it('run in the audit beside the built-in rules', async () => {
    const r = await runCli(['audit', '--db', db, '--rules-dir', EXAMPLES, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const mine = findingsOf(r.stdout).filter((f) => f.rule === RULE);
    // The demo's unproxied records in 203.0.113.0/24 (the documentation range the demo uses for origins).
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((f) => f.status === 'fail' && f.severity === 'high')).toBe(true);
    expect(findingsOf(r.stdout).some((f) => f.rule === 'dns-origin-exposed')).toBe(true);
  });

  it('are configured in the config file like the built-in ones: rulesDir, severity and options', async () => {
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ rulesDir: [EXAMPLES], rules: { [RULE]: { severity: 'low', options: { ranges: ['192.0.2.0/24'] } } } }));
    const r = await runCli(['audit', '--db', db, '--config', config, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { rules: Array<{ id: string; severity: string; options: unknown }> };
    expect(doc.rules.find((x) => x.id === RULE)).toEqual({ id: RULE, severity: 'low', options: { ranges: ['192.0.2.0/24'] }, remediation: expect.stringMatching(/^Proxy the record/) });
    expect(findingsOf(r.stdout).filter((f) => f.rule === RULE && f.status === 'fail').every((f) => f.severity === 'low')).toBe(true);
  });

  it('without the directory, a setting for a custom rule is an error naming it', async () => {
    const config = join(dir, 'settings-only.json');
    writeFileSync(config, JSON.stringify({ rules: { [RULE]: { enabled: false } } }));
    const r = await runCli(['audit', '--db', db, '--config', config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`rules.${RULE}: no such rule`);
  });

  it('are in the findings of the report', async () => {
    const out = join(dir, 'reports');
    await runCli(['audit', '--db', db, '--rules-dir', EXAMPLES]);
    const r = await runCli(['report', '--db', db, '--rules-dir', EXAMPLES, '--format', 'json', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(r.stdout.split('\n')[0]!, 'utf8')) as { counts: { byRule: Record<string, { fail: number }> } };
    expect(json.counts.byRule[RULE]?.fail).toBeGreaterThan(0);
  });

  it('per-zone settings re-grade and disable rules where they match, and the reports list them', async () => {
    const config = join(dir, 'zone-settings.json');
    const overrides = [
      { accounts: ['Acme Bank Group'], severity: 'critical' },
      { zones: ['acme-careers.*'], enabled: false },
    ];
    writeFileSync(config, JSON.stringify({ rulesDir: [EXAMPLES], rules: { [RULE]: { overrides } } }));
    const before = findingsOf((await runCli(['audit', '--db', db, '--rules-dir', EXAMPLES, '--format', 'json'])).stdout).filter((f) => f.rule === RULE && f.status === 'fail');
    const r = await runCli(['audit', '--db', db, '--config', config, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { rules: Array<{ id: string; overrides?: unknown }>; findings: Array<{ rule: string; status: string; severity: string; zone: { name: string }; account: { name: string } }> };
    expect(doc.rules.find((x) => x.id === RULE)?.overrides).toEqual([
      { zones: null, accounts: ['Acme Bank Group'], severity: 'critical' },
      { zones: ['acme-careers.*'], accounts: null, enabled: false },
    ]);
    const after = doc.findings.filter((f) => f.rule === RULE && f.status === 'fail');
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((f) => f.severity === (f.account.name === 'Acme Bank Group' ? 'critical' : 'high'))).toBe(true);
    expect(after.some((f) => f.zone.name.startsWith('acme-careers.'))).toBe(false);
    expect(before.filter((f) => !(f as unknown as { zone: { name: string } }).zone.name.startsWith('acme-careers.')).length).toBe(after.length);

    const out = join(dir, 'zone-settings-reports');
    const report = await runCli(['report', '--db', db, '--config', config, '--format', 'md,html', '--out', out]);
    expect(report.code, report.stderr).toBe(0);
    const [md, html] = report.stdout.split('\n');
    expect(readFileSync(md!, 'utf8')).toContain(`- \`${RULE}\` for zones acme-careers.\\*: off`);
    expect(readFileSync(html!, 'utf8')).toContain(`<tr><td>${RULE}</td><td>accounts Acme Bank Group</td><td>critical</td></tr>`);
  });

  it('a broken rule stops the command with exit 2 and one line naming the file', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'zw-broken-rules-'));
    writeFileSync(join(broken, 'acme-x.js'), "export default { meta: { id: 'acme-x' }, defaultOptions: {}, check() {} };\n");
    const r = await runCli(['audit', '--db', db, '--rules-dir', broken]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/acme-x\.js: rule acme-x is malformed: meta\.title must be a non-empty string/);
  });
});
