import { describe, expect, it } from 'vitest';
import { fieldDiff, sameJson } from '../../src/drift/fields.js';
import { ignoreList } from '../../src/drift/ignore.js';

const NONE = ignoreList([]);

describe('sameJson', () => {
  it('compares values structurally, with key order not mattering', () => {
    expect(sameJson({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(sameJson(null, null)).toBe(true);
  });

  it('tells different values apart', () => {
    expect(sameJson({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson([1], [1, 1])).toBe(false);
    expect(sameJson({}, [])).toBe(false);
    expect(sameJson([], {})).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson('1', 1)).toBe(false);
  });
});

describe('fieldDiff', () => {
  it('finds nothing between identical inputs', () => {
    const value = { name: 'a', meta: { x: [1, 2] }, rules: [{ id: 'r1', action: 'block' }], list: [{ a: 1 }] };
    expect(fieldDiff('zone', value, structuredClone(value), NONE)).toEqual({ changes: [], ignored: 0 });
  });

  it('names a changed nested field with a dotted path', () => {
    const diff = fieldDiff('zone', { a: { b: 1, c: 'same' } }, { a: { b: 2, c: 'same' } }, NONE);
    expect(diff).toEqual({ changes: [{ field: 'a.b', before: 1, after: 2 }], ignored: 0 });
  });

  it('reports an added field without a before', () => {
    const diff = fieldDiff('zone', { a: { x: 1 } }, { a: { x: 1, b: 'new' } }, NONE);
    expect(diff.changes).toHaveLength(1);
    const change = diff.changes[0]!;
    expect(change).toEqual({ field: 'a.b', after: 'new' });
    expect('before' in change).toBe(false);
  });

  it('reports a removed field without an after', () => {
    const diff = fieldDiff('zone', { a: { x: 1, b: 'old' } }, { a: { x: 1 } }, NONE);
    expect(diff.changes).toHaveLength(1);
    const change = diff.changes[0]!;
    expect(change).toEqual({ field: 'a.b', before: 'old' });
    expect('after' in change).toBe(false);
  });

  it('keeps a null value as a before or after, distinct from an absent field', () => {
    const diff = fieldDiff('zone', { a: null }, { a: 'set' }, NONE);
    expect(diff.changes).toEqual([{ field: 'a', before: null, after: 'set' }]);
    expect('before' in diff.changes[0]!).toBe(true);
  });

  it('reports a field whose type changed as a whole', () => {
    expect(fieldDiff('zone', { a: { b: 1 } }, { a: [1] }, NONE).changes).toEqual([{ field: 'a', before: { b: 1 }, after: [1] }]);
  });

  describe('arrays of objects with ids', () => {
    const certs = [
      { id: 'abc', expires_on: '2026-01-01', hosts: ['a.example.com'] },
      { id: 'def', expires_on: '2027-01-01', hosts: ['b.example.com'] },
    ];

    it('matches elements by id, so a reordered list is not a change', () => {
      expect(fieldDiff('certificate_pack', { certificates: certs }, { certificates: [...certs].reverse() }, NONE)).toEqual({ changes: [], ignored: 0 });
    });

    it('names a changed element by its id, whatever its position', () => {
      const after = [{ ...certs[1]! }, { ...certs[0]!, expires_on: '2026-06-01' }];
      expect(fieldDiff('certificate_pack', { certificates: certs }, { certificates: after }, NONE).changes).toEqual([
        { field: 'certificates[abc].expires_on', before: '2026-01-01', after: '2026-06-01' },
      ]);
    });

    it('reports an added element by its id, without a before', () => {
      const added = { id: 'ghi', expires_on: '2028-01-01', hosts: [] };
      const diff = fieldDiff('certificate_pack', { certificates: certs }, { certificates: [added, ...certs] }, NONE);
      expect(diff.changes).toEqual([{ field: 'certificates[ghi]', after: added }]);
      expect('before' in diff.changes[0]!).toBe(false);
    });

    it('reports a removed element by its id, without an after', () => {
      const diff = fieldDiff('certificate_pack', { certificates: certs }, { certificates: [certs[1]] }, NONE);
      expect(diff.changes).toEqual([{ field: 'certificates[abc]', before: certs[0] }]);
      expect('after' in diff.changes[0]!).toBe(false);
    });

    it('matches numeric ids too', () => {
      const before = { rules: [{ id: 1, a: 'x' }, { id: 2, a: 'y' }] };
      const after = { rules: [{ id: 2, a: 'y' }, { id: 1, a: 'z' }] };
      expect(fieldDiff('waf_rule', before, after, NONE).changes).toEqual([{ field: 'rules[1].a', before: 'x', after: 'z' }]);
    });
  });

  describe('arrays of plain values', () => {
    it('compares them as sets, so a reordered list is not a change', () => {
      expect(fieldDiff('certificate', { hosts: ['a', 'b', 'c'] }, { hosts: ['c', 'a', 'b'] }, NONE)).toEqual({ changes: [], ignored: 0 });
    });

    it('reports a different set as the whole array before and after', () => {
      const diff = fieldDiff('certificate', { hosts: ['a', 'b'] }, { hosts: ['b', 'c'] }, NONE);
      expect(diff.changes).toEqual([{ field: 'hosts', before: ['a', 'b'], after: ['b', 'c'] }]);
    });

    it('counts repeated values', () => {
      expect(fieldDiff('zone', { tags: ['a', 'a', 'b'] }, { tags: ['a', 'b', 'b'] }, NONE).changes).toEqual([
        { field: 'tags', before: ['a', 'a', 'b'], after: ['a', 'b', 'b'] },
      ]);
    });

    it('tells a value apart from its string form', () => {
      expect(fieldDiff('zone', { ports: [80, 443] }, { ports: ['80', '443'] }, NONE).changes).toEqual([{ field: 'ports', before: [80, 443], after: ['80', '443'] }]);
    });

    it('reports an array that became empty', () => {
      expect(fieldDiff('zone', { name_servers: ['ns1'] }, { name_servers: [] }, NONE).changes).toEqual([{ field: 'name_servers', before: ['ns1'], after: [] }]);
    });
  });

  describe('arrays of objects without ids', () => {
    it('compares them by position when the lengths are the same', () => {
      const before = { origins: [{ address: '10.0.0.1', weight: 1 }, { address: '10.0.0.2', weight: 1 }] };
      const after = { origins: [{ address: '10.0.0.1', weight: 1 }, { address: '10.0.0.2', weight: 2 }] };
      expect(fieldDiff('zone', before, after, NONE).changes).toEqual([{ field: 'origins[1].weight', before: 1, after: 2 }]);
    });

    it('reports the whole array when the lengths differ', () => {
      const before = { origins: [{ address: '10.0.0.1' }] };
      const after = { origins: [{ address: '10.0.0.1' }, { address: '10.0.0.2' }] };
      expect(fieldDiff('zone', before, after, NONE).changes).toEqual([{ field: 'origins', before: before.origins, after: after.origins }]);
    });

    it('falls back to positions when ids repeat', () => {
      const before = { rules: [{ id: 'x', a: 1 }, { id: 'x', a: 2 }] };
      const after = { rules: [{ id: 'x', a: 1 }, { id: 'x', a: 3 }] };
      expect(fieldDiff('zone', before, after, NONE).changes).toEqual([{ field: 'rules[1].a', before: 2, after: 3 }]);
    });
  });

  describe('ignored fields', () => {
    it('counts an ignored difference instead of reporting it', () => {
      const diff = fieldDiff('zone', { modified_on: '1', name: 'a' }, { modified_on: '2', name: 'b' }, ignoreList(['zone.modified_on']));
      expect(diff).toEqual({ changes: [{ field: 'name', before: 'a', after: 'b' }], ignored: 1 });
    });

    it('does not count an ignored field that did not change', () => {
      expect(fieldDiff('zone', { modified_on: '1', name: 'a' }, { modified_on: '1', name: 'b' }, ignoreList(['zone.modified_on'])).ignored).toBe(0);
    });

    it('counts an ignored field that was added or removed', () => {
      expect(fieldDiff('zone', { name: 'a' }, { name: 'a', modified_on: '2' }, ignoreList(['zone.modified_on']))).toEqual({ changes: [], ignored: 1 });
      expect(fieldDiff('zone', { name: 'a', modified_on: '2' }, { name: 'a' }, ignoreList(['zone.modified_on']))).toEqual({ changes: [], ignored: 1 });
    });

    it('applies a pattern only to the resource type it names', () => {
      const ignore = ignoreList(['zone.modified_on']);
      expect(fieldDiff('dns_record', { modified_on: '1' }, { modified_on: '2' }, ignore)).toEqual({
        changes: [{ field: 'modified_on', before: '1', after: '2' }],
        ignored: 0,
      });
    });

    it('takes * as any resource type', () => {
      const ignore = ignoreList(['*.modified_on']);
      for (const type of ['zone', 'dns_record', 'certificate']) {
        expect(fieldDiff(type, { modified_on: '1' }, { modified_on: '2' }, ignore)).toEqual({ changes: [], ignored: 1 });
      }
    });

    it('takes * as any one field name', () => {
      const ignore = ignoreList(['zone.*.updated']);
      const diff = fieldDiff(
        'zone',
        { a: { updated: 1, kept: 1 }, b: { updated: 1 }, updated: 1 },
        { a: { updated: 2, kept: 2 }, b: { updated: 2 }, updated: 2 },
        ignore,
      );
      expect(diff).toEqual({
        changes: [
          { field: 'a.kept', before: 1, after: 2 },
          { field: 'updated', before: 1, after: 2 },
        ],
        ignored: 2,
      });
    });

    it('covers everything beneath the field a pattern names', () => {
      const diff = fieldDiff('zone', { meta: { x: { y: 1 }, z: 1 }, name: 'a' }, { meta: { x: { y: 2 }, z: 2 }, name: 'a' }, ignoreList(['zone.meta']));
      expect(diff).toEqual({ changes: [], ignored: 1 });
    });

    it('does not take a longer pattern to cover the field above it', () => {
      const diff = fieldDiff('zone', { meta: 1 }, { meta: 2 }, ignoreList(['zone.meta.x']));
      expect(diff).toEqual({ changes: [{ field: 'meta', before: 1, after: 2 }], ignored: 0 });
    });

    it('sees through array elements matched by id', () => {
      const before = { rules: [{ id: 'abc', version: '1', action: 'log' }, { id: 'def', version: '1', action: 'block' }] };
      const after = { rules: [{ id: 'def', version: '2', action: 'block' }, { id: 'abc', version: '2', action: 'block' }] };
      const diff = fieldDiff('ruleset_entrypoint', before, after, ignoreList(['ruleset_entrypoint.rules.version']));
      expect(diff).toEqual({ changes: [{ field: 'rules[abc].action', before: 'log', after: 'block' }], ignored: 2 });
    });

    it('sees through array elements compared by position', () => {
      const before = { origins: [{ checked_at: '1', address: 'a' }] };
      const after = { origins: [{ checked_at: '2', address: 'a' }] };
      expect(fieldDiff('zone', before, after, ignoreList(['zone.origins.checked_at']))).toEqual({ changes: [], ignored: 1 });
    });

    it('does not apply a nested pattern to a same-named field elsewhere', () => {
      const diff = fieldDiff('ruleset_entrypoint', { version: '1', rules: [] }, { version: '2', rules: [] }, ignoreList(['ruleset_entrypoint.rules.version']));
      expect(diff).toEqual({ changes: [{ field: 'version', before: '1', after: '2' }], ignored: 0 });
    });
  });
});
