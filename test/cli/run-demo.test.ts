import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CHANGED_ZONES } from '../../src/emulator/datasets/demo-changes.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { runCli } from '../support/cli.js';
import { allFilesText } from '../support/files.js';
import { TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

// vendor-insights.csv beside findings.csv: the demo's scans read the vendor's insights (docs/reports.md).
const REPORT_FILES = ['findings.csv', 'findings.json', 'report.html', 'report.md', 'vendor-insights.csv'];


describe('zonewarden demo', () => {
  it('runs the whole job offline as the built command, and writes every report', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'zw-demo-')), 'zonewarden-demo');
    const r = await runCli(['demo', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const runDir = readdirSync(out).find((d) => d.endsWith('-scan-1'))!;
    expect(readdirSync(join(out, runDir)).sort()).toEqual(REPORT_FILES);
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    expect(r.stdout.trim().split('\n')).toHaveLength(6);
    expect(r.stderr).toMatch(/demo: done\. Open .*report\.html in a browser/);
  });

  it('never sends or keeps the token of the environment, and shows drift when run again', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'zw-demo-again-'));
    const secret = 'real-token-0123456789abcdef0123456789';
    const env = { ZONEWARDEN_API_TOKEN: secret, ZONEWARDEN_API_EMAIL: 'me@example.com', ZONEWARDEN_API_KEY: 'real-key-0123456789' };
    for (let i = 0; i < 2; i++) expect((await runInProcess(['demo', '--out', 'd', '--quiet'], env, cwd)).code).toBe(0);
    const out = join(cwd, 'd');
    const second = readdirSync(out).find((d) => d.endsWith('-scan-2'))!;
    expect(readFileSync(join(out, second, 'report.md'), 'utf8')).toContain('### Since scan 1');
    const everything = allFilesText(out);
    for (const value of Object.values(env)) expect(everything).not.toContain(value);
  });

  it('shows on the second run the drift made on purpose and no clock noise, and on the third none', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'zw-demo-drift-'));
    const demo = () => runInProcess(['demo', '--out', 'd', '--quiet'], {}, cwd);
    const diff = (...args: string[]) => runInProcess(['diff', '--db', join(cwd, 'd', 'zonewarden-demo.db'), '--format', 'json', ...args], {}, cwd);
    expect((await demo()).code).toBe(0);
    const second = await runInProcess(['demo', '--out', 'd'], {}, cwd);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('demo: since the first run, the demo organisation changed on purpose:');
    const d = JSON.parse((await diff()).stdout) as {
      from: { id: number };
      to: { id: number };
      findings: { changes: Array<{ change: string; rule: string; zone: { name: string } }> };
      configuration: { changes: Array<{ change: string; type: string; zone: { name: string }; fields: Array<{ field: string }> }> };
    };
    expect([d.from.id, d.to.id]).toEqual([1, 2]);
    const { renewed, edited, paused } = DEMO_CHANGED_ZONES;
    // The renewal fixes the certificate's failure; the paused rule is a new one.
    expect(d.findings.changes.map((c) => `${c.change} ${c.rule} ${c.zone.name}`).sort()).toEqual([`fixed certificate-expiry ${renewed}`, `new firewall-rule-inactive ${paused}`].sort());
    // Only the three changes made on purpose: no timestamp of the organisation moved with the clock.
    expect(d.configuration.changes.map((c) => `${c.change} ${c.type} ${c.zone.name} ${c.fields.map((f) => f.field).sort().join(',')}`).sort()).toEqual(
      [`changed certificate ${renewed} expires_on,uploaded_on`, `changed dns_record ${edited} ttl`, `changed firewall_rule ${paused} paused`].sort(),
    );

    expect((await demo()).code).toBe(0);
    const third = JSON.parse((await diff()).stdout) as { from: { id: number }; changed: boolean };
    expect(third).toMatchObject({ from: { id: 2 }, to: { id: 3 }, changed: false });
  });
});

describe('zonewarden run', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ dataset: 'demo', now: new Date(), rateLimit: 0, ipRateLimit: 0 });
  });
  afterAll(async () => {
    await emu?.close();
  });

  it('scans, audits and reports, exiting 1 on failures at or above --fail-on and 0 without', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'zw-run-'));
    const run = (...args: string[]) => runInProcess(['run', '--base-url', emu.url, '--budget', '1000000', '--quiet', ...args], { ZONEWARDEN_API_TOKEN: TOKEN }, cwd);
    const failing = await run('--fail-on', 'high');
    expect(failing.code, failing.stderr).toBe(1);
    const paths = failing.stdout.trim().split('\n');
    expect(paths.map((p) => p.split('/').pop())).toEqual(['report.html', 'report.md', 'findings.json', 'findings.csv', 'vendor-insights.csv', 'index.html']);
    for (const p of paths) expect(existsSync(p)).toBe(true);
    const json = JSON.parse(readFileSync(paths[2]!, 'utf8')) as { scan: { id: number }; counts: { failBySeverity: Record<string, number> } };
    expect(json.scan.id).toBe(1);
    expect(json.counts.failBySeverity['high']).toBeGreaterThan(0);

    const passing = await run('--format', 'md', '--out', 'md-only');
    expect(passing.code, passing.stderr).toBe(0);
    expect(passing.stdout.trim().split('\n').map((p) => p.split('/').pop())).toEqual(['report.md', 'index.html']);
    expect(readFileSync(passing.stdout.split('\n')[0]!, 'utf8')).toContain('### Since scan 1');
  });

  it('exits 3 when the scan is incomplete, still writing the reports', async () => {
    const broken = await startEmulator({ dataset: 'demo', now: new Date(), rateLimit: 0, ipRateLimit: 0, failRoutes: ['GET /zones/{zone_id}/filters'] });
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'zw-run-incomplete-'));
      const r = await runInProcess(['run', '--base-url', broken.url, '--budget', '1000000', '--retries', '0', '--quiet', '--format', 'md'], { ZONEWARDEN_API_TOKEN: TOKEN }, cwd);
      expect(r.code, r.stderr).toBe(3);
      expect(readFileSync(r.stdout.split('\n')[0]!, 'utf8')).toContain('**The scan is incomplete**');
    } finally {
      await broken.close();
    }
  });
});
