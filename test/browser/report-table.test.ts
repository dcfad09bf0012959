import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ARTIFACTS, browserDescribe, closeWatched, launchChromium, openWatched, type WatchedPage } from '../support/browser.js';

/**
 * The HTML report's table script (templates/report.js) in a real browser, under the report's
 * Content-Security-Policy, with hostile strings in the data. The page is built here from the page
 * contract rather than from the server-side template, so this test pins the script's side of it.
 */

const SCRIPT = readFileSync(new URL('../../templates/report.js', import.meta.url), 'utf8');

const COLUMNS = ['status', 'severity', 'category', 'rule', 'account', 'zone', 'resource', 'message', 'zoneId'] as const;
const DISPLAYED = ['status', 'severity', 'category', 'rule', 'zone', 'resource', 'message'] as const;
const FILTERS = ['status', 'severity', 'category', 'rule', 'account', 'zone'] as const;
const STATUSES = ['fail', 'unknown', 'waived'] as const;
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
const CATEGORIES = ['migration', 'tls', 'firewall', 'dns', 'zone', 'scan'] as const;
const RULES = ['tls-min-version', 'tls-hsts', 'dns-dnssec', 'dns-wildcard', 'firewall-default-allow', 'firewall-open-admin', 'zone-paused', 'scan-stale', 'migration-legacy-rules'];
const ACCOUNTS = ['acme', 'globex', 'initech', 'umbrella', ''];
const MESSAGES = ['HSTS header missing', 'TLS 1.0 still enabled', 'Wildcard record exposes the origin', 'Rule allows any source', 'DNSSEC is off'];

const IMG = '<img src=x onerror="window.__pwned=1">';
const SCRIPT_TAG = '<script>window.__pwned=1</script>';
const BIDI = '\u202eexe.txt|invoice';
const BREAKOUT = '</script><script>window.__pwned=1</script><!--';
const CONTROL = 'bell\u0007 nul\u0000 sep\u2028para\u2029 &amp; "quoted" \'single\'';
// Issue 24: a zone id with &, #, = and quotes broke its link; a 100,000-character text stalled the page.
const AMP_ID = 'zid-&#=x"\'%20';
const LONG = 'lorem ipsum '.repeat(8_334).slice(0, 100_000);

type Row = Record<(typeof COLUMNS)[number], string>;

/** The page's address of the table narrowed to a zone (the script writes it so; its values are URI-encoded). */
const zoneHref = (id: string) => `#zone=${encodeURIComponent(id)}`;

/** Deterministic pseudo-random numbers (mulberry32), so every run sees the same 2,500 findings. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeRows(count: number): Row[] {
  const next = random(20240611);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
  // Two zones share a name in different accounts: the zone filter must tell them apart by id.
  const zones = Array.from({ length: 40 }, (_, i) => ({ id: `zid-${String(i).padStart(3, '0')}`, name: i < 2 ? 'shared.example' : `z${i}.example` }));
  const hostile: Row[] = [
    { status: 'fail', severity: 'critical', category: 'dns', rule: 'dns-wildcard', account: IMG, zone: SCRIPT_TAG, zoneId: 'zid-evil', resource: BIDI, message: BREAKOUT },
    { status: 'fail', severity: 'critical', category: 'tls', rule: 'tls-hsts', account: 'acme', zone: 'plain.example', zoneId: 'zid-plain', resource: 'dns_record:a|b', message: CONTROL },
    { status: 'fail', severity: 'critical', category: 'scan', rule: 'scan-stale', account: IMG, zone: '', zoneId: '', resource: IMG, message: SCRIPT_TAG },
    { status: 'fail', severity: 'critical', category: 'dns', rule: 'dns-wildcard', account: 'acme', zone: 'amp.example', zoneId: AMP_ID, resource: 'dns_record:long', message: LONG },
  ];
  const rows = [...hostile];
  for (let i = rows.length; i < count; i++) {
    const zone = next() < 0.05 ? null : pick(zones);
    rows.push({
      status: pick(STATUSES),
      severity: pick(SEVERITIES),
      category: pick(CATEGORIES),
      rule: pick(RULES),
      account: pick(ACCOUNTS),
      zone: zone?.name ?? '',
      zoneId: zone?.id ?? '',
      resource: `dns_record:r-${String(i).padStart(5, '0')}`,
      message: pick(MESSAGES),
    });
  }
  // Worst first, as the report hands them over; Array.prototype.sort is stable.
  const rankOf = (list: readonly string[], value: string) => list.indexOf(value);
  return rows.sort((a, b) => rankOf(STATUSES, a.status) - rankOf(STATUSES, b.status) || rankOf(SEVERITIES, a.severity) - rankOf(SEVERITIES, b.severity));
}

/** JSON for a `<script type="application/json">`: nothing in it can close the element or open a comment. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function pageHtml(rows: Row[]): string {
  const hash = createHash('sha256').update(SCRIPT, 'utf8').digest('base64');
  const json = scriptSafeJson({ columns: COLUMNS, rows: rows.map((row) => COLUMNS.map((c) => row[c])) });
  const selects = FILTERS.map((k) => `<label>${k} <select id="zw-f-${k}"><option value="">all</option></select></label>`).join('\n');
  const headers = DISPLAYED.map((k) => `<th data-key="${k}">${k}</th>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; img-src data:">
<title>zonewarden report</title>
<style>
body { font: 13px system-ui, sans-serif; margin: 1rem; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: 2px 6px; text-align: left; }
tr.sev-critical td:nth-child(2) { color: #b00; font-weight: bold; }
</style>
</head>
<body>
<form id="zw-filters">
${selects}
<input type="search" id="zw-search" aria-label="Search">
</form>
<p id="zw-count" aria-live="polite"></p>
<table id="zw-table"><thead><tr>${headers}</tr></thead><tbody></tbody></table>
<nav id="zw-pager"></nav>
<p><a id="amp-zone" href="${zoneHref(AMP_ID).replace(/"/g, '&quot;')}">amp.example</a></p>
<script type="application/json" id="zw-findings">${json}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

const ROWS = makeRows(2_500);
const TOTAL = ROWS.length;
const fmt = (n: number) => n.toLocaleString('en-US');
const collator = new Intl.Collator('en', { numeric: true });

function searchHit(row: Row, q: string): boolean {
  const needle = q.trim().toLowerCase();
  return [row.rule, row.account, row.zone, row.resource, row.message].some((v) => v.toLowerCase().includes(needle));
}

/** The stable sort the page should apply: ties keep the worst-first order in both directions. */
function sortedBy(key: 'rule' | 'severity', desc: boolean): Row[] {
  const sign = desc ? -1 : 1;
  const compare = (a: Row, b: Row) =>
    key === 'severity' ? SEVERITIES.indexOf(a.severity as never) - SEVERITIES.indexOf(b.severity as never) : collator.compare(a[key], b[key]);
  return ROWS.map((row, index) => ({ row, index }))
    .sort((a, b) => sign * compare(a.row, b.row) || a.index - b.index)
    .map((x) => x.row);
}

const resources = (rows: Row[]) => rows.map((r) => r.resource);

browserDescribe('the HTML report table in Chromium', 'test/browser/report-table.test.ts', () => {
  let browser: Browser;
  let dir: string;
  let url: string;
  const open: WatchedPage[] = [];

  beforeAll(async () => {
    expect(SCRIPT).not.toMatch(/<\/script|<!--/i);
    dir = mkdtempSync(join(tmpdir(), 'zw-report-table-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, pageHtml(ROWS));
    url = pathToFileURL(file).href;
    browser = await launchChromium();
  });

  afterEach(async () => {
    for (const watched of open.splice(0)) await closeWatched(watched);
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh page each time: a hash-only change to the same URL would not reload the script. */
  async function load(hash = ''): Promise<Page> {
    const watched = await openWatched(browser, url + hash);
    open.push(watched);
    return watched.page;
  }

  const countText = (page: Page) => page.locator('#zw-count').textContent();
  const bodyRows = (page: Page) => page.locator('#zw-table tbody tr');
  const column = (page: Page, key: (typeof DISPLAYED)[number]) =>
    page.locator(`#zw-table tbody tr > td:nth-child(${DISPLAYED.indexOf(key) + 1})`).allTextContents();
  const resourcesShown = (page: Page) => column(page, 'resource');
  const pageLabel = (page: Page) => page.locator('#zw-pager span').textContent();
  const pagerButton = (page: Page, name: 'Previous' | 'Next') => page.locator('#zw-pager button', { hasText: name });
  const hashOf = async (page: Page) => (await page.evaluate('location.hash')) as string;

  it('renders the first page with hostile strings as plain text and nothing injected', async () => {
    const page = await load();
    expect(await countText(page)).toBe(`Showing 1–100 of ${fmt(TOTAL)} findings`);
    expect(await bodyRows(page).count()).toBe(100);
    expect(await page.locator('#zw-table tbody tr:first-child > td').count()).toBe(DISPLAYED.length);
    expect(await bodyRows(page).first().getAttribute('class')).toBe('sev-critical st-fail');
    expect(await resourcesShown(page)).toEqual(resources(ROWS.slice(0, 100)));

    expect(await page.locator('script').count()).toBe(2);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');

    const cells = await page.locator('#zw-table tbody td').allTextContents();
    for (const text of [SCRIPT_TAG, BIDI, BREAKOUT, CONTROL, IMG, 'dns_record:a|b']) expect(cells).toContain(text);
    expect(await page.locator('button.zw-zone[data-zone="zid-evil"]').textContent()).toBe(SCRIPT_TAG);
    expect(await page.locator('#zw-f-account option').allTextContents()).toContain(IMG);
    expect(await page.locator('#zw-f-zone option[value="zid-evil"]').textContent()).toBe(SCRIPT_TAG);

    expect(await pageLabel(page)).toBe('Page 1 of 25');
    expect(await pagerButton(page, 'Previous').isDisabled()).toBe(true);
    expect(await pagerButton(page, 'Next').isDisabled()).toBe(false);
    expect(await hashOf(page)).toBe('');

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'report-table.png') });
  });

  it('lists filter options once each, severity and status by rank, same-named zones apart', async () => {
    const page = await load();
    const values = (key: string) => page.locator(`#zw-f-${key} option`).evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
    expect(await values('severity')).toEqual(['', ...SEVERITIES]);
    expect(await values('status')).toEqual(['', ...STATUSES]);
    expect(await values('rule')).toEqual(['', ...[...RULES].sort(collator.compare)]);
    const shared = await page.locator('#zw-f-zone option', { hasText: 'shared.example' }).allTextContents();
    expect(shared).toEqual(['shared.example (zid-000)', 'shared.example (zid-001)']);
  });

  it('filters by severity at once and says how many of the total match', async () => {
    const page = await load();
    await page.selectOption('#zw-f-severity', 'critical');
    const critical = ROWS.filter((r) => r.severity === 'critical');
    expect(await countText(page)).toBe(`Showing 1–100 of ${fmt(critical.length)} findings (${fmt(TOTAL)} in total)`);
    expect(await resourcesShown(page)).toEqual(resources(critical.slice(0, 100)));
    expect(new Set(await column(page, 'severity'))).toEqual(new Set(['critical']));
    expect(await hashOf(page)).toBe('#severity=critical');
  });

  it('narrows by search, case-insensitively and together with the filters', async () => {
    const page = await load();
    await page.fill('#zw-search', 'HsTs');
    const hsts = ROWS.filter((r) => searchHit(r, 'hsts'));
    expect(hsts.length).toBeGreaterThan(100);
    await expect.poll(() => countText(page)).toBe(`Showing 1–100 of ${fmt(hsts.length)} findings (${fmt(TOTAL)} in total)`);
    expect(await resourcesShown(page)).toEqual(resources(hsts.slice(0, 100)));

    await page.selectOption('#zw-f-status', 'waived');
    const both = hsts.filter((r) => r.status === 'waived');
    await expect.poll(() => countText(page)).toMatch(new RegExp(`^Showing 1–${Math.min(100, both.length)} of ${fmt(both.length)} finding`));
    expect(await resourcesShown(page)).toEqual(resources(both.slice(0, 100)));

    // The account column isn't shown, but the search still looks at it.
    await page.selectOption('#zw-f-status', '');
    await page.fill('#zw-search', 'onerror="window');
    const img = ROWS.filter((r) => searchHit(r, 'onerror="window'));
    await expect.poll(() => countText(page)).toBe(`Showing 1–${img.length} of ${img.length} findings (${fmt(TOTAL)} in total)`);
    expect(await hashOf(page)).toBe(`#q=${encodeURIComponent('onerror="window')}`);

    // Enter applies the search in place: the form must not submit and reload the page.
    await page.evaluate('window.__sameDocument = true');
    await page.fill('#zw-search', 'dnssec');
    await page.press('#zw-search', 'Enter');
    const dnssec = ROWS.filter((r) => searchHit(r, 'dnssec'));
    await expect.poll(() => countText(page)).toBe(`Showing 1–100 of ${fmt(dnssec.length)} findings (${fmt(TOTAL)} in total)`);
    expect(await page.evaluate('window.__sameDocument')).toBe(true);

    await page.fill('#zw-search', 'no such text anywhere');
    await expect.poll(() => countText(page)).toBe('No findings match.');
    expect(await bodyRows(page).count()).toBe(0);
    expect(await pagerButton(page, 'Next').isDisabled()).toBe(true);
  });

  it('sorts by a column, stably, and reverses on a second click', async () => {
    const page = await load();
    const rule = page.locator('th[data-key="rule"]');
    await page.click('#zw-pager button:has-text("Next")');
    await rule.click();
    expect(await rule.getAttribute('aria-sort')).toBe('ascending');
    expect(await page.locator('th[aria-sort]').count()).toBe(1);
    expect(await countText(page)).toBe(`Showing 1–100 of ${fmt(TOTAL)} findings`);
    expect(await resourcesShown(page)).toEqual(resources(sortedBy('rule', false).slice(0, 100)));

    await rule.click();
    expect(await rule.getAttribute('aria-sort')).toBe('descending');
    expect(await resourcesShown(page)).toEqual(resources(sortedBy('rule', true).slice(0, 100)));
    expect(await hashOf(page)).toBe('#sort=-rule');

    // By rank, not by name: descending starts at info (alphabetically it would start at medium).
    const severity = page.locator('th[data-key="severity"]');
    await severity.click();
    await severity.click();
    expect(await rule.getAttribute('aria-sort')).toBeNull();
    expect(await severity.getAttribute('aria-sort')).toBe('descending');
    expect(await resourcesShown(page)).toEqual(resources(sortedBy('severity', true).slice(0, 100)));
    expect((await column(page, 'severity'))[0]).toBe('info');
  });

  it('pages through the results with Previous and Next', async () => {
    const page = await load();
    await pagerButton(page, 'Next').click();
    expect(await countText(page)).toBe(`Showing 101–200 of ${fmt(TOTAL)} findings`);
    expect(await bodyRows(page).count()).toBe(100);
    expect(await resourcesShown(page)).toEqual(resources(ROWS.slice(100, 200)));
    expect(await pageLabel(page)).toBe('Page 2 of 25');
    expect(await pagerButton(page, 'Previous').isDisabled()).toBe(false);
    expect(await hashOf(page)).toBe('#page=2');

    await pagerButton(page, 'Previous').click();
    expect(await countText(page)).toBe(`Showing 1–100 of ${fmt(TOTAL)} findings`);

    const last = await load('#page=25');
    expect(await countText(last)).toBe(`Showing 2,401–2,500 of ${fmt(TOTAL)} findings`);
    expect(await pagerButton(last, 'Next').isDisabled()).toBe(true);
  });

  it('drills down to a zone from its cell and brings the table into view', async () => {
    const page = await load();
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    const button = page.locator('#zw-table tbody button.zw-zone').last();
    const zoneId = (await button.getAttribute('data-zone')) as string;
    await button.click();
    const inZone = ROWS.filter((r) => r.zoneId === zoneId);
    expect(await page.locator('#zw-f-zone').inputValue()).toBe(zoneId);
    expect(await countText(page)).toBe(`Showing 1–${inZone.length} of ${inZone.length} findings (${fmt(TOTAL)} in total)`);
    expect(new Set(await page.locator('button.zw-zone').evaluateAll((bs) => bs.map((b) => (b as unknown as { dataset: { zone: string } }).dataset.zone)))).toEqual(new Set([zoneId]));
    const [top, height] = (await page.evaluate("[document.getElementById('zw-table').getBoundingClientRect().top, window.innerHeight]")) as number[];
    expect(top).toBeGreaterThanOrEqual(-1);
    expect(top).toBeLessThan(height as number);

    const evil = await load();
    await evil.click('button.zw-zone[data-zone="zid-evil"]');
    expect(await evil.locator('#zw-f-zone').inputValue()).toBe('zid-evil');
    expect(await countText(evil)).toBe(`Showing 1–1 of 1 finding (${fmt(TOTAL)} in total)`);
    expect(await hashOf(evil)).toBe('#zone=zid-evil');
  });

  it('cuts a 100,000-character text in its cell and shows all of it on a click', async () => {
    const page = await load();
    const cell = bodyRows(page).filter({ hasText: 'dns_record:long' }).locator('td').nth(DISPLAYED.indexOf('message'));
    const shown = (await cell.textContent())!;
    expect(shown).toBe(`${LONG.slice(0, 300)}\u2026 show all 100,000 characters`);
    expect(await cell.boundingBox().then((b) => b!.height)).toBeLessThan(400);
    await cell.locator('button.zw-more').click();
    expect(await cell.textContent()).toBe(LONG);
    // Searching still reads the whole text, not the cut one.
    await page.fill('#zw-search', LONG.slice(99_000, 99_040));
    await page.waitForFunction(() => (globalThis as unknown as { document: { getElementById(id: string): { textContent: string } } }).document.getElementById('zw-count').textContent.startsWith('Showing 1–1 of 1 '));
  });

  it('selects a zone whose id holds &, #, = and quotes from its link, and writes the same hash back', async () => {
    const page = await load();
    await page.click('#amp-zone');
    await page.waitForFunction((id) => (globalThis as unknown as { document: { getElementById(id: string): { value: string } } }).document.getElementById('zw-f-zone').value === id, AMP_ID);
    expect(await countText(page)).toBe(`Showing 1–1 of 1 finding (${fmt(TOTAL)} in total)`);
    expect(await page.inputValue('#zw-search')).toBe('');
    expect(await hashOf(page)).toBe(zoneHref(AMP_ID));
    // And a bookmark of that view opens it again.
    const again = await load(zoneHref(AMP_ID));
    expect(await again.locator('#zw-f-zone').inputValue()).toBe(AMP_ID);
  });

  it('restores a bookmarked view from the hash and ignores what it does not know', async () => {
    const high = ROWS.filter((r) => r.severity === 'high');
    const page = await load('#severity=high&page=2');
    expect(await page.locator('#zw-f-severity').inputValue()).toBe('high');
    expect(await countText(page)).toBe(`Showing 101–200 of ${fmt(high.length)} findings (${fmt(TOTAL)} in total)`);
    expect(await pageLabel(page)).toBe(`Page 2 of ${Math.ceil(high.length / 100)}`);
    expect(await resourcesShown(page)).toEqual(resources(high.slice(100, 200)));

    const q = '<script>';
    const search = await load(`#q=${encodeURIComponent(q)}&sort=-rule`);
    expect(await search.locator('#zw-search').inputValue()).toBe(q);
    expect(await search.locator('th[data-key="rule"]').getAttribute('aria-sort')).toBe('descending');
    const hits = sortedBy('rule', true).filter((r) => searchHit(r, q));
    expect(await resourcesShown(search)).toEqual(resources(hits));

    const junk = await load('#severity=bogus&page=0&sort=haystack&nope=1&q=%E0%A4%A&zone=zid-007&=x&status');
    const inZone = ROWS.filter((r) => r.zoneId === 'zid-007');
    expect(await junk.locator('#zw-f-severity').inputValue()).toBe('');
    expect(await junk.locator('#zw-search').inputValue()).toBe('');
    expect(await countText(junk)).toBe(`Showing 1–${inZone.length} of ${inZone.length} findings (${fmt(TOTAL)} in total)`);
    expect(await hashOf(junk)).toBe('#zone=zid-007');
  });
});
