import { describe, expect, it } from 'vitest';
import type { FindingSink } from '../../src/policy/engine.js';
import type { Finding } from '../../src/policy/findings.js';
import { HoldingSink } from '../../src/policy/held-zone.js';

/**
 * The sink that holds the verdicts of the rules run on a zone judged in part until the audit knows
 * whether they changed anything (src/policy/held-zone.ts). The audit-level behaviour (such a zone
 * is kept, and the audit still equals a full one) is tested in verdict-reuse.test.ts.
 */

const finding = (id: string): Finding => ({
  rule: 'r',
  category: 'dns',
  severity: 'low',
  status: 'fail',
  account: null,
  zone: { id: 'z1', name: 'example.com' },
  resource: { type: 'dns_record', id, name: null },
  message: 'm',
  messageId: null,
  data: {},
  fingerprint: id,
});

/** A sink that writes down every call, as the audit's sink would receive them. */
function recording(): { sink: FindingSink; calls: string[] } {
  const calls: string[] = [];
  return { calls, sink: { add: (f) => calls.push(`add ${f.resource.id}`), commit: () => calls.push('commit'), rollback: () => calls.push('rollback') } };
}

describe('a held zone', () => {
  it('holds each unit that stands until taken, forgets one that is rolled back, and tells the sink nothing', () => {
    const { sink, calls } = recording();
    const hold = new HoldingSink(sink, () => calls.push('let go'));
    hold.add(finding('a'));
    hold.add(finding('b'));
    hold.commit();
    expect(hold.take().map((f) => f.resource.id)).toEqual(['a', 'b']);
    expect(hold.take()).toEqual([]);
    hold.add(finding('c'));
    hold.rollback();
    hold.commit();
    expect(hold.take()).toEqual([]);
    expect(calls).toEqual([]);
    expect(hold.letGo).toBe(false);
  });

  it('lets go past its limit: the units held so far first, then the unit under way, then every call', () => {
    const { sink, calls } = recording();
    const hold = new HoldingSink(sink, () => calls.push('held units given'), 3);
    hold.add(finding('a'));
    hold.commit();
    hold.take();
    hold.add(finding('b'));
    hold.add(finding('c'));
    expect(calls).toEqual([]);
    // The fourth finding held passes the limit of three.
    hold.add(finding('d'));
    expect(hold.letGo).toBe(true);
    expect(calls).toEqual(['held units given', 'add b', 'add c', 'add d']);
    hold.add(finding('e'));
    hold.commit();
    hold.add(finding('f'));
    hold.rollback();
    expect(calls.slice(4)).toEqual(['add e', 'commit', 'add f', 'rollback']);
    // Letting go again does nothing.
    hold.release();
    expect(calls.filter((c) => c === 'held units given')).toHaveLength(1);
  });

  it('counts only what stands toward its limit: a unit rolled back gives its room back', () => {
    const { sink, calls } = recording();
    const hold = new HoldingSink(sink, () => calls.push('let go'), 2);
    hold.add(finding('a'));
    hold.add(finding('b'));
    hold.rollback();
    hold.add(finding('c'));
    hold.add(finding('d'));
    hold.commit();
    expect(hold.letGo).toBe(false);
    expect(hold.take().map((f) => f.resource.id)).toEqual(['c', 'd']);
  });

  it('lets go when told to, with nothing under way', () => {
    const { sink, calls } = recording();
    const hold = new HoldingSink(sink, () => calls.push('held units given'));
    hold.release();
    hold.add(finding('a'));
    hold.commit();
    expect(calls).toEqual(['held units given', 'add a', 'commit']);
  });
});
