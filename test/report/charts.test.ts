import { afterEach, describe, expect, it } from 'vitest';
import { CHART, failureTrend } from '../../src/report/charts.js';
import type { Db } from '../../src/snapshot/db.js';
import { FULL_SCOPE } from '../../src/snapshot/scope.js';
import { auditedHistory } from '../support/audited-history.js';

const scans = (...failing: number[]) => failing.map((n) => ({ status: 'complete' as const, failing: Array.from({ length: n }, (_, i) => `f${i}`) }));

describe('the failure trend', () => {
  let db: Db | undefined;
  afterEach(() => db?.close());

  // Issue 24: after the first scan the chart was one dot in empty space.
  it('is not drawn from one scan: the page says when it will appear', () => {
    db = auditedHistory(scans(5));
    const trend = failureTrend(db, 1, FULL_SCOPE);
    expect(trend.shown).toBe(false);
    expect(trend.points.map((p) => p.failing)).toEqual([5]);
  });

  it('plots every audited scan up to the one reported, oldest first, on an axis from 0 to the most failures', () => {
    db = auditedHistory(scans(4, 8, 2, 6));
    const trend = failureTrend(db, 3, FULL_SCOPE);
    expect(trend.shown).toBe(true);
    expect(trend.points.map((p) => [p.scanId, p.failing])).toEqual([
      [1, 4],
      [2, 8],
      [3, 2],
    ]);
    expect(trend.axis.max).toBe(8);
    // The peak touches the top of the plot (less the room for its label), a zero would sit on the baseline.
    const [first, peak] = trend.points;
    expect(peak!.y).toBeLessThan(first!.y);
    expect(trend.points.every((p) => p.y <= trend.axis.y0 && p.y >= trend.axis.yTop && p.x > trend.axis.x0 && p.x < CHART.width)).toBe(true);
    expect(trend.points.every((p) => p.labelled)).toBe(true);
    expect([trend.first, trend.last]).toEqual(['2026-11-01T02:00:00.000Z', '2026-11-03T02:00:00.000Z']);
  });

  it('labels the ends and the peak of a long trend, not every point', () => {
    db = auditedHistory(scans(...Array.from({ length: 30 }, (_, i) => (i === 10 ? 50 : 10 + (i % 3)))));
    const labelled = failureTrend(db, 30, FULL_SCOPE).points.filter((p) => p.labelled).map((p) => p.scanId);
    expect(labelled).toEqual([1, 11, 30]);
  });
});
