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

export class HeapCeiling {
  private calls = 0;

  /** `ceilingMb`: collect when the heap in use passes it; checked every `every` calls (the check costs a little). */
  constructor(
    private readonly ceilingMb: number,
    private readonly every = 50,
  ) {}

  check(): void {
    if (++this.calls % this.every !== 0) return;
    if (v8.getHeapStatistics().used_heap_size > this.ceilingMb * 2 ** 20) collector()?.();
  }
}
