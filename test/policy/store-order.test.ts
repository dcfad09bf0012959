import { describe, expect, it } from 'vitest';
import { recordAudit, runAudit } from '../../src/audit/audit.js';
import { compareFindings, type Finding } from '../../src/policy/findings.js';
import { activeRules, loadCatalogue } from '../../src/policy/registry.js';
import { defineRule } from '../../src/policy/rule.js';
import { storedFindings } from '../support/stored-audit.js';
import { snapshotOf } from '../support/snapshot-fixture.js';

const base = {
  title: 'Test rule',
  description: 'A rule made for this test.',
  category: 'scan' as const,
  messages: { bad: '{{name}} is bad' },
  remediation: 'Fix it.',
  references: ['this test'],
};

type Context = Parameters<Parameters<typeof defineRule>[0]['check']>[0];

/** An organisation rule failing 2,100 zones (more than a unit held in memory), then whatever `more` fails. */
function manyZonesAnd(more: (ctx: Context) => void) {
  const rule = defineRule({
    meta: { ...base, id: 'org-many', severity: 'low', scope: 'organisation', resource: 'zone' },
    defaultOptions: {},
    check(ctx) {
      for (let i = 0; i < 2100; i++) {
        const name = `z${String(i).padStart(5, '0')}.example`;
        ctx.fail({ type: 'zone', id: `id${String(i).padStart(5, '0')}`, name }, 'bad', { name });
      }
      more(ctx);
    },
  });
  return activeRules(loadCatalogue([rule]));
}

const key = (f: Finding) => `${f.zone?.name ?? '-'} ${f.zone?.id ?? '-'} ${f.resource.name}`;

describe('a spilled organisation unit (more than 2,000 findings) is stored in listing order', () => {
  // A unit too large to hold is sorted by SQLite (store.ts, place). An organisation rule's unit spans
  // zones and accounts (as scan-coverage does: zones incomplete and an account whose listing failed,
  // one rule, status and severity): the zone is a key of that sort as it is of compareFindings.
  it('orders an account finding (no zone) before zone findings, as compareFindings does', () => {
    const rules = manyZonesAnd((ctx) => ctx.fail({ type: 'account', id: 'acc-1', name: 'zz Account' }, 'bad', { name: 'zz Account' }));
    const { db, reader } = snapshotOf({ zones: [{ name: 'a.example' }] });
    const inMemory = runAudit(reader, rules).findings.filter((f) => f.status !== 'pass');
    expect([...inMemory].sort(compareFindings).map(key)).toEqual(inMemory.map(key));
    recordAudit(db, reader, rules);
    const listed = [...storedFindings(db, reader.scan.id)];
    expect(listed.map(key).slice(0, 2)).toEqual(inMemory.map(key).slice(0, 2));
    db.close();
  });

  // The same, for two zones of one name: listed one after the other by id, as in memory.
  it('orders two zones of one name by id in a spilled organisation unit', () => {
    const rules = manyZonesAnd((ctx) => {
      // One name, two zones, reported id "b" before id "a".
      ctx.fail({ type: 'zone', id: 'bbbb', name: 'same.example' }, 'bad', { name: 'same.example' });
      ctx.fail({ type: 'zone', id: 'aaaa', name: 'same.example' }, 'bad', { name: 'same.example' });
    });
    const { db, reader } = snapshotOf({ zones: [{ name: 'a.example' }] });
    const inMemory = runAudit(reader, rules).findings.filter((f) => f.status !== 'pass');
    recordAudit(db, reader, rules);
    const listed = [...storedFindings(db, reader.scan.id)];
    const same = (fs: Finding[]) => fs.filter((f) => f.zone?.name === 'same.example').map((f) => f.zone!.id);
    expect(same(inMemory)).toEqual(['aaaa', 'bbbb']);
    expect(same(listed)).toEqual(same(inMemory));
    db.close();
  });
});
