import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { loadAudit } from '../support/stored-audit.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { caseDataset } from '../support/case-dataset.js';
import { runCli } from '../support/cli.js';
import { TOKEN } from '../support/http.js';

/**
 * `zonewarden audit` end to end: the tests' organisation (hostile strings included) scanned from
 * a real emulator (on the wall clock, so that certificate dates line up with the scan), then
 * audited by the built CLI.
 */

const ENV = { ZONEWARDEN_API_TOKEN: TOKEN };
let emulator: RunningEmulator;
let dir: string;
let db: string;

async function scanInto(path: string, ...extra: string[]): Promise<void> {
  const r = await runCli(['scan', '--base-url', emulator.url, '--db', path, '--budget', '1000000', '--quiet', ...extra], ENV);
  if (r.code !== 0 && r.code !== 3) throw new Error(`scan failed: ${r.stderr}`);
}

beforeAll(async () => {
  emulator = await startEmulator({ dataset: caseDataset(), rateLimit: 0, ipRateLimit: 0 });
  dir = mkdtempSync(join(tmpdir(), 'zw-cli-audit-'));
  db = join(dir, 'zonewarden.db');
  await scanInto(db);
});

afterAll(async () => {
  await emulator?.close();
});

const audit = (...args: string[]) => runCli(['audit', '--db', db, ...args], ENV);

describe('zonewarden audit', () => {
  it('prints a table of what needs attention and exits 0 without --fail-on', async () => {
    const r = await audit();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    // The tests' organisation's 22 visible zones.
    expect(lines[0]).toMatch(/^scan 1 · started \S+ · complete · 22 zones · \d+ rules$/);
    expect(lines).toContainEqual(expect.stringMatching(/^FAIL\s+high\s+firewall-rule-quota\s+tinkerer\.test\s+zone\s+5 firewall rules: the free plan quota of 5 is reached/));
    expect(r.stdout).toMatch(/\n\d+ failing \(.*\), 0 unknown, 0 waived, \d+ passing\n/);
    expect(r.stdout).not.toMatch(/^pass /m);
  });

  it('accepts --no-reuse, which scripts pass, and says on stderr that it does nothing: the same findings as without it', async () => {
    const plain = JSON.parse((await audit('--format', 'json')).stdout) as { findings: unknown[]; counts: unknown };
    const r = await audit('--format', 'json', '--no-reuse');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('--no-reuse does nothing: every audit now judges every zone\n');
    const doc = JSON.parse(r.stdout) as { findings: unknown[]; counts: unknown };
    expect(doc.findings).toEqual(plain.findings);
    expect(doc.counts).toEqual(plain.counts);
  });

  it('caps the table at --limit rows, worst first, and says how many more there are', async () => {
    const all = JSON.parse((await audit('--format', 'json')).stdout);
    const r = await audit('--limit', '2');
    const rows = r.stdout.split('\n').filter((l) => /^(FAIL|UNKNOWN|WAIVED) /.test(l));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^FAIL\s+critical\s/);
    expect(r.stdout).toContain(`… and ${all.findings.length - 2} more, less severe (--limit 0 lists all; --format json gives every finding)\n`);
    const unlimited = await audit('--limit', '0');
    expect(unlimited.stdout.split('\n').filter((l) => /^(FAIL|UNKNOWN|WAIVED) /.test(l))).toHaveLength(all.findings.length);
    expect(unlimited.stdout).not.toContain('more, less severe');
  });

  it('never lets control characters or bidi overrides from API data reach the terminal', async () => {
    const r = await audit('--passes');
    // eslint-disable-next-line no-control-regex
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(r.stdout).toMatch(/^pass\s/m);
  });

  it('exits 1 when a failure is at or above --fail-on, and says so on stderr', async () => {
    const high = await audit('--fail-on', 'high', '--quiet');
    expect(high.code).toBe(1);
    expect(high.stderr).toBe('');
    const loud = await audit('--fail-on', 'critical');
    expect(loud.code).toBe(1);
    expect(loud.stderr).toMatch(/^\d+ failing finding\(s\) at or above critical\n$/);
    expect((await runCli(['audit', '--db', db], { ...ENV, ZONEWARDEN_FAIL_ON: 'info' })).code).toBe(1);
  });

  it('prints JSON with the schema, counts and findings, and stores the findings with the scan', async () => {
    const r = await audit('--format', 'json', '--fail-on', 'medium');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    // The tests' organisation's 22 visible zones.
    expect(out).toMatchObject({ schema: 'zonewarden.audit/1', scan: { id: 1, status: 'complete' }, zones: 22, failOn: 'medium', exitCode: 1, errors: [] });
    expect(out.findings.length).toBe(out.counts.byStatus.fail + out.counts.byStatus.unknown + out.counts.byStatus.waived);
    expect(out.findings.every((f: { status: string }) => f.status !== 'pass')).toBe(true);
    const withPasses = JSON.parse((await audit('--format', 'json', '--passes')).stdout);
    expect(withPasses.findings.length).toBe(out.findings.length + out.counts.byStatus.pass);
    const handle = openSnapshot(db);
    try {
      expect(loadAudit(handle, 1)?.findings.map((f) => f.fingerprint).sort()).toEqual(out.findings.map((f: { fingerprint: string }) => f.fingerprint).sort());
    } finally {
      handle.close();
    }
  });

  it('applies waivers, and lists expired, ending and unused ones', async () => {
    const file = join(dir, 'waivers.yaml');
    const soon = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    // Within waiverMaxDays (90) of today: a waiver ending later is refused (issue 32).
    const later = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    writeFileSync(
      file,
      [
        `- {rule: firewall-rule-quota, zone: "tinker*", reason: hobby zone, owner: sam, expires: ${soon}}`,
        '- {rule: zone-not-active, zone: northwind-blog.example, reason: old, owner: web, expires: 2020-01-01}',
        `- {rule: "zone-*", zone: nothing.example, reason: typo, owner: web, expires: ${later}}`,
      ].join('\n'),
    );
    const r = await audit('--waivers', file, '--fail-on', 'high');
    expect(r.stdout).toMatch(/^WAIVED\s+high\s+firewall-rule-quota\s+tinkerer\.test .*\[waived: hobby zone; owner sam; until \d{4}-\d{2}-\d{2}\]$/m);
    expect(r.stdout).toMatch(/^FAIL\s+medium\s+zone-not-active\s+northwind-blog\.example/m);
    expect(r.stdout).toContain('expired waivers (no longer applied):\n  waiver 2 (zone-not-active, zone northwind-blog.example; owner web) ended 2020-01-01; 1 failure(s) it covered fail again');
    expect(r.stdout).toMatch(/waivers ending within 14 days:\n {2}waiver 1 \(firewall-rule-quota, zone tinker\*; owner sam\) ends \S+ \(\d days left\)/);
    expect(r.stdout).toContain('waivers matching no failure (fixed, or a typo):\n  waiver 3 (zone-*, zone nothing.example; owner web) matched nothing');
  });

  // issue 32: waivers that cannot hide everything: refused at load in one line, or, in the audit,
  // left unwaived with a warning when they match more than --waiver-max-matches failures.
  it('refuses broad or long waivers in one line and holds back one over its match limit', async () => {
    const file = join(dir, 'broad.yaml');
    const later = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    writeFileSync(file, `- {rule: "*", zone: "tinker*", reason: hobby zone, owner: sam, expires: ${later}}\n`);
    const refused = await audit('--waivers', file);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^zonewarden audit: waivers file .*broad\.yaml: waiver 1: rule "\*" matches every rule; if that is meant, add "acknowledge: \[all-rules\]" to the waiver\n$/);

    writeFileSync(file, `- {rule: "*", zone: "tinker*", reason: hobby zone, owner: sam, expires: ${later}, acknowledge: [all-rules]}\n`);
    const tooLong = await audit('--waivers', file, '--waiver-max-days', '10');
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toMatch(/^zonewarden audit: waivers file .*: waiver 1: expires \S+, later than waiverMaxDays \(10\) days from today; end it by \S+, renewing it then if still needed\n$/);
    const within = JSON.parse((await audit('--waivers', file, '--format', 'json', '--quiet')).stdout);
    const matched = within.waivers.active[0].matched as number;
    expect(matched).toBeGreaterThan(1);
    expect(within.counts.byStatus.waived).toBe(matched);
    const over = await audit('--waivers', file, '--format', 'json', '--quiet', '--waiver-max-matches', String(matched - 1));
    expect(over.stderr).toMatch(
      new RegExp(`^waivers file .*broad\\.yaml: waiver 1 \\(rule \\*, zone tinker\\*\\) matched ${matched} failures, more than waiverMaxMatches \\(${matched - 1}\\): none waived; add "acknowledge: \\[many\\]" to the waiver to waive them\n$`),
    );
    const held = JSON.parse(over.stdout);
    expect(held.counts.byStatus.waived).toBe(0);
    expect(held.waivers.held).toEqual([expect.objectContaining({ index: 1, matched, overLimit: matched - 1 })]);
  });

  it('takes rule settings from the config file', async () => {
    const config = join(dir, 'rules-config.json');
    const quota = (rules: Record<string, unknown>) => {
      writeFileSync(config, JSON.stringify({ rules: { 'zone-not-active': { enabled: false }, ...rules } }));
      return audit('--config', config, '--format', 'json').then((r) => JSON.parse(r.stdout));
    };
    const failing = (out: { findings: Array<{ rule: string; zone: { name: string }; severity: string }> }) =>
      out.findings.filter((f) => f.rule === 'firewall-rule-quota').map((f) => [f.zone.name, f.severity]);
    // tinkerer.test holds 5 firewall rules on Free: a raised quota passes it, a lowered one fails it at the configured severity.
    const raised = await quota({ 'firewall-rule-quota': { options: { quotas: { free: 50 } } } });
    expect(raised.rules.map((r: { id: string }) => r.id)).not.toContain('zone-not-active');
    expect(failing(raised)).toEqual([]);
    expect(failing(await quota({ 'firewall-rule-quota': { severity: 'low', options: { quotas: { free: 6 }, warnAt: 0.5 } } }))).toEqual([['tinkerer.test', 'low']]);
  });

  it.each([
    [['--waivers', 'missing.yaml'], /^zonewarden audit: waivers file .*missing\.yaml: cannot read it \(ENOENT\)\n$/],
    [['--fail-on', 'severe'], /^zonewarden audit: .*fail-on.*critical, high, medium, low, info, none/],
    [['--scan', '99'], /^zonewarden audit: there is no scan 99 in this database/],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const r = await runCli(['audit', '--db', db, ...args], ENV);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });

  it('refuses a bad rules section in the config file', async () => {
    const config = join(dir, 'bad-rules.json');
    writeFileSync(config, JSON.stringify({ rules: { 'certificate-expiri': { enabled: false } } }));
    const r = await audit('--config', config);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`zonewarden audit: config file ${config}: rules.certificate-expiri: no such rule; zonewarden rules lists them (did you mean "certificate-expiry"?)\n`);
  });

  it('refuses a config file that is not JSON in one line, though the parser quotes its line breaks', async () => {
    // Node's JSON.parse quotes the text around the error, raw: "rules:\n  zone-not-active..." here.
    const config = join(dir, 'yaml-config.json');
    writeFileSync(config, 'rules:\n  zone-not-active:\n    enabled: false\n');
    const r = await audit('--config', config);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^zonewarden audit: config file ${config.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: not valid JSON \\(.*\\\\u000a.*\\)\\n$`));
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('names the way out when there is no database or no complete scan', async () => {
    const none = await runCli(['audit', '--db', join(dir, 'nothing.db')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(`zonewarden audit: no database at ${join(dir, 'nothing.db')}: run zonewarden scan first, or point --db at one\n`);
    const broken = join(dir, 'incomplete.db');
    await scanInto(broken, '--zone', 'acme-bank.example');
    const faulty = await startEmulator({ dataset: caseDataset(), rateLimit: 0, ipRateLimit: 0, failRoutes: ['GET /zones/{zone_id}/firewall/rules'] });
    try {
      const path = join(dir, 'only-incomplete.db');
      const scan = await runCli(['scan', '--base-url', faulty.url, '--db', path, '--budget', '1000000', '--retries', '0', '--quiet', '--zone', 'tinkerer.test'], ENV);
      expect(scan.code).toBe(3);
      const r = await runCli(['audit', '--db', path, '--zone', 'tinkerer.test']);
      expect(r.code).toBe(2);
      // issue 32 item 3: --zone picks the newest complete scan holding the zone, of whatever scope.
      expect(r.stderr).toBe(`zonewarden audit: no complete scan holding zone tinkerer.test in ${path}: use the latest incomplete one with --scan 1, or run zonewarden scan again\n`);
      const whole = await runCli(['audit', '--db', path]);
      expect(whole.stderr).toBe(
        `zonewarden audit: no scan of the whole organisation in ${path}: run zonewarden scan, or name a scan with --scan (zonewarden scans lists them; the latest is scan 1)\n`,
      );
      const incomplete = await runCli(['audit', '--db', path, '--scan', '1']);
      expect(incomplete.code).toBe(3);
      expect(incomplete.stdout).toMatch(/^UNKNOWN\s+medium\s+firewall-rule-quota\s+tinkerer\.test\s+zone\s+not judged: firewall_rules: /m);
      expect(incomplete.stderr).toContain('scan 1 is incomplete: checks of what it could not read are unknown');
    } finally {
      await faulty.close();
    }
  });

  it('keeps credentials out of its output and the stored findings', async () => {
    const r = await runCli(['audit', '--db', db, '--format', 'json', '--passes'], { ZONEWARDEN_API_TOKEN: TOKEN, ZONEWARDEN_API_KEY: 'k3y-s3cret', ZONEWARDEN_API_EMAIL: 'me@example.com' });
    expect(`${r.stdout}${r.stderr}`).not.toContain(TOKEN);
    expect(`${r.stdout}${r.stderr}`).not.toContain('k3y-s3cret');
    const handle = openSnapshot(db);
    try {
      const stored = JSON.stringify(handle.prepare('SELECT * FROM findings').all()) + JSON.stringify(handle.prepare('SELECT * FROM audits').all());
      expect(stored).not.toContain(TOKEN);
    } finally {
      handle.close();
    }
  });
});

describe('zonewarden rules', () => {
  it('lists every rule with its severity, category and options', async () => {
    const text = await runCli(['rules']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^firewall-rule-quota {2}\[medium, firewall\]\n {2}checks: /m);
    expect(text.stdout).toContain('    warnAt = 0.8: share of the quota');
    const json = JSON.parse((await runCli(['rules', '--format', 'json'])).stdout);
    expect(json.find((r: { id: string }) => r.id === 'zone-not-active')).toMatchObject({ severity: 'medium', category: 'zone', scope: 'zone', defaultOptions: {} });
    const md = await runCli(['rules', '--format', 'md']);
    expect(md.stdout.split('\n')[0]).toBe('| rule | category | severity | checks that | options | controls |');
  });

  it('says what each rule costs a scan: the reads it declares', async () => {
    const text = await runCli(['rules']);
    expect(text.stdout).toContain('  reads: setting:always_use_https, setting:automatic_https_rewrites (one call each per zone)');
    // A rule that reads only what every scan reads declares nothing.
    const block = text.stdout.slice(text.stdout.indexOf('caa-missing  ['), text.stdout.indexOf('\n\n', text.stdout.indexOf('caa-missing  [')));
    expect(block).not.toContain('reads:');
    const json = JSON.parse((await runCli(['rules', '--format', 'json'])).stdout);
    expect(json.find((r: { id: string }) => r.id === 'dnssec-not-active').reads).toEqual(['dnssec']);
  });
});
