import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { ARTIFACTS, browserDescribe, closeWatched, launchChromium, openWatched, type InPage } from '../support/browser.js';
import { pendingOrganizationFlags, TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/**
 * The demo report as users open it: written by `zonewarden report` from real scans of the demo
 * organisation (whose names, messages and invites carry HTML, script tags, Markdown and control
 * characters), opened from file:// in Chromium.
 */
browserDescribe('the demo HTML report in Chromium', 'test/browser/demo-report.test.ts', () => {
  let emu: RunningEmulator;
  let browser: Browser;
  let url: string;
  let findings: number;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-demo-report-'));
    const env = { ZONEWARDEN_API_TOKEN: TOKEN };
    const run = (...args: string[]) => runInProcess([...args, '--db', join(dir, 'zonewarden.db')], env, dir);
    emu = await startEmulator({ dataset: 'demo', now: new Date(), rateLimit: 0, ipRateLimit: 0 });
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
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await emu?.close();
  });

  it('shows every finding, filters by severity, shows hostile strings as text, and runs nothing injected', async () => {
    const watched = await openWatched(browser, url);
    const { page } = watched;
    expect(await page.textContent('#zw-count')).toBe(`Showing 1–${findings} of ${findings} findings`);
    expect(await page.locator('#zw-table tbody tr').count()).toBe(findings);
    const critical = Number(await page.locator('.card[data-severity="critical"] b').textContent());

    await page.selectOption('#zw-f-severity', 'critical');
    expect(await page.locator('#zw-table tbody tr').count()).toBe(critical);
    await page.selectOption('#zw-f-severity', '');

    // The demo's hostile names arrive as text, in the findings table and in the drift section.
    await page.fill('#zw-search', 'Marketing CMS');
    // Predicates as functions: a string one is evaluated with eval, which the report's CSP forbids.
    await page.waitForFunction(() => (globalThis as unknown as InPage).document.querySelectorAll('#zw-table tbody tr').length === 1);
    expect(await page.locator('#zw-table tbody tr td').last().textContent()).toContain('"Marketing CMS <script>alert(1)</script>"');
    expect(await page.locator('#changes').textContent()).toContain('Globex Partners <img src=x onerror=alert(1)><script>alert(1)</script>');

    // The rule cell of a failure says what to do, from the page's "What to do" section.
    const remediation = await page.locator('#fix-migration-incompatible td').nth(2).textContent();
    expect(remediation).toMatch(/^Recreate what each URI-based override does/);
    expect(await page.locator('#zw-table tbody tr td').nth(3).getAttribute('title')).toBe(`What to do: ${remediation}`);

    expect(await page.evaluate('document.scripts.length')).toBe(2);
    expect(await page.locator('img, iframe, object, embed').count()).toBe(0);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'demo-report.png'), fullPage: true });
    await closeWatched(watched);
  });

  it('drills down into a zone from the zones table', async () => {
    const watched = await openWatched(browser, url);
    const { page } = watched;
    const first = page.locator('#zones tbody tr').first();
    const total = Number(await first.locator('td').last().textContent());
    await first.locator('a').click();
    await page.waitForFunction((n) => (globalThis as unknown as InPage).document.querySelectorAll('#zw-table tbody tr.st-fail').length === n, total);
    expect(await page.inputValue('#zw-f-zone')).not.toBe('');
    await closeWatched(watched);
  });
});
