import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_RULE_SETTINGS } from '../../src/cli/commands/demo.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { FINDINGS_CSV_COLUMNS } from '../../src/report/csv.js';
import { caseDataset } from '../support/case-dataset.js';
import { TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/** `zonewarden report` on two audited scans of the demo organisation. */
describe('zonewarden report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zw-report-'));
  const env = { ZONEWARDEN_API_TOKEN: TOKEN };
  // The demo's own rule settings, as `zonewarden demo` audits it (its documentation ranges are stand-ins).
  writeFileSync(join(dir, 'demo-rules.json'), JSON.stringify({ rules: DEMO_RULE_SETTINGS }));
  const run = (...args: string[]) => runInProcess([...args, '--db', join(dir, 'zonewarden.db'), '--config', 'demo-rules.json'], env, dir);
  let emu: RunningEmulator;
  let out: string[];
  let reportDir: string;

  beforeAll(async () => {
    emu = await startEmulator({ dataset: 'demo', now: new Date(), rateLimit: 0, ipRateLimit: 0 });
    for (let i = 0; i < 2; i++) {
      await run('scan', '--base-url', emu.url, '--budget', '1000000', '--quiet');
      await run('audit', '--quiet');
    }
    const r = await run('report', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    out = r.stdout.trim().split('\n');
    reportDir = join(dir, 'reports', readdirSync(join(dir, 'reports')).find((d) => d.endsWith('-scan-2'))!);
  });

  afterAll(async () => {
    await emu?.close();
  });

  it('writes the four reports into a directory named by the scan time, and the index', () => {
    // vendor-insights.csv beside findings.csv: the scans read the vendor's insights (docs/reports.md).
    expect(readdirSync(reportDir).sort()).toEqual(['findings.csv', 'findings.json', 'report.html', 'report.md', 'vendor-insights.csv']);
    expect(reportDir).toMatch(/reports\/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-scan-2$/);
    expect(out).toEqual([...['report.html', 'report.md', 'findings.json', 'findings.csv', 'vendor-insights.csv'].map((f) => join(reportDir, f)), join(dir, 'reports', 'index.html')]);
  });

  it('lets only its own script run: the CSP carries the hash of the inline script', () => {
    const html = readFileSync(join(reportDir, 'report.html'), 'utf8');
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const hash = createHash('sha256').update(script).digest('base64');
    expect(html).toContain(`script-src 'sha256-${hash}'`);
    expect(html).toContain("default-src 'none'");
    expect(html.match(/<script/g)).toHaveLength(2);
  });

  it('writes findings.json in the documented audit schema and findings.csv with a row per finding', () => {
    const json = JSON.parse(readFileSync(join(reportDir, 'findings.json'), 'utf8')) as { schema: string; scan: { id: number }; findings: unknown[] };
    expect(json.schema).toBe('zonewarden.audit/1');
    expect(json.scan.id).toBe(2);
    // The per-zone counts behind the report's pass rates stay out of the documented schema.
    expect(Object.keys((json as unknown as { counts: object }).counts).sort()).toEqual(['byRule', 'byStatus', 'failBySeverity']);
    const csv = readFileSync(join(reportDir, 'findings.csv'), 'utf8');
    expect(csv.split('\r\n')[0]).toBe(FINDINGS_CSV_COLUMNS.join(','));
    for (const f of json.findings as Array<{ fingerprint: string }>) expect(csv).toContain(`,${f.fingerprint},`);
  });

  it("shows each failing rule's remediation in every format: HTML and Markdown sections, a JSON rule field, a CSV column", () => {
    const remediation = 'Unpause the zone, or finish its activation (point the registrar at the assigned name servers); delete zones that are no longer used.';
    // The demo's zones that are not active, as the audit found them.
    const notActive = (JSON.parse(readFileSync(join(reportDir, 'findings.json'), 'utf8')) as { findings: Array<{ rule: string; status: string; zone: { name: string } }> }).findings.filter((f) => f.rule === 'zone-not-active' && f.status === 'fail');
    const zones = new Set(notActive.map((f) => f.zone.name)).size;
    expect(notActive.length).toBeGreaterThan(0);
    const html = readFileSync(join(reportDir, 'report.html'), 'utf8');
    // Issue 32: why it matters (the rule's whole description) is one click away, or each row was a screen tall.
    expect(html).toMatch(new RegExp(`<tr id="fix-zone-not-active"><td><code>zone-not-active</code>.*<td class="num">${notActive.length}</td><td>${remediation.replace(/[()]/g, '\\$&')}</td><td class="muted"><details class="why"><summary>why it matters</summary><p>[^<]+</p></details></td></tr>`));
    const md = readFileSync(join(reportDir, 'report.md'), 'utf8');
    expect(md).toContain(`### What to do\n`);
    // Issue 32: each with its worst severity and the zones it fails in (the list runs most severe first, then by reach).
    expect(md).toContain(`- medium: \`zone-not-active\` (${notActive.length} failing in ${zones} zone${zones === 1 ? '' : 's'}; PCI DSS 6.4.2, NIST SP 800-53 SC-7): ${remediation}`);
    const json = JSON.parse(readFileSync(join(reportDir, 'findings.json'), 'utf8')) as { scan: { startedAt: string }; rules: Array<{ id: string; remediation: string }> };
    expect(json.rules.find((r) => r.id === 'zone-not-active')?.remediation).toBe(remediation);
    const csv = readFileSync(join(reportDir, 'findings.csv'), 'utf8');
    const paused = csv.split('\r\n').find((line) => line.startsWith('zone-not-active,zone,medium,fail,'));
    // The remediation, then the controls the rule maps to (issue 32 item 6), then when the zone's data was read (issue 30 item 8).
    expect(paused?.endsWith(`,"${remediation}",PCI DSS 6.4.2; NIST SP 800-53 SC-7,${json.scan.startedAt}`)).toBe(true);
  });

  it('names --out, not the database, when the report directory cannot be made', async () => {
    // A path through a file: mkdir answers ENOTDIR (POSIX mkdir(2)); the database is fine.
    writeFileSync(join(dir, 'a-file'), 'not a directory');
    const through = await run('report', '--quiet', '--out', join(dir, 'a-file', 'reports'));
    expect(through.code).toBe(2);
    expect(through.stderr.startsWith(`zonewarden report: cannot create the directory ${join(dir, 'a-file', 'reports')}/`)).toBe(true);
    expect(through.stderr.endsWith(': a part of the path is a file, not a directory: choose another path\n')).toBe(true);
    expect(through.stderr).not.toContain('zonewarden.db');
  });

  it('writes findings.json as the golden file has it (times aside)', () => {
    const golden = new URL('../fixtures/golden/findings.json', import.meta.url);
    const json = readFileSync(join(reportDir, 'findings.json'), 'utf8').replace(/\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?/g, '<time>');
    // UPDATE_GOLDEN=1 rewrites it after an intended change; review the diff before committing.
    if (process.env['UPDATE_GOLDEN']) writeFileSync(golden, json);
    expect(json).toBe(readFileSync(golden, 'utf8'));
  });

  it('lists every audited run in the index, linking the reports written', () => {
    const index = readFileSync(join(dir, 'reports', 'index.html'), 'utf8');
    expect(index).toMatch(/<td>2<\/td>[\s\S]*href="[^"]*-scan-2\/report\.html"/);
    expect(index).toMatch(/<td>1<\/td>[\s\S]*none written/);
  });

  it('writes only the formats asked for, and refuses unknown ones', async () => {
    const r = await run('report', '--format', 'md,csv', '--out', 'only', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    const only = join(dir, 'only', readdirSync(join(dir, 'only')).find((d) => d.endsWith('-scan-2'))!);
    expect(readdirSync(only).sort()).toEqual(['findings.csv', 'report.md', 'vendor-insights.csv']);
    const bad = await run('report', '--format', 'html,pdf');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('zonewarden report: --format takes a comma-separated list of html, md, json, csv, ocsf, junit; got "html,pdf"\n');
  });

  it('uses templates from --templates, and refuses one that names a missing field', async () => {
    const templates = join(dir, 'mine');
    mkdirSync(templates, { recursive: true });
    writeFileSync(join(templates, 'report.md.hbs'), 'Scan {{scan.id}}: {{number counts.fail}} failing.\n');
    const r = await run('report', '--format', 'md', '--templates', 'mine', '--out', 'custom', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    const md = readFileSync(r.stdout.split('\n')[0]!, 'utf8');
    expect(md).toMatch(/^Scan 2: \d+ failing\.\n$/);
    writeFileSync(join(templates, 'report.md.hbs'), '{{scan.nope}}\n');
    const broken = await run('report', '--format', 'md', '--templates', 'mine', '--out', 'custom');
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/report\.md\.hbs: "nope" not defined/);
  });

  it('refuses a scan that has not been audited', async () => {
    await run('scan', '--base-url', emu.url, '--budget', '1000000', '--quiet');
    const r = await run('report', '--out', 'none');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('zonewarden report: scan 3 has not been audited: run zonewarden audit --scan 3 first\n');
    expect(existsSync(join(dir, 'none'))).toBe(false);
  });

  it('lists the waivers: active with how many failures each waived, ending soon, and expired', async () => {
    const soon = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    writeFileSync(
      join(dir, 'waivers.yaml'),
      // issue 32 item 5: a waiver of a critical failure, or of every zone, says so in the waiver itself.
      `- {rule: certificate-expiry, zone: wingtiptoys.example, reason: "renewal <b>booked</b>", owner: web@example.com, expires: ${soon}, acknowledge: [critical]}\n` +
        '- {rule: dns-private-address, zone: "*", reason: lab, owner: net@example.com, expires: 2020-01-01, acknowledge: [all-zones]}\n',
    );
    // issue 32 item 4: other waivers than the scan's official audit's make a trial, stored apart; report --audit shows it.
    const trial = await run('audit', '--scan', '2', '--waivers', 'waivers.yaml');
    expect(trial.code).toBe(0);
    const auditId = /^stored as audit (\d+) \(trial: waivers differ from the official audit of scan 2\)/m.exec(trial.stderr)?.[1];
    expect(auditId, trial.stderr).toBeDefined();
    const r = await run('report', '--audit', auditId!, '--format', 'html', '--out', 'waived', '--quiet');
    expect(r.stdout.split('\n')[0]).toMatch(new RegExp(`-scan-2-audit-${auditId}/report\\.html$`));
    const html = readFileSync(r.stdout.split('\n')[0]!, 'utf8');
    expect(html).toMatch(/<p>1 active, 1 ending within 14 days, 1 expired\.<\/p>/);
    expect(html).toMatch(/#1 ending soon, 1 waived<\/td><td>certificate-expiry<\/td>[\s\S]*web@example\.com[\s\S]*renewal &lt;b&gt;booked&lt;\/b&gt;/);
    expect(html).toMatch(/#2 expired<\/td><td>dns-private-address<\/td>/);
  });
});

// The tests' organisation carries HTML, script tags, Markdown table syntax, control characters and
// a right-to-left override in its names, messages and invites (test/support/case-dataset.ts): every
// report format keeps them as text of its own kind, never markup, a broken row or a raw control.
// (The Markdown digest, where they reach through drift, is test/report/markdown-digest.test.ts's.)
describe("zonewarden report on the tests' organisation, in every format", () => {
  const SCRIPT = '<script>alert(1)</script>';
  // C0 controls but tab and line breaks, DEL and C1: what a format must escape or replace.
  // eslint-disable-next-line no-control-regex
  const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
  const files: Record<string, string> = {};
  let emu: RunningEmulator;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-report-cases-'));
    writeFileSync(join(dir, 'demo-rules.json'), JSON.stringify({ rules: DEMO_RULE_SETTINGS }));
    const run = (...args: string[]) => runInProcess([...args, '--db', join(dir, 'zonewarden.db'), '--config', 'demo-rules.json'], { ZONEWARDEN_API_TOKEN: TOKEN }, dir);
    emu = await startEmulator({ dataset: caseDataset(), now: new Date(), rateLimit: 0, ipRateLimit: 0 });
    await run('scan', '--base-url', emu.url, '--budget', '1000000', '--quiet');
    await run('audit', '--quiet');
    const r = await run('report', '--format', 'html,json,csv,ocsf,junit', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    for (const path of r.stdout.trim().split('\n')) files[path.split('/').pop()!] = readFileSync(path, 'utf8');
  });

  afterAll(async () => {
    await emu?.close();
  });

  it('HTML: no markup from the data, and the findings it carries hold the hostile text whole', () => {
    const html = files['report.html']!;
    expect(html).not.toMatch(/<img src=x/i);
    expect(html).not.toContain(SCRIPT);
    // The findings travel compressed in base64, where no < can end the block; inflated, they hold the hostile text whole.
    const blob = /<script type="application\/octet-stream" id="zw-findings" data-encoding="gzip\+base64">([A-Za-z0-9+/=]+)<\/script>/.exec(html)![1]!;
    const data = JSON.parse(gunzipSync(Buffer.from(blob, 'base64')).toString('utf8')) as { rows: string[][] };
    expect(data.rows.some((row) => row.some((cell) => cell.includes(SCRIPT)))).toBe(true);
  });

  it('JSON and OCSF: valid JSON holding the text whole, controls escaped', () => {
    const json = files['findings.json']!;
    expect(json).not.toMatch(CONTROL);
    expect(JSON.stringify(JSON.parse(json))).toContain(JSON.stringify(SCRIPT).slice(1, -1));
    const ocsf = files['findings.ocsf.jsonl']!;
    expect(ocsf).not.toMatch(CONTROL);
    const events = ocsf.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown);
    expect(events.some((e) => JSON.stringify(e).includes('alert(1)'))).toBe(true);
  });

  it('CSV: one line per row, controls escaped, the text kept', () => {
    const csv = files['findings.csv']!;
    expect(csv).not.toMatch(CONTROL);
    expect(csv).toContain(SCRIPT);
  });

  it('JUnit: well-formed XML text, no markup from the data and no character XML 1.0 forbids', () => {
    const junit = files['junit.xml']!;
    expect(junit).not.toMatch(/<(script|img)/i);
    expect(junit).toContain('&lt;script&gt;');
    // eslint-disable-next-line no-control-regex
    expect(junit).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  });
});
