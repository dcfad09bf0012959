import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { HeapCeiling } from '../../src/shared/heap.js';

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
