import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_RULE_SETTINGS } from '../../bench/dataset-config.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { printable } from '../../src/common/printable.js';
import { catalogue } from '../../src/policy/catalogue.js';
import { controlLabel, controlsOfId } from '../../src/policy/compliance.js';
import { SEVERITIES, type Severity } from '../../src/policy/rule.js';
import { ARTIFACTS, browserDescribe, closeWatched, launchChromium, openWatched, type InPage } from '../support/browser.js';
import { caseDataset } from '../support/case-dataset.js';
import { TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/**
 * Issue 32: the report for the morning glance. Its first screen answers "how are we, is it getting
 * better or worse, what changed, what do I fix first" at 1,400 × 900 px, for the demo and for an
 * organisation of 300 zones; findings are grouped by rule or by zone, collapsed, searchable, with
 * an anchor per zone that any zone named in the page opens. Expectations are derived from each
 * report's findings.json, never written down: the demo's numbers change as the demo does.
 */

const WIDTH = 1400;
const HEIGHT = 900;
/** The weights the brief sets for the risk score: each failing rule once per zone, by its worst severity there. */
const WEIGHTS: Record<Severity, number> = { critical: 10, high: 5, medium: 2, low: 1, info: 0 };
const DOCS_IMAGE = fileURLToPath(new URL('../../docs/images/report.png', import.meta.url));

interface Stored {
  rule: string;
  severity: Severity;
  status: 'fail' | 'waived' | 'unknown';
  account: { name: string | null } | null;
  zone: { id: string; name: string | null } | null;
  resource: { type: string; id: string; name: string | null };
  message: string;
}
interface Report {
  url: string;
  findings: Stored[];
  counts: { byStatus: Record<string, number>; failBySeverity: Record<Severity, number> };
}

const rank = (s: Severity) => SEVERITIES.length - SEVERITIES.indexOf(s);
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Failing rules in the order to fix them: the most severe failure, then zones reached, then findings. */
function expectedFixes(findings: Stored[]): string[] {
  const rules = new Map<string, { worst: number; zones: Set<string>; failing: number; other: number }>();
  for (const f of findings) {
    const r = rules.get(f.rule) ?? { worst: 0, zones: new Set<string>(), failing: 0, other: 0 };
    rules.set(f.rule, r);
    if (f.status !== 'fail') {
      r.other++;
      continue;
    }
    r.worst = Math.max(r.worst, rank(f.severity));
    r.failing++;
    if (f.zone) r.zones.add(f.zone.id);
  }
  return [...rules]
    .filter(([, r]) => r.failing > 0)
    .sort(([a, x], [b, y]) => y.worst - x.worst || y.zones.size - x.zones.size || y.failing - x.failing || y.other - x.other || byName(a, b))
    .map(([rule]) => rule);
}

/** Zones with failures by risk score (ties: the worse failure, more failures, the name, the id). */
function expectedZones(findings: Stored[]): Array<{ id: string; score: number }> {
  const zones = new Map<string, { id: string; name: string; worst: Map<string, number>; failing: number }>();
  for (const f of findings) {
    if (f.status !== 'fail' || !f.zone) continue;
    const z = zones.get(f.zone.id) ?? { id: f.zone.id, name: f.zone.name ?? f.zone.id, worst: new Map<string, number>(), failing: 0 };
    zones.set(f.zone.id, z);
    z.failing++;
    z.worst.set(f.rule, Math.max(z.worst.get(f.rule) ?? 0, rank(f.severity)));
  }
  const scored = [...zones.values()].map((z) => ({
    ...z,
    score: [...z.worst.values()].reduce((sum, r) => sum + WEIGHTS[SEVERITIES[SEVERITIES.length - r]!], 0),
    top: Math.max(...z.worst.values()),
  }));
  return scored
    .sort((a, b) => b.score - a.score || b.top - a.top || b.failing - a.failing || byName(a.name, b.name) || byName(a.id, b.id))
    .map((z) => ({ id: z.id, score: z.score }));
}

async function readReport(html: string): Promise<Report> {
  const json = JSON.parse(readFileSync(join(dirname(html), 'findings.json'), 'utf8')) as { findings: Stored[]; counts: Report['counts'] };
  return { url: pathToFileURL(html).href, findings: json.findings, counts: json.counts };
}

/** The demo as `zonewarden demo` makes it: run twice, so that the second report shows what changed. */
async function demoReport(): Promise<Report> {
  const cwd = mkdtempSync(join(tmpdir(), 'zw-glance-demo-'));
  await runInProcess(['demo', '--out', 'd', '--quiet'], {}, cwd);
  const second = await runInProcess(['demo', '--out', 'd', '--quiet'], {}, cwd);
  expect(second.code, second.stderr).toBe(0);
  return readReport(second.stdout.split('\n')[0]!);
}

/** Two audited scans of an organisation, a night of changes between them. */
async function scannedTwice(emu: RunningEmulator, config: object, night: boolean): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'zw-glance-org-'));
  writeFileSync(join(dir, 'rules.json'), JSON.stringify({ rules: config }));
  const run = (...args: string[]) => runInProcess([...args, '--db', join(dir, 'zonewarden.db'), '--config', 'rules.json'], { ZONEWARDEN_API_TOKEN: TOKEN }, dir);
  for (let i = 0; i < 2; i++) {
    if (i === 1 && night) emu.night({ share: 0.05, seed: 32 });
    const scan = await run('scan', '--base-url', emu.url, '--budget', '1000000', '--quiet');
    expect(scan.code, scan.stderr).toBe(0);
    expect((await run('audit', '--quiet')).code).toBe(0);
  }
  const written = await run('report', '--format', 'html,json', '--quiet');
  expect(written.code, written.stderr).toBe(0);
  return readReport(written.stdout.split('\n')[0]!);
}

const top = (page: Page, selector: string) => page.locator(selector).evaluate((e) => (e as unknown as { getBoundingClientRect(): { top: number; bottom: number; height: number } }).getBoundingClientRect());
const visibleKeys = (page: Page, view: 'rule' | 'zone') =>
  page.locator(`#zw-by-${view} details.zw-group`).evaluateAll((els) => (els as unknown as Array<{ hidden: boolean; dataset: { key: string } }>).filter((e) => !e.hidden).map((e) => e.dataset.key));

browserDescribe('the morning glance in Chromium, at 1,400 px', 'test/browser/morning-glance.test.ts', () => {
  let browser: Browser;
  let emulators: RunningEmulator[] = [];
  const reports: Record<'demo' | 'zones300', Report> = {} as never;

  beforeAll(async () => {
    reports.demo = await demoReport();
    const generated = await startEmulator({ dataset: 'generated', generated: { seed: 32, accounts: 12, zones: 300, records: 6000 }, now: new Date(), rateLimit: 0, ipRateLimit: 0 });
    emulators.push(generated);
    reports.zones300 = await scannedTwice(generated, GENERATED_RULE_SETTINGS, true);
    browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    for (const emu of emulators) await emu.close();
    emulators = [];
  });

  async function open(name: 'demo' | 'zones300', hash = '') {
    const watched = await openWatched(browser, reports[name].url + hash);
    await watched.page.setViewportSize({ width: WIDTH, height: HEIGHT });
    return watched;
  }

  describe.each(['demo', 'zones300'] as const)('the report of %s', (name) => {
    it('answers how are we, better or worse, what changed and what to fix first within the first 900 px', async () => {
      const report = reports[name];
      if (name === 'zones300') expect(new Set(report.findings.map((f) => f.zone?.id)).size).toBeGreaterThanOrEqual(300);
      const watched = await open(name);
      const { page } = watched;
      for (const panel of ['#posture', '#verdict', '#glance-changes', '#glance-zones', '#glance-fixes']) {
        const box = await top(page, panel);
        expect(box.top, panel).toBeGreaterThanOrEqual(0);
        expect(box.bottom, panel).toBeLessThanOrEqual(HEIGHT);
      }
      // How are we: the failing count and each severity's, as the audit counted them.
      expect(await page.locator('#posture .kpi b').nth(1).textContent()).toBe(report.counts.byStatus['fail']!.toLocaleString('en-US'));
      for (const s of SEVERITIES) expect(await page.locator(`#posture li[data-severity="${s}"] b`).textContent()).toBe(report.counts.failBySeverity[s].toLocaleString('en-US'));
      // Better or worse: two audited scans, so a verdict against the first, and a sparkline of both.
      expect(await page.locator('#verdict .verdict').textContent()).toMatch(/^[▼▲◆] (Better|Worse|As risky|No change)$/);
      expect(await page.locator('#verdict svg.spark').count()).toBe(1);
      expect(await page.locator('#glance-changes h2').textContent()).toBe('Since scan 1');
      // Capped lists, with the way to all of them.
      const zones = expectedZones(report.findings);
      const fixes = expectedFixes(report.findings);
      expect(await page.locator('#glance-zones li').count()).toBe(Math.min(5, zones.length));
      expect(await page.locator('#glance-fixes li').count()).toBe(Math.min(5, fixes.length));
      expect(await page.locator('#glance-zones .all a').textContent()).toBe(`all ${zones.length} ${zones.length === 1 ? 'zone' : 'zones'} with failures`);
      expect(await page.locator('#glance-fixes .all a').textContent()).toBe(`all ${fixes.length} ${fixes.length === 1 ? 'fix' : 'fixes'}`);
      const shot = join(ARTIFACTS, `morning-glance-${name}-1400.png`);
      await page.screenshot({ path: shot });
      // UPDATE_DOCS=1 refreshes the README's picture of the report.
      if (name === 'demo' && process.env['UPDATE_DOCS'] === '1') {
        mkdirSync(dirname(DOCS_IMAGE), { recursive: true });
        copyFileSync(shot, DOCS_IMAGE);
      }
      await closeWatched(watched);
    });

    // The user's report: "what to do" was ordered by count, so the expired certificate (critical) was 21st of 34.
    it('lists the fixes most severe first, then by reach, and the zones by severity-weighted risk', async () => {
      const report = reports[name];
      const watched = await open(name);
      const { page } = watched;
      const fixes = expectedFixes(report.findings);
      const worst = SEVERITIES.find((s) => report.counts.failBySeverity[s] > 0)!;
      expect(await page.locator('#glance-fixes li .sev').first().textContent()).toBe(worst);
      expect(await page.locator('#glance-fixes li code').allTextContents()).toEqual(fixes.slice(0, 5));
      expect(await page.locator('#remediation tbody tr').evaluateAll((rows) => rows.map((r) => (r as unknown as { id: string }).id))).toEqual(fixes.map((r) => `fix-${r}`));
      // The rule groups come in the same order.
      expect((await visibleKeys(page, 'rule')).slice(0, fixes.length)).toEqual(fixes);
      const zones = expectedZones(report.findings);
      const shown = page.locator('#glance-zones li');
      expect(await shown.locator('a[data-zone]').evaluateAll((as) => as.map((a) => (a as unknown as { dataset: { zone: string } }).dataset.zone))).toEqual(zones.slice(0, 5).map((z) => z.id));
      expect((await shown.locator('.score').allTextContents()).map(Number)).toEqual(zones.slice(0, 5).map((z) => z.score));
      await closeWatched(watched);
    });

    it('opens a worst zone\'s group in the zone view, scrolled into the window, from its link and from its address', async () => {
      const report = reports[name];
      const watched = await open(name);
      const { page } = watched;
      const link = page.locator('#glance-zones li a[data-zone]').nth(2);
      const zoneId = (await link.getAttribute('data-zone'))!;
      const anchor = (await link.getAttribute('href'))!;
      await link.click();
      const group = page.locator(`#zw-by-zone details.zw-group${anchor}`);
      expect(await page.locator('#zw-view-zone').isChecked()).toBe(true);
      expect(await page.locator('#zw-by-rule').isVisible()).toBe(false);
      expect(await group.getAttribute('open')).not.toBeNull();
      expect(await group.getAttribute('data-key')).toBe(zoneId);
      const box = await top(page, `#zw-by-zone details.zw-group${anchor}`);
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.top).toBeLessThan(60);
      expect(await page.evaluate('location.hash')).toBe(anchor);
      const inZone = report.findings.filter((f) => f.zone?.id === zoneId);
      expect(await group.locator('tbody tr').count()).toBe(Math.min(100, inZone.length));
      await page.screenshot({ path: join(ARTIFACTS, `morning-glance-${name}-zone-open.png`) });
      await closeWatched(watched);

      // A bookmark of it, or a link from elsewhere, opens the same.
      const again = await open(name, anchor);
      expect(await again.page.locator(`details.zw-group${anchor}`).getAttribute('open')).not.toBeNull();
      expect(await again.page.locator('#zw-view-zone').isChecked()).toBe(true);
      const reopened = await top(again.page, `details.zw-group${anchor}`);
      expect(reopened.top).toBeGreaterThanOrEqual(0);
      expect(reopened.top).toBeLessThan(HEIGHT);
      await closeWatched(again);
    });
  });

  it('switches between grouping by rule and by zone and searches, without reloading the page', async () => {
    const report = reports.zones300;
    const watched = await open('zones300');
    const { page } = watched;
    await page.evaluate('window.__samePage = true');
    expect(await page.locator('#zw-by-rule').isVisible()).toBe(true);
    // Collapsed until opened.
    expect(await page.locator('details.zw-group[open]').count()).toBe(0);
    await page.click('label[for="zw-view-zone"]');
    expect(await page.locator('#zw-by-zone').isVisible()).toBe(true);
    expect(await page.locator('#zw-by-rule').isVisible()).toBe(false);
    expect(await page.evaluate('location.hash')).toBe('#view=zone');

    // A zone's name: the groups of the zones with a finding that mentions it (its own, and those whose records point at it).
    const zones = expectedZones(report.findings);
    const needle = report.findings.find((f) => f.zone?.id === zones[1]!.id)!.zone!.name!;
    const mentions = (f: Stored) => [f.rule, f.account?.name ?? '', f.zone?.name ?? '', f.resource.name ?? f.resource.id, f.message].some((t) => t.toLowerCase().includes(needle.toLowerCase()));
    await page.fill('#zw-search', needle);
    const expected = [...new Set(report.findings.filter(mentions).map((f) => f.zone?.id ?? ''))].sort();
    await expect.poll(async () => (await visibleKeys(page, 'zone')).sort()).toEqual(expected);
    expect(expected).toContain(zones[1]!.id);
    const hits = report.findings.filter(mentions).length;
    expect(await page.locator('#zw-match').textContent()).toMatch(new RegExp(`^${hits.toLocaleString('en-US')} findings? of ${report.findings.length.toLocaleString('en-US')} match`));
    const target = page.locator(`#zw-by-zone details.zw-group[data-key="${zones[1]!.id}"]`);
    expect(await target.locator('.zw-n').textContent()).toMatch(/^\d+ of \d+$/);

    // A control of a compliance framework finds the rules that give evidence for it.
    await page.click('label[for="zw-view-rule"]');
    await page.fill('#zw-search', 'PCI DSS 4.2.1');
    const failingRules = new Set(report.findings.map((f) => f.rule));
    const withControl = [...failingRules].filter((r) => controlsOfId(r, catalogue()).some((c) => controlLabel(c) === 'PCI DSS 4.2.1')).sort();
    expect(withControl.length).toBeGreaterThan(0);
    await expect.poll(async () => (await visibleKeys(page, 'rule')).sort()).toEqual(withControl);
    expect(await page.locator('#zw-by-rule details.zw-group:not([hidden]) .tag', { hasText: 'PCI DSS 4.2.1' }).count()).toBe(withControl.length);

    // Cleared, every group is back; and the page never reloaded.
    await page.fill('#zw-search', '');
    await expect.poll(() => visibleKeys(page, 'rule').then((k) => k.length)).toBe(new Set(report.findings.map((f) => f.rule)).size);
    expect(await page.evaluate('window.__samePage')).toBe(true);
    await closeWatched(watched);
  });

  it('works without its script: every group present and expandable, and a zone\'s link shows its group', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: WIDTH, height: HEIGHT } });
    const page = await context.newPage();
    await page.goto(reports.demo.url);
    const rules = new Set(reports.demo.findings.map((f) => f.rule));
    expect(await page.locator('#zw-by-rule details.zw-group').count()).toBe(rules.size);
    // No control that needs the script is shown.
    expect(await page.locator('#zw-filters').isVisible()).toBe(false);
    expect(await page.locator('label[for="zw-view-table"]').isVisible()).toBe(false);
    const first = page.locator('#zw-by-rule details.zw-group').first();
    expect(await first.locator('tbody tr').first().isVisible()).toBe(false);
    await first.locator('> summary').click();
    expect(await first.locator('tbody tr').first().isVisible()).toBe(true);
    // Its first rows are written in the page (at most 25 a group: group-rows.ts).
    expect(await first.locator('tbody tr').count()).toBe(Math.min(25, reports.demo.findings.filter((f) => f.rule === expectedFixes(reports.demo.findings)[0]).length));
    // The radio buttons switch the views by CSS alone.
    await page.click('label[for="zw-view-zone"]');
    expect(await page.locator('#zw-by-zone').isVisible()).toBe(true);
    await page.click('label[for="zw-view-rule"]');
    // A zone's link from the first screen shows the zone view with its group, though the rule view was chosen.
    const link = page.locator('#glance-zones li a[data-zone]').first();
    const anchor = (await link.getAttribute('href'))!;
    await link.click();
    expect(await page.locator('#zw-by-zone').isVisible()).toBe(true);
    const box = await top(page, anchor);
    expect(box.top).toBeGreaterThanOrEqual(0);
    expect(box.top).toBeLessThan(HEIGHT);
    await page.screenshot({ path: join(ARTIFACTS, 'morning-glance-demo-no-script.png') });
    await context.close();
  });
});

// The tests' organisation carries HTML, script tags and bidirectional controls in its names and
// messages (test/support/case-dataset.ts): in the groups' headers, attributes and rows they stay text.
browserDescribe('the grouped findings of hostile names in Chromium', 'test/browser/morning-glance.test.ts', () => {
  let browser: Browser;
  let emu: RunningEmulator;
  let report: Report;

  beforeAll(async () => {
    emu = await startEmulator({ dataset: caseDataset(), now: new Date(), rateLimit: 0, ipRateLimit: 0 });
    report = await scannedTwice(emu, {}, false);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await emu?.close();
  });

  it('shows them as text in every group, opened, and runs nothing injected', async () => {
    const watched = await openWatched(browser, report.url);
    const { page } = watched;
    for (const view of ['zone', 'rule'] as const) {
      await page.click(`label[for="zw-view-${view}"]`);
      await page.locator(`#zw-by-${view} details.zw-group`).evaluateAll((els) => els.forEach((e) => ((e as unknown as { open: boolean }).open = true)));
    }
    // Every group, opened, has its table (drawn from the findings where the page wrote none).
    await page.waitForFunction(() => {
      const d = (globalThis as unknown as InPage).document;
      return d.querySelectorAll('details.zw-group[open]').length === d.querySelectorAll('details.zw-group[open] table.zw-rows').length;
    });
    // Each as text, with control and invisible characters as escapes (cut at the 300 characters a cell shows before "show all").
    const hostile = report.findings.filter((f) => /<(script|img)/.test(f.message));
    expect(hostile.length, 'findings whose message holds HTML').toBeGreaterThan(0);
    const cells = await page.locator('#zw-by-rule details.zw-group td.k-message').allTextContents();
    for (const f of hostile) {
      const shown = [...printable(f.message)];
      expect(cells).toContain(shown.length <= 300 ? shown.join('') : `${shown.slice(0, 300).join('')}\u2026 show all ${shown.length.toLocaleString('en-US')} characters`);
    }
    const zoneNames = await page.locator('#zw-by-zone details.zw-group > summary .name').allTextContents();
    for (const f of report.findings) if (f.zone?.name) expect(zoneNames).toContain(printable(f.zone.name));
    expect(await page.locator('img, iframe, object, embed').count()).toBe(0);
    expect(await page.evaluate('document.scripts.length')).toBe(2);
    await closeWatched(watched);
  });
});
