import { decodeTally, emptyTally, encodeTally, type ZoneTally } from './verdict-reuse.js';

/**
 * The tallies of an audit's zones (verdict-reuse.ts), one per zone with verdicts to keep. The
 * zone being judged holds its tally as an object; a zone the audit has moved on from keeps it
 * packed as text, the counts as they are stored with what the verdicts hold on beside them. An
 * audit of every zone judges them one after another, and 10,000 tallies as objects (a row of four
 * numbers for each of some fifty rules) held about 40 MB live until the audit was stored: every
 * collection the heap ceiling forced marked them again.
 */
export class TallyBook {
  private zoneId: string | null = null;
  private current: ZoneTally = emptyTally();
  private readonly packed = new Map<string, string>();

  /** `order`: the rules tallied, in the order encodeTally writes them (no other rule is tallied). */
  constructor(private readonly order: readonly string[]) {}

  /** The zone's tally, to add to: the one in hand, one unpacked, or a new one. */
  of(zoneId: string): ZoneTally {
    if (zoneId === this.zoneId) return this.current;
    this.pack();
    const text = this.packed.get(zoneId);
    this.zoneId = zoneId;
    this.current = text === undefined ? emptyTally() : unpackTally(text, this.order);
    return this.current;
  }

  /** The zone's tally to read (empty when the zone has none). */
  read(zoneId: string): ZoneTally {
    if (zoneId === this.zoneId) return this.current;
    const text = this.packed.get(zoneId);
    return text === undefined ? emptyTally() : unpackTally(text, this.order);
  }

  private pack(): void {
    if (this.zoneId !== null) this.packed.set(this.zoneId, packTally(this.current, this.order));
    this.zoneId = null;
  }
}

/** A tally whole as text: its counts as stored (encodeTally), and beside them, when any, what its verdicts hold on. */
export function packTally(t: ZoneTally, order: readonly string[]): string {
  const counts = encodeTally(t, order);
  const { e, h, z, n } = t;
  if (e === undefined && h === undefined && z === undefined && n === undefined) return counts;
  return JSON.stringify([counts, { e, h, z, n }]);
}

export function unpackTally(text: string, order: readonly string[]): ZoneTally {
  if (!text.startsWith('[')) return decodeTally(text, order);
  const [counts, holds] = JSON.parse(text) as [string, Pick<ZoneTally, 'e' | 'h' | 'z' | 'n'>];
  const t = decodeTally(counts, order);
  if (holds.e !== undefined) t.e = holds.e;
  if (holds.h !== undefined) t.h = holds.h;
  if (holds.z !== undefined) t.z = holds.z;
  if (holds.n !== undefined) t.n = holds.n;
  return t;
}
