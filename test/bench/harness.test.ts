import { describe, expect, it } from 'vitest';
import { bench } from '../support/bench-run.js';
import { budgetBoundSeconds, budgetFor, latencyBoundSeconds } from '../../bench/compare.js';
import { slidingWindowBoundSeconds } from '../../bench/pacing.js';
import { replaceSection } from '../../bench/sections.js';

/**
 * The benchmark's command line and arithmetic. The whole run at the small scale, a minute or more,
 * is bench-smoke.test.ts, in `npm run test:full`.
 */

describe('npm run bench: its command line', () => {
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
