import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * A soft ceiling on the JS heap for long loops that make a lot of short-lived garbage (the audit
 * parses every DNS record of every zone once). V8 lets garbage pile up to well beyond what is
 * live before it collects, so a 10,000-zone audit peaked past 300 MB of which the live heap was a
 * few megabytes. A hard cap (--max-old-space-size) would crash a bigger organisation instead;
 * this collects when the heap passes the ceiling and otherwise never interferes.
 */
let collect: (() => void) | null | undefined;

function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    // The documented way to reach V8's collector without a command-line flag.
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
  } catch {
    collect = null;
  }
  return collect;
}

/** Where the ceiling reads the heap and collects: V8's own, or a unit test's stand-ins. */
export interface HeapAccess {
  used(): number;
  collect: (() => void) | null;
}

const v8Heap = (): HeapAccess => ({ used: () => v8.getHeapStatistics().used_heap_size, collect: collector() });

export class HeapCeiling {
  private calls = 0;
  private limit: number;
  private heap: HeapAccess | null;

  /** `ceilingMb`: collect when the heap in use passes it; checked every `every` calls (the check costs a little). */
  constructor(
    private readonly ceilingMb: number,
    private readonly every = 50,
    heap?: HeapAccess,
  ) {
    this.limit = ceilingMb * 2 ** 20;
    this.heap = heap ?? null;
  }

  check(): void {
    if (++this.calls % this.every !== 0) return;
    const heap = (this.heap ??= v8Heap());
    if (heap.used() <= this.limit) return;
    const collect = heap.collect;
    if (!collect) return;
    collect();
    // What survives a full collection is live (one zone of 400,000 records holds 150 MB): the next
    // collection waits until garbage of a quarter of the ceiling piles up over it, rather than
    // spinning on every check; once the live heap falls back, so does the limit. (Half the ceiling
    // let the audit of a 438,000-record zone peak at 295 MiB, a quarter at 285 MiB, as fast.)
    const live = heap.used();
    this.limit = Math.max(this.ceilingMb * 2 ** 20, live + (this.ceilingMb / 4) * 2 ** 20);
  }
}

/**
 * Collects now when the heap in use passes `ceilingMb`, before a step that needs memory of its own
 * outside the JS heap: V8 gives the pages a full collection empties back to the system, so the
 * step's memory takes their place rather than adding to them. An audit of 2,000 zones ends its
 * rules with tens of megabytes of garbage (every zone's records, parsed), and its findings are then
 * written with a 32 MB page cache: its peak RSS went from 216 to 185 MiB. Whether it collected.
 */
export function collectAbove(ceilingMb: number, heap: HeapAccess = v8Heap()): boolean {
  if (!heap.collect || heap.used() <= ceilingMb * 2 ** 20) return false;
  heap.collect();
  return true;
}

