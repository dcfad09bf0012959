import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { runCli } from './cli-process.js';

/**
 * `zonewarden report` of an audited scan, as its own process: the time to write every format and
 * the HTML alone, the HTML's size, and how long headless Chromium takes from opening the file to
 * showing the first rows of the findings (the first group, with the findings' data read).
 */
export interface ReportBenchResult {
  findings: number;
  allFormatsSeconds: number;
  htmlSeconds: number;
  peakRssMiB: number;
  /** Megabytes of 10^6 bytes, as the target is stated. */
  htmlMB: number;
  firstRowsSeconds: number[];
}

const CHROMIUM = '/usr/bin/chromium';

async function report(db: string, scan: number, formats: string): Promise<{ seconds: number; peakKiB: number; html: string | undefined }> {
  const out = mkdtempSync(join(tmpdir(), 'zw-bench-report-'));
  const r = await runCli(['report', '--db', db, '--scan', String(scan), '--format', formats, '--out', out, '--quiet'], {});
  if (r.code !== 0 && r.code !== 3) throw new Error(`report exited with ${r.code}: ${r.out.slice(0, 500)}`);
  const html = r.out.split('\n').find((l) => l.endsWith('report.html'));
  return { seconds: r.ms / 1000, peakKiB: r.peakKiB, html };
}

/** Seconds from navigation to the first rows of the findings on screen and their data read, in a fresh page each time; none without Chromium. */
async function firstRows(html: string, runs: number): Promise<number[]> {
  if (!existsSync(CHROMIUM)) {
    process.stderr.write(`bench: no ${CHROMIUM}; the report's first rows are not measured (apt-get install chromium)\n`);
    return [];
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage();
      const started = performance.now();
      await page.goto(pathToFileURL(html).href);
      // The first rows a reader sees: the first screen and the findings grouped by rule (the default view),
      // with the page script done reading the findings (until then a group opens on its written rows only).
      await page.locator('#zw-by-rule details.zw-group').first().waitFor({ state: 'visible', timeout: 60_000 });
      await page.waitForFunction(() => (globalThis as unknown as { document: { documentElement: { dataset: Record<string, string | undefined> } } }).document.documentElement.dataset['zwReady'] === '1', undefined, { timeout: 60_000 });
      times.push((performance.now() - started) / 1000);
      await page.close();
    }
    return times;
  } finally {
    await browser.close();
  }
}

export async function reportBench(db: string, scan: number, findings: number): Promise<ReportBenchResult> {
  const all = await report(db, scan, 'html,md,json,csv');
  const html = await report(db, scan, 'html');
  if (!html.html) throw new Error('report wrote no report.html');
  const result = {
    findings,
    allFormatsSeconds: all.seconds,
    htmlSeconds: html.seconds,
    peakRssMiB: Math.max(all.peakKiB, html.peakKiB) / 1024,
    htmlMB: statSync(html.html).size / 1e6,
    firstRowsSeconds: await firstRows(html.html, 3),
  };
  for (const file of [all.html, html.html]) if (file) rmSync(join(file, '..', '..'), { recursive: true, force: true });
  return result;
}

export function reportMarkdown(results: ReportBenchResult[]): string {
  return [
    '## Reports: `zonewarden report` of those scans',
    '',
    'Every format, and the HTML alone, as its own process (start-up included); then the HTML opened from',
    'file:// in headless Chromium, timed from navigation until the first group of findings is visible and',
    'the page has read the findings (three fresh pages). Targets at 100,000 findings: HTML at most 15 MB, first rows within 2 s.',
    '',
    '| findings | all formats | HTML alone | peak RSS | HTML size | first rows visible |',
    '|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.findings} | ${r.allFormatsSeconds.toFixed(1)} s | ${r.htmlSeconds.toFixed(1)} s | ${r.peakRssMiB.toFixed(0)} MiB | ${r.htmlMB.toFixed(1)} MB | ${r.firstRowsSeconds.length ? `${r.firstRowsSeconds.map((s) => s.toFixed(2)).join(', ')} s` : 'not measured (no Chromium)'} |`,
    ),
    '',
  ].join('\n');
}

