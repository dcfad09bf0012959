import { scanRef } from './scan-ref.js';
import type { Partition } from './tables.js';
import type { CoverageRow } from './coverage-row.js';
import type { ScanView } from './scan-view.js';

/** Where a partition's data lies: this scan's own versions, or those of the scan it was carried from (coverage readIn). */
export function dataRef(view: ScanView, c: CoverageRow | undefined): number {
  return scanRef(c?.readIn ?? view.scan.id);
}

/** The zones of a run grouped by where their partitions' data lies (dataRef); a zone read over several scans is in each group. */
export function byDataRef(view: ScanView, zoneIds: string[], partitions: readonly Partition[]): Map<number, string[]> {
  const groups = new Map<number, string[]>();
  for (const zoneId of zoneIds) {
    const coverage = view.ahead?.peek<CoverageRow>('coverage', zoneId) ?? [];
    const refs = new Set<number>();
    for (const partition of partitions) refs.add(dataRef(view, coverage.find((c) => c.endpoint === partition)));
    for (const ref of refs) {
      let ids = groups.get(ref);
      if (!ids) groups.set(ref, (ids = []));
      ids.push(zoneId);
    }
  }
  return groups;
}

/** Runs `load` for each group of byDataRef and merges what each zone got. */
export function loadByDataRef<T>(view: ScanView, zoneIds: string[], partitions: readonly Partition[], load: (ids: string[], ref: number) => Map<string, T[]>): Map<string, T[]> {
  const groups = byDataRef(view, zoneIds, partitions);
  const only = groups.size === 1 ? [...groups][0] : undefined;
  if (only) return load(only[1], only[0]);
  const merged = new Map<string, T[]>();
  for (const [ref, ids] of groups) {
    for (const [zoneId, rows] of load(ids, ref)) {
      const earlier = merged.get(zoneId);
      if (earlier) for (const r of rows) earlier.push(r);
      else merged.set(zoneId, rows);
    }
  }
  return merged;
}
