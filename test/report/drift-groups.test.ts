import { describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../src/drift/result.js';
import { driftGroups, GROUP_ITEMS, OPEN_GROUP } from '../../src/report/drift-groups.js';

const zone = (n: number) => ({ id: `z${n}`, name: `zone-${n}.example` });
const record = (z: number, i: number, change: ResourceChange['change'] = 'changed'): ResourceChange => ({
  change,
  type: 'dns_record',
  id: `r${z}-${i}`,
  name: `host-${i}.zone-${z}.example`,
  zone: zone(z),
  fields: change === 'changed' ? [{ field: 'content', before: '192.0.2.1', after: '192.0.2.2' }] : undefined,
});

describe('configuration drift grouped for the HTML report', () => {
  it('groups by zone and resource type, most changed first, with counts by kind of change', () => {
    const changes = [
      record(1, 1),
      ...Array.from({ length: 120 }, (_, i) => record(2, i, i % 3 === 0 ? 'added' : i % 3 === 1 ? 'removed' : 'changed')),
      { change: 'added', type: 'firewall_rule', id: 'f1', name: null, zone: zone(1) } as ResourceChange,
    ];
    const groups = driftGroups(changes);
    expect(groups.map((g) => [g.zone, g.type, g.total])).toEqual([
      ['zone-2.example', 'DNS record', 120],
      ['zone-1.example', 'DNS record', 1],
      ['zone-1.example', 'firewall rule', 1],
    ]);
    expect(groups[0]!.counts).toEqual({ added: 40, removed: 40, changed: 40 });
    // A large group is collapsed and lists the first GROUP_ITEMS, counting the rest.
    expect(groups[0]!.open).toBe(false);
    expect(groups[0]!.items).toHaveLength(GROUP_ITEMS);
    expect(groups[0]!.more).toBe(120 - GROUP_ITEMS);
    expect(groups[1]!.open).toBe(true);
    expect(groups[1]!.items[0]).toEqual({ change: 'changed', what: 'host-1.zone-1.example', fields: [{ field: 'content', before: '"192.0.2.1"', after: '"192.0.2.2"' }] });
    // A resource without a name is named by its id.
    expect(groups[2]!.items[0]!.what).toBe('f1');
  });

  it('opens a group of up to OPEN_GROUP changes and collapses a larger one', () => {
    const at = (n: number) => driftGroups(Array.from({ length: n }, (_, i) => record(1, i)))[0]!.open;
    expect(at(OPEN_GROUP)).toBe(true);
    expect(at(OPEN_GROUP + 1)).toBe(false);
  });

  it('groups account-level changes (no zone) apart from every zone', () => {
    const groups = driftGroups([{ change: 'added', type: 'member', id: 'm1', name: 'Ann', zone: null }, record(1, 1)]);
    expect(groups.map((g) => g.zone).sort()).toEqual(['', 'zone-1.example']);
  });
});
