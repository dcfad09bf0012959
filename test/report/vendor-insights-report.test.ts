/**
 * The vendor's own scanner side by side with zonewarden in every report format, on the tests'
 * organisation (test/support/case-dataset.ts, whose case map names the vendor's cases): HTML and
 * Markdown sections, the JSON of `report` and `audit`, vendor-insights.csv; OCSF and JUnit stay
 * zonewarden's own (docs/formats.md). Insight text is the vendor's, so it is escaped in every
 * format: the stored insights are rewritten with hostile strings, as a hostile or broken API could
 * serve them, and reported again.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { VENDOR_INSIGHTS_CSV_COLUMNS } from '../../src/report/vendor-insights-csv.js';
import { caseDataset } from '../support/case-dataset.js';
import { NOW, TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

interface Pair {
  zone: { name: string };
  type: { issueClass: string | null };
  agreement: string;
  verdict: string;
  why: string;
}

const SCRIPT = '<script>alert(1)</script>';
const FORMULA = '=HYPERLINK("http://evil.example")';
const MD_BREAK = '| x | `y` |\n# heading';

describe("the vendor's scanner side by side, in every report", () => {
  const dir = mkdtempSync(join(tmpdir(), 'zw-vendor-'));
  const db = join(dir, 'zonewarden.db');
  const run = (...args: string[]) => runInProcess([...args, '--db', db], { ZONEWARDEN_API_TOKEN: TOKEN }, dir);
  let emu: RunningEmulator;
  let reportDir: string;
  const reportFile = (name: string) => readFileSync(join(reportDir, name), 'utf8');
  const pairs = (): Pair[] => (JSON.parse(reportFile('findings.json')) as { vendorInsights: { pairs: Pair[] } }).vendorInsights.pairs;
  const pair = (zone: string, issueClass: string) => pairs().find((p) => p.zone.name === zone && p.type.issueClass === issueClass);

  beforeAll(async () => {
    emu = await startEmulator({ dataset: caseDataset(), now: NOW, rateLimit: 0, ipRateLimit: 0 });
    expect((await run('scan', '--base-url', emu.url, '--budget', '1000000', '--quiet')).code).toBeLessThan(2);
    await run('audit', '--quiet');
    const r = await run('report', '--quiet', '--format', 'html,md,json,csv,ocsf,junit');
    expect(r.code, r.stderr).toBe(0);
    reportDir = join(dir, 'reports', readdirSync(join(dir, 'reports')).find((d) => d.endsWith('-scan-1'))!);
  });

  afterAll(async () => {
    await emu?.close();
  });

  it('agrees where both flag it', () => {
    expect(pair('weekend-hack.test', 'hsts_not_enabled')).toMatchObject({ agreement: 'agree', verdict: 'fail' });
    expect(pair('contoso-records.example', 'waf_not_enabled')).toMatchObject({ agreement: 'agree', verdict: 'fail' });
  });

  it('names the account-level deployment the vendor misses', () => {
    // vendor docs: Security Insights, known limitations: account-level managed rules may be missed.
    expect(pair('contoso-clinic.example', 'waf_not_enabled')).toMatchObject({ agreement: 'vendor-only', verdict: 'pass', why: expect.stringMatching(/deployed at the account level/) });
  });

  it('says why zonewarden fails log mode the vendor counts as deployed', () => {
    // vendor docs: Security Insights, known limitations: a managed ruleset in log mode counts as deployed.
    expect(pairs().find((p) => p.zone.name === 'fabrikam-rentals.example' && p.agreement === 'zonewarden-only')).toMatchObject({ why: expect.stringMatching(/log mode/) });
  });

  it("marks the vendor's insight older than the configuration", () => {
    // vendor docs: Security Insights, how it works: Pro zones are scanned every 3 days.
    expect(pair('fabrikam-outlet.example', 'always_https_not_enabled')).toMatchObject({ agreement: 'vendor-older', verdict: 'pass', why: expect.stringMatching(/setting always_use_https changed/) });
  });

  it('lists the insight types zonewarden does not judge apart', () => {
    const json = JSON.parse(reportFile('findings.json')) as { vendorInsights: { notJudged: Array<{ zone: { name: string } | null; insight: { issueClass: string; subject: string }; reason: string }> } };
    // No Turnstile widget: an account-level suggestion no rule judges, one per account (five member accounts).
    const turnstile = json.vendorInsights.notJudged.filter((v) => v.insight.issueClass === 'no_turnstile_enabled');
    expect(turnstile).toHaveLength(5);
    expect(turnstile.every((v) => v.zone === null && /Turnstile adoption/.test(v.reason))).toBe(true);
    expect(reportFile('report.html')).toContain("The vendor's alone");
  });

  it('shows the section in report.html and report.md, and writes vendor-insights.csv', () => {
    expect(reportFile('report.html')).toContain('<section id="vendor">');
    expect(reportFile('report.html')).toMatch(/contoso-clinic\.example[\s\S]*?vendor flags, zonewarden passes/);
    expect(reportFile('report.md')).toContain("### The vendor's own scanner, side by side");
    const csv = reportFile('vendor-insights.csv').split('\r\n');
    expect(csv[0]).toBe(VENDOR_INSIGHTS_CSV_COLUMNS.join(','));
    expect(csv.some((l) => l.includes('contoso-clinic.example') && l.includes('vendor-only'))).toBe(true);
  });

  it('leaves OCSF and JUnit to zonewarden\'s own verdicts', () => {
    expect(reportFile('findings.ocsf.jsonl')).not.toContain('waf_not_enabled');
    expect(reportFile('junit.xml')).not.toContain('waf_not_enabled');
  });

  it('gives the same side by side in the JSON of audit', async () => {
    const r = await run('audit', '--format', 'json', '--quiet');
    const audit = JSON.parse(r.stdout) as { vendorInsights: { pairs: Pair[] } };
    expect(audit.vendorInsights.pairs.find((p) => p.zone.name === 'contoso-clinic.example')).toMatchObject({ agreement: 'vendor-only' });
  });

  it('escapes hostile insight text in every format', async () => {
    const handle = openSnapshot(db);
    handle.prepare(`UPDATE account_objects SET raw = json_set(raw, '$.subject', ?, '$.resolve_text', ?) WHERE endpoint = 'security_insights' AND json_extract(raw, '$.subject') = 'contoso-clinic.example'`).run(`contoso-clinic.example${SCRIPT}`, `${FORMULA} ${MD_BREAK} ${SCRIPT}`);
    handle.prepare(`UPDATE account_objects SET raw = json_set(raw, '$.subject', ?, '$.resolve_text', ?) WHERE endpoint = 'security_insights' AND json_extract(raw, '$.issue_class') = 'a_record_not_proxied'`).run(FORMULA, MD_BREAK);
    handle.close();
    const r = await run('report', '--quiet', '--format', 'html,md,json,csv', '--out', join(dir, 'hostile'));
    expect(r.code, r.stderr).toBe(0);
    const hostile = join(dir, 'hostile', readdirSync(join(dir, 'hostile')).find((d) => d.endsWith('-scan-1'))!);
    const html = readFileSync(join(hostile, 'report.html'), 'utf8');
    expect(html).not.toContain(SCRIPT);
    expect(html).toContain('&lt;script&gt;');
    const md = readFileSync(join(hostile, 'report.md'), 'utf8');
    expect(md).not.toContain(SCRIPT);
    expect(md).not.toMatch(/\n# heading/);
    expect(md).not.toContain('| x |');
    const csv = readFileSync(join(hostile, 'vendor-insights.csv'), 'utf8');
    expect(csv).not.toMatch(/(^|,)=HYPERLINK/m);
    expect(csv).toContain(`'=HYPERLINK`);
    // JSON keeps the text as served, escaped by JSON itself: it parses back to the same string.
    const json = JSON.parse(readFileSync(join(hostile, 'findings.json'), 'utf8')) as { vendorInsights: { pairs: Array<{ insight: { subject: string } | null }> } };
    expect(json.vendorInsights.pairs.map((v) => v.insight?.subject)).toContain(FORMULA);
    // The account names of the case organisation are hostile already (an <img> tag, Markdown table syntax).
    expect(html).not.toContain('<img src=x');
    expect(md).not.toMatch(/\| EU `prod` \|/);
    writeFileSync(join(dir, 'done'), '');
  });
});
