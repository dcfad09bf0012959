import { describe, expect, it } from 'vitest';
import { RISK_WEIGHTS, RISK_WEIGHTS_TEXT, riskOf, riskReason, type RiskRow } from '../../src/report/risk.js';

const row = (rule: string, severity: RiskRow['severity'], zone: string | null, status: RiskRow['status'] = 'fail'): RiskRow => ({
  rule,
  severity,
  status,
  zoneId: zone,
  zoneName: zone && `${zone}.example`,
  accountName: zone && 'Acme',
});

describe('where the risk is', () => {
  // Issue 32: zones and fixes were ordered by count, so an expired certificate (critical) came 21st of 34.
  it('scores a zone by its failing rules, each once at its worst severity there, not by how many findings fail', () => {
    const risk = riskOf([
      row('certificate-expiry', 'critical', 'cert'),
      ...Array.from({ length: 40 }, () => row('dns-private-address', 'medium', 'records')),
      row('certificate-expiry', 'high', 'cert'),
    ]);
    expect(risk.zones.map((z) => [z.id, z.score, z.failing])).toEqual([
      ['cert', RISK_WEIGHTS.critical, 2],
      ['records', RISK_WEIGHTS.medium, 40],
    ]);
    expect(risk.zones[0]!.rules).toEqual([{ rule: 'certificate-expiry', severity: 'critical' }]);
    expect(risk.zones[0]!.bySeverity).toMatchObject({ critical: 1, high: 1 });
  });

  it('weighs critical 10, high 5, medium 2, low 1, info 0, and says so', () => {
    const risk = riskOf([row('a', 'critical', 'z'), row('b', 'high', 'z'), row('c', 'medium', 'z'), row('d', 'low', 'z'), row('e', 'info', 'z')]);
    expect(risk.zones[0]!.score).toBe(18);
    expect(RISK_WEIGHTS_TEXT).toBe('critical 10, high 5, medium 2, low 1, info 0');
  });

  it('counts waived and unknown findings in a zone but not in its score; a zone with only those scores 0', () => {
    const risk = riskOf([row('a', 'critical', 'w', 'waived'), row('b', 'high', 'w', 'unknown'), row('c', 'low', 'f')]);
    expect(risk.zones.map((z) => [z.id, z.score, z.failing, z.waived, z.unknown])).toEqual([
      ['f', 1, 1, 0, 0],
      ['w', 0, 0, 1, 1],
    ]);
  });

  it('breaks a tie in score by the worse failure, then by more failures, then by name', () => {
    const risk = riskOf([
      // 10 points each: one critical rule, or two high ones.
      row('a', 'high', 'two-high'),
      row('b', 'high', 'two-high'),
      row('c', 'critical', 'one-critical'),
      row('c', 'medium', 'b-zone'),
      row('d', 'medium', 'b-zone'),
      row('e', 'medium', 'b-zone'),
      row('f', 'medium', 'b-zone'),
      row('g', 'medium', 'b-zone'),
      // As two-high, with one failure more.
      row('a', 'high', 'three-high'),
      row('b', 'high', 'three-high'),
      row('b', 'high', 'three-high'),
      // As two-high, named later.
      row('a', 'high', 'x-two-high'),
      row('b', 'high', 'x-two-high'),
    ]);
    expect(risk.zones.map((z) => [z.id, z.score])).toEqual([
      ['one-critical', 10],
      ['three-high', 10],
      ['two-high', 10],
      ['x-two-high', 10],
      ['b-zone', 10],
    ]);
  });

  it('orders fixes by their most severe failure, then by the zones they reach, then by findings; rules with nothing failing last', () => {
    const risk = riskOf([
      ...Array.from({ length: 50 }, (_, i) => row('wide-high', 'high', `z${i}`)),
      row('narrow-critical', 'critical', 'z1'),
      row('narrow-critical', 'low', 'z2'),
      row('many-in-one', 'high', 'z1'),
      row('many-in-one', 'high', 'z1'),
      row('many-in-one', 'high', 'z1'),
      row('two-zones', 'high', 'z1'),
      row('two-zones', 'high', 'z2'),
      row('only-waived', 'critical', 'z1', 'waived'),
      row('account-level', 'high', null),
    ]);
    expect(risk.rules.map((r) => [r.rule, r.worst, r.zones, r.failing])).toEqual([
      ['narrow-critical', 'critical', 2, 2],
      ['wide-high', 'high', 50, 50],
      ['two-zones', 'high', 2, 2],
      ['many-in-one', 'high', 1, 3],
      ['account-level', 'high', 0, 1],
      ['only-waived', null, 0, 0],
    ]);
    expect(risk.outside).toMatchObject({ failing: 1, bySeverity: { high: 1 } });
  });

  it('gives the reason for a score as its worst rules and how many more', () => {
    const risk = riskOf([row('a', 'medium', 'z'), row('b', 'critical', 'z'), row('c', 'low', 'z'), row('d', 'low', 'z')]);
    expect(riskReason(risk.zones[0]!)).toBe('b (critical), a (medium) and 2 more rules');
    expect(riskReason(risk.zones[0]!, 3)).toBe('b (critical), a (medium), c (low) and 1 more rule');
    expect(riskReason(risk.zones[0]!, 4)).toBe('b (critical), a (medium), c (low), d (low)');
  });
});
