import { describe, expect, it } from 'vitest';
import { zonesOnTheirTurn } from '../../../src/crawler/incremental/read-plan.js';

/**
 * Whose turn it is to be read in full, night after night (issue 30 item 2: every zone read in full
 * at least every --full-every nights, spread evenly over the nights). Each night the zones due are
 * read, and their time of full read moves to that night, as the scan records it.
 */
const DAY = 86_400_000;

function nights(zoneCount: number, fullEvery: number, count: number, start = Date.UTC(2026, 10, 1, 2)): { perNight: number[]; reads: Map<string, number[]> } {
  const ids = Array.from({ length: zoneCount }, (_, i) => `zone-${i}`);
  // The first full scan read every zone, the night before the first.
  const fullReads = new Map(ids.map((id) => [id, new Date(start - DAY).toISOString()]));
  const reads = new Map(ids.map((id) => [id, [-1]]));
  const perNight: number[] = [];
  for (let n = 0; n < count; n++) {
    const now = new Date(start + n * DAY);
    const due = zonesOnTheirTurn(ids, fullReads, fullEvery, now);
    perNight.push(due.size);
    for (const id of due) {
      fullReads.set(id, now.toISOString());
      reads.get(id)!.push(n);
    }
  }
  return { perNight, reads };
}

/** The longest run of nights between two full reads of a zone. */
const longestGap = (nightsRead: number[]) => Math.max(...nightsRead.slice(1).map((n, i) => n - nightsRead[i]!));

describe('full reads on their turn', () => {
  it.each([
    [1, 7],
    [3, 7],
    [15, 7],
    [60, 7],
    [1000, 7],
    [10, 3],
  ])('read each of %i zones once every %i nights, the nights sharing them evenly', (zones, fullEvery) => {
    const { perNight, reads } = nights(zones, fullEvery, fullEvery * 6);
    // Every zone within --full-every nights, and not more often.
    for (const [id, at] of reads) {
      expect(longestGap(at), id).toBeLessThanOrEqual(fullEvery);
      expect(at.length - 1, id).toBe(6);
    }
    // Between floor and ceil of the share, every night.
    for (const n of perNight) {
      expect(n).toBeGreaterThanOrEqual(Math.floor(zones / fullEvery));
      expect(n).toBeLessThanOrEqual(Math.ceil(zones / fullEvery));
    }
  });

  it('reads a zone never read in full tonight', () => {
    const now = new Date(Date.UTC(2026, 10, 5, 2));
    const due = zonesOnTheirTurn(['old', 'new'], new Map([['old', new Date(now.getTime() - DAY).toISOString()]]), 7, now);
    expect(due.has('new')).toBe(true);
  });
});
