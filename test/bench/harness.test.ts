import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { budgetBoundSeconds, budgetFor, latencyBoundSeconds } from '../../bench/compare.js';
import { slidingWindowBoundSeconds } from '../../bench/pacing.js';
import { replaceSection } from '../../bench/sections.js';

/**
 * `npm run bench -- --scale small` as CI runs it: a check that the harness still works end to
 * end (emulators, zonewarden, the SDK scripts, the budget runs, the tables), with no timing
 * assertions; only what does not depend on the machine's speed is asserted.
 */
const RUN = fileURLToPath(new URL('../../dist/bench/run.js', import.meta.url));
const BENCHMARKS = new URL('../../BENCHMARKS.md', import.meta.url);

function bench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [RUN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const row = (table: string, first: string) => table.split('\n').find((l) => l.startsWith(`| ${first} |`))?.split(' | ');

describe('npm run bench -- --scale small', () => {
  it('measures zonewarden and both SDK scripts, with and without a budget, and prints the targets, leaving BENCHMARKS.md alone with --no-write', async () => {
    const before = readFileSync(BENCHMARKS, 'utf8');
    const r = await bench(['--scale', 'small', '--no-write']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(BENCHMARKS, 'utf8')).toBe(before);
    const [latency, budget] = r.stdout.split('### Under a rate budget');
    for (const tool of ['zonewarden', 'sdk-tuned', 'sdk-plain']) {
      expect(row(latency!, tool), tool).toBeDefined();
      expect(row(budget!, tool), tool).toBeDefined();
    }
    // The demo organisation is read in exactly the fewest requests (bench/minimum.ts counts them from
    // the scan's coverage: what each zone's plan, migration state and rulesets list call for), and
    // the budget is never exceeded.
    const minimum = /\| requests against the minimum \| at most 1\.02 × \| 1\.000 × \((\d+) \/ (\d+)\) \| yes \|/.exec(r.stdout);
    expect(minimum, r.stdout).not.toBeNull();
    expect(minimum![1]).toBe(minimum![2]);
    expect(row(latency!, 'zonewarden')?.slice(1, 3)).toEqual([minimum![1], '1.000']);
    expect(r.stdout).toMatch(/\| 429s under a budget at the server's limit \| 0 \| 0 \| yes \|/);
    expect(Number(row(latency!, 'sdk-plain')?.[1])).toBeGreaterThan(150);
    for (const section of ['### Scan:', '### Audit:', '### Drift:', '### Reports:', '### Targets at this scale']) expect(r.stdout).toContain(section);
  }, 240_000);

  it('refuses an unknown scale', async () => {
    const r = await bench(['--scale', 'huge', '--no-write']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('bench: --scale takes small, medium, large (or a comma-separated list), got "huge"\n');
  });
});

describe('the benchmark arithmetic', () => {
  it('chooses a budget that spreads the minimum over at least four windows and twice the latency bound', () => {
    for (const min of [150, 9915, 100_413]) {
      const b = budgetFor(min);
      expect(budgetBoundSeconds(min, b)).toBeGreaterThanOrEqual(4 * b.windowSeconds);
      expect(budgetBoundSeconds(min, b)).toBeGreaterThanOrEqual(2 * latencyBoundSeconds(min));
    }
    expect(latencyBoundSeconds(8000)).toBe(20);
    expect(budgetBoundSeconds(600, { limit: 100, windowSeconds: 5 })).toBe(30);
  });

  it('bounds a sliding window: latency alone while the work fits in one window, a window per further budget', () => {
    // 800 requests at 8 in flight of 20 ms: 2 s, within one window of 1,000.
    expect(slidingWindowBoundSeconds(800, { limit: 1000, windowSeconds: 300 })).toBeCloseTo(2, 9);
    // 250 at 100 per 5 s: the 201st starts two windows after the 1st; 50 more take 7 round trips of 20 ms.
    expect(slidingWindowBoundSeconds(250, { limit: 100, windowSeconds: 5 })).toBeCloseTo(10 + 7 * 0.02, 9);
    // Sooner than the even rate, by up to a window.
    expect(slidingWindowBoundSeconds(600, { limit: 100, windowSeconds: 5 })).toBeLessThan(budgetBoundSeconds(600, { limit: 100, windowSeconds: 5 }));
    expect(slidingWindowBoundSeconds(0, { limit: 100, windowSeconds: 5 })).toBe(0);
  });

  it('replaces only the section of the scale measured, keeping the rest of the file', () => {
    const first = replaceSection('# Benchmarks\n\nNotes by hand.\n', 'large', 'large v1');
    expect(first).toBe('# Benchmarks\n\n<!-- bench:large begin: written by npm run bench -->\nlarge v1\n<!-- bench:large end -->\n\nNotes by hand.\n');
    const both = replaceSection(first, 'small', 'small v1');
    const again = replaceSection(both, 'large', 'large v2');
    expect(again).toContain('small v1');
    expect(again).toContain('large v2');
    expect(again).not.toContain('large v1');
    expect(again.endsWith('Notes by hand.\n')).toBe(true);
  });
});
