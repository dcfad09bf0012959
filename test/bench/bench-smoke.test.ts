import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bench } from '../support/bench-run.js';

/**
 * `npm run bench -- --scale small` as CI runs it (`npm run test:full`): a check that the harness
 * still works end to end (emulators, zonewarden, the SDK scripts, the budget runs, the tables),
 * with no timing assertions; only what does not depend on the machine's speed is asserted.
 */
const BENCHMARKS = new URL('../../BENCHMARKS.md', import.meta.url);

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
  });

});
