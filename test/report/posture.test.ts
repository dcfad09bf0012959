import { describe, expect, it } from 'vitest';
import { SPARK, sparkline } from '../../src/report/charts.js';
import { passRate, posture, signed, type PostureCounts } from '../../src/report/posture.js';

const counts = (pass: number, bySeverity: PostureCounts['failBySeverity']): PostureCounts => ({
  byStatus: { pass, fail: Object.values(bySeverity).reduce((a, b) => a + (b ?? 0), 0) },
  failBySeverity: bySeverity,
});
const earlier = (c: PostureCounts) => ({ scanId: 7, startedAt: '2026-11-24T02:00:00.000Z', counts: c });

describe('posture: how are we, and is it getting better or worse', () => {
  it('has no verdict for the first audited scan', () => {
    const p = posture(counts(90, { high: 10 }), null);
    expect(p).toMatchObject({ passRate: 90, failing: 10, previous: null, verdict: 'first', passRateDelta: null, failingDelta: null, moved: '' });
    expect(p.bySeverity.find((s) => s.severity === 'high')).toEqual({ severity: 'high', count: 10, delta: null });
  });

  // Weighed by severity: more findings can still be better, when a worse one went.
  it('is better when the failures weigh less by severity, though more of them fail', () => {
    const p = posture(counts(95, { low: 3, medium: 1 }), earlier(counts(95, { critical: 1, medium: 1 })));
    expect(p.verdict).toBe('better');
    expect(p.moved).toBe('critical −1, low +3');
    expect(p.failingDelta).toBe(2);
    expect(p.previous).toEqual({ scanId: 7, startedAt: '2026-11-24T02:00:00.000Z', passRate: 97.9, failing: 2 });
  });

  it('is worse when a more severe failure appears, and the same when only info findings moved', () => {
    expect(posture(counts(90, { high: 1, low: 4 }), earlier(counts(90, { low: 5 }))).verdict).toBe('worse');
    const same = posture(counts(90, { info: 4, low: 1 }), earlier(counts(90, { low: 1 })));
    expect([same.verdict, same.moved]).toEqual(['unchanged', 'info +4']);
    expect(posture(counts(90, { low: 1 }), earlier(counts(90, { low: 1 })))).toMatchObject({ verdict: 'unchanged', moved: '', failingDelta: 0, passRateDelta: 0 });
  });

  it('states pass rates to a tenth of a percent, rounded down, and their change in points', () => {
    expect(passRate({ pass: 2, fail: 1 })).toBe(66.6);
    expect(passRate({ pass: 0, fail: 0 })).toBeNull();
    expect(posture(counts(2, { low: 1 }), earlier(counts(1, { low: 1 }))).passRateDelta).toBe(16.6);
    expect([signed(3), signed(-2), signed(0), signed(1234)]).toEqual(['+3', '−2', '±0', '+1,234']);
  });
});

describe('the first screen sparkline', () => {
  it('spans the box, highest at the top, and marks the last point', () => {
    const s = sparkline([5, 9, 2]);
    const points = s.polyline.split(' ').map((p) => p.split(',').map(Number) as [number, number]);
    expect(points.map(([x]) => x)).toEqual([SPARK.pad, SPARK.width / 2, SPARK.width - SPARK.pad]);
    expect(points[1]![1]).toBe(SPARK.pad);
    expect(points[2]![1]).toBe(SPARK.height - SPARK.pad);
    expect(s.last).toEqual({ x: points[2]![0], y: points[2]![1] });
    expect([s.min, s.max, s.shown]).toEqual([2, 9, true]);
  });

  it('draws an unchanged count level at mid-height, and is not shown for one scan', () => {
    expect(new Set(sparkline([4, 4, 4]).polyline.split(' ').map((p) => p.split(',')[1]))).toEqual(new Set([String(SPARK.height / 2)]));
    expect(sparkline([4]).shown).toBe(false);
  });
});
