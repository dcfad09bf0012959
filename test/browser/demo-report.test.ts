import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_RULE_SETTINGS } from '../../src/cli/commands/demo.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { caseDataset } from '../support/case-dataset.js';
import { ARTIFACTS, browserDescribe, closeWatched, launchChromium, openWatched, type InPage } from '../support/browser.js';
import { pendingOrganizationFlags, TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/**
 * The HTML report as users open it: written by `zonewarden report` from real scans of the tests'
 * organisation (test/support/case-dataset.ts: the old demo, whose names, messages and invites carry
 * HTML, script tags, Markdown and control characters), opened from file:// in Chromium.
 */
browserDescribe('the demo HTML report in Chromium', 'test/browser/demo-report.test.ts', () => {
  let emu: RunningEmulator;
  let browser: Browser;
  let url: string;
  let findings: number;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-demo-report-'));
    const env = { ZONEWARDEN_API_TOKEN: TOKEN };
    // The demo's own rule settings, as `zonewarden demo` audits it (its documentation ranges are stand-ins).
    writeFileSync(join(dir, 'demo-rules.json'), JSON.stringify({ rules: DEMO_RULE_SETTINGS }));
    const run = (...args: string[]) => runInProcess([...args, '--db', join(dir, 'zonewarden.db'), '--config', 'demo-rules.json'], env, dir);
    emu = await startEmulator({ dataset: caseDataset(), now: new Date(), rateLimit: 0, ipRateLimit: 0 });
    await run('scan', '--base-url', emu.url, '--budget', '1000000', '--quiet');
    await run('audit', '--quiet');
    // Accepting the hostile invites puts their names into the drift sections too.
    await run('invites', 'accept', '--all', ...(await pendingOrganizationFlags(emu)), '--yes', '--base-url', emu.url, '--budget', '1000000', '--quiet');
    await run('scan', '--base-url', emu.url, '--budget', '1000000', '--quiet');
    await run('audit', '--quiet');
    const written = await run('report', '--format', 'html,json', '--quiet');
    expect(written.code, written.stderr).toBe(0);
    const html = written.stdout.split('\n')[0]!;
    url = pathToFileURL(html).href;
    findings = (JSON.parse(readFileSync(join(html, '..', 'findings.json'), 'utf8')) as { findings: unknown[] }).findings.length;
    expect(readdirSync(join(html, '..'))).toContain('report.html');
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await emu?.close();
  });

  it('shows every finding, filters by severity, shows hostile strings as text, and runs nothing injected', async () => {
    const watched = await openWatched(browser, url);
    const { page } = watched;
    // The table shows 100 rows a page (templates/report.js): the demo's failures fill more than one.
    const first = Math.min(findings, 100);
    expect(findings).toBeGreaterThan(100);
    expect(await page.textContent('#zw-count')).toBe(`Showing 1–${first} of ${findings} findings`);
    expect(await page.locator('#zw-table tbody tr').count()).toBe(first);
    // Issue 32: the failing counts by severity are on the first screen.
    const critical = Number(await page.locator('#posture li[data-severity="critical"] b').textContent());

    await page.selectOption('#zw-f-severity', 'critical');
    expect(await page.locator('#zw-table tbody tr').count()).toBe(critical);
    await page.selectOption('#zw-f-severity', '');

    // The demo's hostile names arrive as text, in the findings table and in the drift section.
    await page.fill('#zw-search', 'Marketing CMS');
    // Predicates as functions: a string one is evaluated with eval, which the report's CSP forbids.
    await page.waitForFunction(() => (globalThis as unknown as InPage).document.querySelectorAll('#zw-table tbody tr').length === 1);
    expect(await page.locator('#zw-table tbody tr td').nth(7).textContent()).toContain('"Marketing CMS <script>alert(1)</script>"');
    expect(await page.locator('#changes').textContent()).toContain('Globex Partners <img src=x onerror=alert(1)><script>alert(1)</script>');

    // The rule cell of a failure says what to do, from the page's "What to do" section.
    const remediation = await page.locator('#fix-migration-incompatible td').nth(4).textContent();
    expect(remediation).toMatch(/^Recreate what each URI-based override does/);
    expect(await page.locator('#zw-table tbody tr td').nth(3).getAttribute('title')).toBe(`What to do: ${remediation}`);
    await page.fill('#zw-search', '');

    expect(await page.evaluate('document.scripts.length')).toBe(2);
    expect(await page.locator('img, iframe, object, embed').count()).toBe(0);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'demo-report.png'), fullPage: true });
    await closeWatched(watched);
  });

  it('shows each failure\'s remediation and why it matters one click away, collapsed until then', async () => {
    const watched = await openWatched(browser, url);
    const { page } = watched;
    // Issue 32: the table of every finding is one of the findings' views (the groups by rule come first).
    await page.click('label[for="zw-view-table"]');
    const row = page.locator('#zw-table tbody tr.st-fail').first();
    const rule = (await row.locator('td').nth(3).textContent())!;
    const fix = row.locator('td details');
    // The "What to do" table: rule, severity, zones, failing, what to do, and why it matters one click away.
    const remediation = (await page.locator(`#fix-${rule} td`).nth(4).textContent())!;
    const why = (await page.locator(`#fix-${rule} td`).nth(5).locator('details > p').textContent())!;
    expect(remediation.length).toBeGreaterThan(20);
    expect(why.length).toBeGreaterThan(20);
    // Collapsed: the text is there but not shown until the reader asks for it.
    expect(await fix.getAttribute('open')).toBeNull();
    expect(await fix.locator('p').first().isVisible()).toBe(false);
    await fix.locator('summary').click();
    expect(await fix.locator('p').first().isVisible()).toBe(true);
    expect(await fix.locator('p').first().textContent()).toBe(remediation);
    expect(await fix.locator('p.zw-why').textContent()).toBe(`Why it matters: ${why}`);
    // The account has its own column, and a failure says since when it has failed (both scans here).
    expect(await page.locator('#zw-table thead th').nth(4).textContent()).toBe('account');
    expect(await row.locator('td').nth(4).textContent()).not.toBe('');
    expect(await row.locator('td').nth(8).textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \((under a day|\d+ days?)\)$/);
    await closeWatched(watched);
  });

  it('labels its charts: a value on every bar and trend point, axes, the renewal window and a legend', async () => {
    const watched = await openWatched(browser, url);
    const { page } = watched;
    const [timeline, trend] = [page.locator('#charts svg').nth(0), page.locator('#charts svg').nth(1)];
    const barCounts = await timeline.locator('rect:not(.window) title').allTextContents();
    expect(barCounts).toHaveLength(14);
    // The number over each bar is the bar's count.
    expect(await timeline.locator('text.value').allTextContents()).toEqual(barCounts.map((t) => t.replace(/^.*: /, '')));
    expect(await timeline.locator('line.axis').count()).toBe(2);
    expect(await timeline.locator('rect.window').count()).toBe(1);
    expect(await timeline.textContent()).toMatch(/renewal window \(30 days\)/);
    expect(await page.locator('#charts .legend').first().textContent()).toMatch(/expired.*within the renewal window.*later/);
    // Two audited scans: a trend of two points, each with its count.
    expect(await trend.locator('circle').count()).toBe(2);
    expect(await trend.locator('text.value').count()).toBe(2);
    await closeWatched(watched);
  });

  it('never scrolls the page sideways at 1,024 px, even with every collapsed section open, nor when printed', async () => {
    const watched = await openWatched(browser, url);
    const { page } = watched;
    await page.setViewportSize({ width: 1024, height: 800 });
    const overflow = () => page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;
    expect(await overflow()).toBe(0);
    await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })");
    expect(await overflow()).toBe(0);
    // Printed on A4 (794 px at 96 dpi): no table is cut at the page's edge, and no control prints.
    await page.setViewportSize({ width: 794, height: 1123 });
    await page.emulateMedia({ media: 'print' });
    expect(await overflow()).toBe(0);
    expect(await page.locator('#zw-filters').isVisible()).toBe(false);
    expect(await page.locator('#zw-pager').isVisible()).toBe(false);
    await closeWatched(watched);
  });

  // Issue 24: the pending invite's sender carries a right-to-left override ("...\u202emoc.evil"),
  // which made the rest of its finding display reversed, so a domain read as another one.
  it('shows the hostile invite\'s right-to-left override as an escape that reverses nothing', async () => {
    const watched = await openWatched(browser, url);
    const { page } = watched;
    await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })");
    // No bidirectional control or invisible character reaches the page's text (scripts aside).
    const raw = await page.evaluate(
      "[...document.body.querySelectorAll('*')].filter((e) => e.tagName !== 'SCRIPT').flatMap((e) => [...e.childNodes]).filter((n) => n.nodeType === 3).map((n) => n.data).join('')",
    );
    expect(raw).toContain('\\u202emoc.evil');
    expect(raw).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]/);
    // Laid out left to right: every next character of the text after the escape sits to the right
    // of the one before it on the same line. Unescaped, the override would place them right to left.
    const order = (await page.evaluate(`(() => {
      // Every character of the page's text in document order, across the text nodes (names have <wbr> at their dots).
      const chars = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.parentElement.closest('script')) continue;
        for (let i = 0; i < n.data.length; i++) chars.push([n, i]);
      }
      const text = chars.map(([n, i]) => n.data[i]).join('');
      const found = [];
      for (let at = text.indexOf('moc.evil'); at >= 0; at = text.indexOf('moc.evil', at + 1)) {
        const lefts = [];
        for (const [n, i] of chars.slice(at, at + 24)) {
          const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
          const rect = r.getBoundingClientRect();
          if (rect.width > 0) lefts.push([Math.round(rect.top), rect.left]);
        }
        found.push(lefts);
      }
      return found;
    })()`)) as Array<Array<[number, number]>>;
    // Hidden copies (the start of a clipped text, once opened) have no boxes; the shown ones are checked.
    const shown = order.filter((lefts) => lefts.length > 0);
    expect(shown.length, JSON.stringify(order)).toBeGreaterThan(0);
    for (const lefts of shown) {
      const sameLine = lefts.slice(1).filter(([top], i) => top === lefts[i]![0]);
      expect(sameLine.length, JSON.stringify(lefts)).toBeGreaterThan(4);
      for (let i = 1; i < lefts.length; i++) if (lefts[i]![0] === lefts[i - 1]![0]) expect(lefts[i]![1]).toBeGreaterThan(lefts[i - 1]![1]);
    }
    await closeWatched(watched);
  });

  it('keeps the chosen filters when the reader jumps to a section from the page\'s contents', async () => {
    const watched = await openWatched(browser, url);
    const { page } = watched;
    await page.selectOption('#zw-f-severity', 'high');
    const count = await page.textContent('#zw-count');
    await page.click('nav.toc a[href="#remediation"]');
    await page.click('nav.toc a[href="#findings"]');
    expect(await page.inputValue('#zw-f-severity')).toBe('high');
    expect(await page.textContent('#zw-count')).toBe(count);
    await closeWatched(watched);
  });

  // Issue 32: a zone's name opens its group of findings (before, it filtered a table far above without scrolling to it).
  it('opens a zone\'s findings from the zones table, where the reader can see them', async () => {
    const watched = await openWatched(browser, url);
    const { page } = watched;
    const first = page.locator('#zones tbody tr').first();
    const total = Number(await first.locator('td.num').last().textContent());
    const anchor = (await first.locator('a').getAttribute('href'))!;
    await first.locator('a').click();
    const group = page.locator(`details.zw-group${anchor}`);
    expect(await group.getAttribute('open')).not.toBeNull();
    expect(await group.locator('tbody tr.st-fail').count()).toBe(total);
    const top = (await group.boundingBox())!.y;
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(page.viewportSize()!.height);
    expect(await page.evaluate('location.hash')).toBe(anchor);
    await closeWatched(watched);
  });
});
