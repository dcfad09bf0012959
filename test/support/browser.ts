import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { describe, expect, it, type SuiteFactory } from 'vitest';

/**
 * Browser tests drive Debian's Chromium (never a downloaded browser). Without it they fail in CI
 * (CI=true), which must run them, and skip elsewhere with a visible warning.
 */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * The page's document, typed just enough for predicates that run in the page: the project compiles
 * without DOM types, and a predicate is serialised, so it can use types but no imported values.
 */
export type InPage = { document: { querySelectorAll(selector: string): { length: number }; documentElement: { dataset: Record<string, string | undefined> } } };
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

export function browserDescribe(name: string, file: string, factory: SuiteFactory): void {
  const available = existsSync(CHROMIUM);
  if (!available && process.env.CI === 'true') {
    describe(name, () => {
      it('has a browser to run in', () => {
        throw new Error(`Chromium is missing at ${CHROMIUM}; CI must run the browser tests (apt-get install chromium)`);
      });
    });
    return;
  }
  if (!available) console.warn(`${file}: browser tests SKIPPED because Chromium is missing at ${CHROMIUM}`);
  describe.skipIf(!available)(name, factory);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

export interface WatchedPage {
  page: Page;
  /** Console errors and uncaught exceptions. */
  problems: string[];
}

/** A page that records console errors, exceptions, dialogs and CSP violations, loaded and ready. */
export async function openWatched(browser: Browser, url: string): Promise<WatchedPage> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  // Init scripts run outside the page's CSP, so this listener adds no script of its own.
  await page.addInitScript(
    "window.__cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));",
  );
  await page.goto(url);
  await page.waitForFunction(() => (globalThis as unknown as InPage).document.documentElement.dataset['zwReady'] === '1', undefined, { timeout: 60_000 });
  return { page, problems };
}

/** Closes a watched page, failing on anything it recorded. */
export async function closeWatched({ page, problems }: WatchedPage): Promise<void> {
  const violations = (await page.evaluate('window.__cspViolations')) as string[];
  await page.close();
  expect(problems, 'console errors, exceptions or dialogs').toEqual([]);
  expect(violations, 'Content-Security-Policy violations').toEqual([]);
}
