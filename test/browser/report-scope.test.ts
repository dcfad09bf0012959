import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { browserDescribe, closeWatched, launchChromium, openWatched } from '../support/browser.js';
import { TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/**
 * A report says at its top what its scan covered: the whole organisation, or the filter, and what
 * could not be read; index.html charts the scans of one scope and lists the others apart, so a
 * one-zone scan never reads as a fall in failures.
 */
browserDescribe('the scope in the HTML reports', 'test/browser/report-scope.test.ts', () => {
  let emu: RunningEmulator;
  let browser: Browser;
  let full: string;
  let scoped: string;
  let index: string;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-report-scope-'));
    const out = join(dir, 'reports');
    const run = (...args: string[]) => runInProcess([...args, '--db', join(dir, 'zonewarden.db')], { ZONEWARDEN_API_TOKEN: TOKEN }, dir);
    emu = await startEmulator({ dataset: 'demo', now: new Date(), rateLimit: 0, ipRateLimit: 0 });
    expect((await run('run', '--base-url', emu.url, '--budget', '1000000', '--quiet', '--out', out, '--format', 'html')).code).toBe(0);
    const partial = await run('run', '--base-url', emu.url, '--budget', '1000000', '--quiet', '--out', out, '--format', 'html', '--zone', 'tailspintoys.example,nosuch.example');
    expect(partial.code, partial.stderr).toBe(3);
    full = pathToFileURL(
      (await run('report', '--out', out, '--format', 'html', '--quiet')).stdout.split('\n')[0]!,
    ).href;
    const lines = partial.stdout.trim().split('\n');
    scoped = pathToFileURL(lines[0]!).href;
    index = pathToFileURL(lines.at(-1)!).href;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await emu?.close();
  });

  it('states the whole organisation at the top of a full scan report', async () => {
    const watched = await openWatched(browser, full);
    const text = await watched.page.locator('header #scope').textContent();
    expect(text).toBe(`Scope: the whole organisation (every account and zone the credentials see); ${emu.org.visibleZones().length} zones read; everything in scope was read.`);
    await closeWatched(watched);
  });

  it('states the filter and what could not be read at the top of a scoped report', async () => {
    const watched = await openWatched(browser, scoped);
    const { page } = watched;
    expect(await page.locator('header #scope').textContent()).toBe('Scope: only zones nosuch.example, tailspintoys.example; 1 zone read; 1 part could not be read (see scan health).');
    expect(await page.locator('#health').textContent()).toContain('--zone nosuch.example: no zone of this name is visible to these credentials');
    await closeWatched(watched);
  });

  it('charts only the scans of the whole organisation in index.html and lists the scoped one apart', async () => {
    const page = await browser.newPage();
    await page.goto(index);
    expect(await page.locator('#trend-scope').textContent()).toBe('Scans of the whole organisation only; scans of other scopes are listed apart below.');
    // One full scan, so no trend yet: the scoped scan beside it does not make a second point.
    expect(await page.locator('svg circle').count()).toBe(0);
    expect(await page.locator('body').textContent()).toContain('The trend appears from the second audited scan on: there is one so far');
    const other = page.locator('#other-scopes + p + .scroll table tbody tr');
    expect(await other.count()).toBe(1);
    expect(await other.locator('td').nth(2).textContent()).toBe('zones nosuch.example, tailspintoys.example');
    await page.close();
  });
});
