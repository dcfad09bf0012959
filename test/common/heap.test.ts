import { describe, expect, it } from 'vitest';
import { collectAbove, HeapCeiling, type HeapAccess } from '../../src/common/heap.js';

const MB = 2 ** 20;

/** A heap whose size the test sets, counting the collections asked of it; a collection leaves `live`. */
function fakeHeap(start: number): HeapAccess & { size: number; live: number; collections: number } {
  const heap = {
    size: start,
    live: 0,
    collections: 0,
    used: () => heap.size,
    collect: () => {
      heap.collections++;
      heap.size = heap.live;
    },
  };
  return heap;
}

describe('the heap ceiling', () => {
  it('collects once the heap passes the ceiling, on every n-th check only', () => {
    const heap = fakeHeap(200 * MB);
    const ceiling = new HeapCeiling(100, 3, heap);
    ceiling.check();
    ceiling.check();
    expect(heap.collections, 'not on the first checks').toBe(0);
    ceiling.check();
    expect(heap.collections).toBe(1);
    expect(heap.size).toBe(0);
  });

  it('leaves a heap under the ceiling alone', () => {
    const heap = fakeHeap(99 * MB);
    const ceiling = new HeapCeiling(100, 1, heap);
    for (let i = 0; i < 10; i++) ceiling.check();
    expect(heap.collections).toBe(0);
  });

  it('over a live heap larger than itself, waits for a quarter of the ceiling of garbage before collecting again', () => {
    // One huge zone's records stay live while its rules run: collecting them again on every check would find nothing.
    const heap = fakeHeap(300 * MB);
    heap.live = 250 * MB;
    const ceiling = new HeapCeiling(100, 1, heap);
    ceiling.check();
    expect(heap.collections).toBe(1);
    // Garbage up to the live heap plus 25 MB is left to pile up.
    heap.size = 270 * MB;
    for (let i = 0; i < 5; i++) ceiling.check();
    expect(heap.collections).toBe(1);
    heap.size = 276 * MB;
    ceiling.check();
    expect(heap.collections).toBe(2);
    // Once the live heap falls back, so does the limit: the ceiling itself again.
    heap.live = 10 * MB;
    heap.size = 280 * MB;
    ceiling.check();
    expect(heap.collections).toBe(3);
    heap.size = 101 * MB;
    ceiling.check();
    expect(heap.collections).toBe(4);
  });

  it('reaches V8\'s own collector, which frees what is no longer referenced', async () => {
    // Observed through a WeakRef, not the heap's size: a full collection always clears an object
    // nothing references (ECMA-262 WeakRef), however busy the machine. Heap figures are npm run bench's.
    let garbage: object | null = { payload: 'x'.repeat(1000) };
    const ref = new WeakRef(garbage);
    garbage = null;
    // A WeakRef keeps its target alive until the job that made it ends (ECMA-262 ClearKeptObjects).
    await new Promise((r) => setImmediate(r));
    // A ceiling of 1 MB (the test process's heap is always above it), checked on every call: the first check collects.
    new HeapCeiling(1, 1).check();
    expect(ref.deref()).toBeUndefined();
  });
});

describe('a collection before a step that needs memory of its own', () => {
  it('collects a heap past the ceiling, and leaves one under it alone', () => {
    const heap = fakeHeap(40 * MB);
    expect(collectAbove(32, heap)).toBe(true);
    expect(heap.collections).toBe(1);
    expect(collectAbove(32, heap)).toBe(false);
    heap.size = 32 * MB;
    expect(collectAbove(32, heap)).toBe(false);
    expect(heap.collections).toBe(1);
  });

  it('does nothing where V8 offers no collector', () => {
    expect(collectAbove(0, { used: () => 100 * MB, collect: null })).toBe(false);
  });
});
