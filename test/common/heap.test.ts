import v8 from 'node:v8';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { HeapCeiling } from '../../src/common/heap.js';

describe('the heap ceiling', () => {
  it('collects the garbage once the heap passes the ceiling, on every n-th check', () => {
    const used = () => v8.getHeapStatistics().used_heap_size;
    let garbage: string[] | null = Array.from({ length: 200_000 }, (_, i) => `garbage ${i} ${'x'.repeat(100)}`);
    expect(garbage.length).toBe(200_000);
    garbage = null;
    const before = used();
    const ceiling = new HeapCeiling(1, 3);
    ceiling.check();
    ceiling.check();
    expect(used(), 'not on the first checks').toBeGreaterThan(before - 10 * 2 ** 20);
    ceiling.check();
    expect(used()).toBeLessThan(before - 10 * 2 ** 20);
  });
});

describe('the heap ceiling over a live heap larger than itself', () => {
  /** Full collections while `run` runs, as Node's performance timeline reports them. */
  async function fullCollections(run: () => void): Promise<number> {
    const seen: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) seen.push((e as unknown as { detail: { kind: number } }).detail.kind);
    });
    observer.observe({ entryTypes: ['gc'] });
    run();
    await new Promise((resolve) => setTimeout(resolve, 100));
    observer.disconnect();
    return seen.filter((kind) => kind === constants.NODE_PERFORMANCE_GC_MAJOR).length;
  }

  it('collects once, then waits for garbage to pile up over what is live instead of collecting on every check', async () => {
    // One huge zone's records stay live while its rules run: collecting them again on every check would find nothing.
    const live = Array.from({ length: 300_000 }, (_, i) => `live ${i} ${'x'.repeat(50)}`);
    // Finish now whatever collection building it started, so that V8's own cannot land among the checks.
    new HeapCeiling(1, 1).check();
    const ceiling = new HeapCeiling(1, 1);
    expect(await fullCollections(() => Array.from({ length: 5 }, () => ceiling.check()))).toBe(1);
    expect(live).toHaveLength(300_000);
  });
});
