import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/policy/findings.js';
import { safeId, zoneAnchor } from '../../src/report/finding-groups.js';
import { allowances, collecting, GroupRows, NO_ZONE } from '../../src/report/group-rows.js';

function finding(i: number, rule: string, zone: string | null): Finding {
  return {
    rule,
    category: 'dns',
    severity: 'high',
    status: 'fail',
    account: { id: 'a', name: 'Acme' },
    zone: zone === null ? null : { id: zone, name: `${zone}.example` },
    resource: { type: 'dns_record', id: `r${i}`, name: `host-${i}` },
    message: `message ${i}`,
    messageId: 'm',
    data: {},
    fingerprint: `f${i}`,
  };
}

describe('the rows the HTML report writes into its groups', () => {
  it('gives each group its first rows, in the order of the view, until the view\'s budget is spent', () => {
    const allowed = allowances(
      [
        { key: 'a', size: 30 },
        { key: 'b', size: 5 },
        { key: 'c', size: 30 },
        { key: 'd', size: 30 },
      ],
      20,
      50,
    );
    expect([...allowed]).toEqual([
      ['a', 20],
      ['b', 5],
      ['c', 20],
      ['d', 5],
    ]);
  });

  it('collects them on the way through the findings, worst first as listed, without holding back the stream', () => {
    const findings = [finding(1, 'r1', 'z1'), finding(2, 'r1', 'z2'), finding(3, 'r2', 'z1'), finding(4, 'r2', null), finding(5, 'r1', 'z1')];
    const rows = new GroupRows({ rules: new Map([['r1', 2], ['r2', 5]]), zones: new Map([['z1', 1], [NO_ZONE, 1]]) }, (f) => (f.fingerprint === 'f1' ? '2026-11-20T02:00:00.000Z' : ''));
    expect([...collecting(findings, rows)]).toEqual(findings);
    expect(rows.byRule.get('r1')!.map((r) => r.resource)).toEqual(['dns_record host-1', 'dns_record host-2'].map((t) => t.replace('dns_record', 'DNS record')));
    expect(rows.byRule.get('r2')!.map((r) => r.zoneId)).toEqual(['z1', NO_ZONE]);
    expect(rows.byZone.get('z1')!.map((r) => [r.rule, r.since])).toEqual([['r1', '2026-11-20']]);
    expect(rows.byZone.get(NO_ZONE)!.map((r) => r.zone)).toEqual(['']);
    expect(rows.byZone.has('z2')).toBe(false);
  });
});

describe('the anchors of groups', () => {
  // A zone id is API data: it may hold anything, and two ids must never share an anchor.
  it('are valid ids for any key, and distinct for distinct keys', () => {
    const keys = ['abc123', 'a b', 'a_b', 'a_20_b', '"><script>', 'zid-&#=x"\'%20', 'pay\u200bpal', '\u{1f600}', ''];
    const ids = keys.map(safeId);
    expect(new Set(ids).size).toBe(keys.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]*$/);
    expect(safeId('7fc30174f1b20a0ef351dd8c0768d56d')).toBe('7fc30174f1b20a0ef351dd8c0768d56d');
    expect(zoneAnchor(NO_ZONE)).toBe('no-zone');
    expect(zoneAnchor('no')).toBe('zone-no');
  });
});
