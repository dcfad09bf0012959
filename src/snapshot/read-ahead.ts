/**
 * Reads a zone table for a run of zones in one query: at 10,000 zones, a dozen queries a zone cost
 * more than their rows. Told the audit's order, it loads a list for the zone asked about and those
 * after it, under a row budget (huge zones are still read one at a time).
 */

/** Zones in one query at most: an IN list of this many ids stays small. */
const MAX_ZONES = 500;
/** Rows in one query at most (by the scan's count of each zone's list), unless one zone alone has more. */
const MAX_ROWS = 20_000;

export interface AheadOptions {
  /** The rows the zone's list is expected to hold; undefined when not known yet (the run stops before it). */
  weight?: (zoneId: string) => number | undefined;
  /** Keep the rows after serving them (small lists asked for several times a zone). */
  keep?: boolean;
}

export class ZoneReadAhead {
  private readonly position: Map<string, number>;
  /** Per list: the rows of each zone loaded and not yet served. */
  private readonly loaded = new Map<string, Map<string, unknown[]>>();

  constructor(private readonly zoneIds: readonly string[]) {
    this.position = new Map(zoneIds.map((id, i) => [id, i]));
  }

  covers(zoneId: string): boolean {
    return this.position.has(zoneId);
  }

  /** Whether the rows of `key` for the zone are loaded (without loading them). */
  peek<T>(key: string, zoneId: string): T[] | undefined {
    return this.loaded.get(key)?.get(zoneId) as T[] | undefined;
  }

  /**
   * The rows of list `key` for the zone; `load` gets a run of zone ids starting with it and returns
   * each one's rows (none if left out). Undefined for a zone outside the order: the caller reads it alone.
   */
  rows<T>(key: string, zoneId: string, load: (zoneIds: string[]) => Map<string, T[]>, options: AheadOptions = {}): T[] | undefined {
    const start = this.position.get(zoneId);
    if (start === undefined) return undefined;
    let kept = this.loaded.get(key);
    if (!kept?.has(zoneId)) {
      const run = this.run(start, options, kept);
      const rows = load(run);
      // Zones already loaded may come before the end of the last run: its zones still ahead stay,
      // those behind go.
      const ahead = [...(kept ?? [])].filter(([id]) => this.position.get(id)! > start);
      kept = new Map([...ahead, ...run.map((id): [string, unknown[]] => [id, rows.get(id) ?? []])]);
      this.loaded.set(key, kept);
    }
    const rows = kept.get(zoneId) as T[];
    // Served once: the zone's view keeps its own copy, and memory holds only zones still ahead.
    if (!options.keep) kept.delete(zoneId);
    return rows;
  }

  private run(start: number, { weight }: AheadOptions, kept: ReadonlyMap<string, unknown> | undefined): string[] {
    const run: string[] = [];
    let rows = 0;
    for (let i = start; i < this.zoneIds.length && run.length < MAX_ZONES; i++) {
      const id = this.zoneIds[i]!;
      if (run.length > 0 && kept?.has(id)) continue;
      const w = weight ? weight(id) : 1;
      if (run.length > 0 && (w === undefined || rows + w > MAX_ROWS)) break;
      run.push(id);
      rows += w ?? 0;
    }
    return run;
  }
}

/** Groups rows by their zone (or another key), keeping their order. */
export function byZone<R, T>(rows: Iterable<R>, zoneOf: (row: R) => string, map: (row: R) => T): Map<string, T[]> {
  const grouped = new Map<string, T[]>();
  for (const r of rows) {
    const zone = zoneOf(r);
    let list = grouped.get(zone);
    if (!list) grouped.set(zone, (list = []));
    list.push(map(r));
  }
  return grouped;
}
