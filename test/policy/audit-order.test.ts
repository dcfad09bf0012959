import { describe, expect, it } from 'vitest';
import { recordAudit, runAudit } from '../../src/audit/audit.js';
import { compareFindings, type Finding } from '../../src/policy/findings.js';
import { activeRules, loadCatalogue } from '../../src/policy/registry.js';
import { defineRule, type Severity } from '../../src/policy/rule.js';
import { officialAuditHeader, saveAudit } from '../../src/audit/store.js';
import { storedFindings, storedFindingsJson } from '../support/stored-audit.js';
import { parseWaivers } from '../../src/policy/waivers.js';
import { snapshotOf } from '../support/snapshot-fixture.js';

/** These tests are about the order of findings, not the waivers' own limits (a 90-day maximum by default). */
const LONG = { maxDays: 36_500 };

/**
 * An audit is stored in listing order (worst first, then rule, zone name and resource, as
 * compareFindings orders findings in memory) as the rules give it, without a sort of the whole
 * audit; and a rule's findings on a zone stand or fall together, however many there are.
 */

const zones = { zones: ['m.example', 'b.example', 'z.example', 'a.example'].map((name) => ({ name })) };
const base = {
  title: 'Test rule',
  description: 'A rule made for this test.',
  category: 'dns' as const,
  resource: 'dns_record',
  messages: { bad: '{{name}} is bad' },
  remediation: 'Fix it.',
  references: ['this test'],
};

/** Fails each zone on `count` resources named in reverse order, each third one re-graded, each fifth unknown. */
function manyVerdicts(id: string, count: (zone: string) => number, options: { throwAfter?: boolean } = {}) {
  return defineRule({
    meta: { ...base, id, severity: 'medium', scope: 'zone' },
    defaultOptions: {},
    check(ctx) {
      const n = count(ctx.zone.name);
      for (let i = n; i > 0; i--) {
        const resource = { type: 'dns_record', id: `id-${i}`, name: `r${String(i).padStart(5, '0')}.${ctx.zone.name}` };
        if (i % 5 === 0) ctx.unknown(resource, 'not read');
        else ctx.fail(resource, 'bad', { name: resource.name }, i % 3 === 0 ? ('high' as Severity) : undefined);
      }
      if (options.throwAfter) throw new Error('the rule broke half-way');
      if (n === 0) ctx.pass();
    },
  });
}

/** An organisation rule reporting zones out of order, and an account. */
const organisationRule = defineRule({
  meta: { ...base, id: 'org-rule', severity: 'low', scope: 'organisation', resource: 'zone' },
  defaultOptions: {},
  check(ctx) {
    for (const zone of [...ctx.snapshot.zones()].reverse()) ctx.fail({ type: 'zone', id: zone.id, name: zone.name }, 'bad', { name: zone.name });
    ctx.fail({ type: 'account', id: 'acc-1', name: 'Account' }, 'bad', { name: 'Account' });
  },
});

const stored = (db: Parameters<typeof storedFindings>[0], scanId: number): Finding[] => [...storedFindings(db, scanId)];

describe('audit listing order', () => {
  it('stores the findings in the order compareFindings lists them, zone rules, organisation rules and waivers together', () => {
    const rules = activeRules(loadCatalogue([manyVerdicts('rule-b', () => 7), manyVerdicts('rule-a', (z) => (z === 'b.example' ? 0 : 4)), organisationRule]));
    const waivers = parseWaivers('- {rule: rule-b, zone: z.example, resource: "r00002.*", reason: r, owner: o, expires: 2099-01-01}', 'w', ['rule-b'], 'yaml', LONG);
    const { db, reader } = snapshotOf(zones);
    const inMemory = runAudit(reader, rules, waivers).findings.filter((f) => f.status !== 'pass');
    recordAudit(db, reader, rules, waivers);
    const listed = stored(db, reader.scan.id);
    expect(listed).toEqual(inMemory);
    expect([...listed].sort(compareFindings)).toEqual(listed);
    expect(listed.some((f) => f.status === 'waived')).toBe(true);
    // Stored as one run of keys, in that order.
    const run = db.prepare('SELECT findings_from AS "from", findings_to AS "to" FROM audits').get() as { from: number; to: number };
    expect(run.to - run.from + 1).toBe(listed.length);
    db.close();
  });

  // A night's audit holds its few findings in memory and writes them once; past a limit on their
  // text it stages them in SQLite from then on. Either way, the same rows in the same order.
  it('stores the same rows in the same order whether the findings are held, staged, or held then staged mid-audit', () => {
    const rules = activeRules(loadCatalogue([manyVerdicts('rule-b', () => 7), manyVerdicts('rule-a', (z) => (z === 'b.example' ? 0 : 40)), organisationRule]));
    const listings = [Number.MAX_SAFE_INTEGER, 3_000, 0].map((inMemoryChars) => {
      const { db, reader } = snapshotOf(zones);
      recordAudit(db, reader, rules, [], { inMemoryChars });
      const listed = stored(db, reader.scan.id);
      const run = db.prepare('SELECT findings_from AS "from", findings_to AS "to" FROM audits').get() as { from: number; to: number };
      expect(run.to - run.from + 1).toBe(listed.length);
      db.close();
      return listed;
    });
    const { reader } = snapshotOf(zones);
    const inMemory = runAudit(reader, rules).findings.filter((f) => f.status !== 'pass');
    expect(inMemory).toHaveLength(4 * 7 + 3 * 40 + 5);
    for (const listed of listings) expect(listed).toEqual(inMemory);
  });

  it('sorts a unit too large to hold in memory (one rule reporting thousands of records of a zone) with SQLite', () => {
    const rules = activeRules(loadCatalogue([manyVerdicts('huge', (z) => (z === 'm.example' ? 4500 : 3))]));
    const { db, reader } = snapshotOf(zones);
    const inMemory = runAudit(reader, rules).findings.filter((f) => f.status !== 'pass');
    const result = recordAudit(db, reader, rules);
    expect(stored(db, reader.scan.id)).toEqual(inMemory);
    // m.example: 4,500 verdicts, each fifth unknown (900); the three other zones fail 3 times each.
    expect(result.counts.byRule['huge']).toEqual({ fail: 3609, unknown: 900, waived: 0, pass: 0 });
    db.close();
  });

  it('forgets every finding, count and waiver match of a rule that throws, also after thousands of findings', () => {
    const waivers = parseWaivers('- {rule: flaky, zone: m.example, reason: r, owner: o, expires: 2099-01-01}', 'w', ['flaky'], 'yaml', LONG);
    for (const size of [3, 4500]) {
      // Throws on m.example only; gives as many verdicts on z.example, which stand.
      const flaky = defineRule({
        ...manyVerdicts('flaky', (z) => (z === 'm.example' || z === 'z.example' ? size : 0)),
        check(ctx) {
          manyVerdicts('flaky', () => (ctx.zone.name === 'm.example' || ctx.zone.name === 'z.example' ? size : 0), { throwAfter: ctx.zone.name === 'm.example' }).check(ctx);
        },
      });
      const rules = activeRules(loadCatalogue([flaky, manyVerdicts('fine', () => 2)]));
      const { db, reader } = snapshotOf(zones);
      const result = recordAudit(db, reader, rules, waivers);
      const listed = stored(db, reader.scan.id);
      expect(listed.filter((f) => f.rule === 'fine')).toHaveLength(8);
      expect(listed.filter((f) => f.rule === 'flaky').map((f) => f.zone?.name)).toEqual(Array(size).fill('z.example'));
      expect(result.counts.byRule['flaky']).toEqual({ fail: size - Math.floor(size / 5), unknown: Math.floor(size / 5), waived: 0, pass: 2 });
      expect(result.errors.map((e) => [e.rule, e.zone?.name])).toEqual([['flaky', 'm.example']]);
      expect(result.waivers.unused.map((w) => w.rule)).toEqual(['flaky']);
      db.close();
    }
  });

  it('writes each stored finding as JSON exactly as JSON.stringify writes the finding, hostile text and waivers included', () => {
    let hostile = '';
    for (let c = 0; c < 0x80; c++) hostile += String.fromCharCode(c);
    hostile += '\u2028\u2029é😀\ufeff</script><!--';
    const rule = defineRule({
      meta: { ...base, id: 'hostile', severity: 'high', scope: 'zone' },
      defaultOptions: {},
      check(ctx) {
        ctx.fail({ type: 'dns_record', id: `id"${hostile}`, name: hostile }, 'bad', { name: hostile, n: [0.1, 1e21, -3], nested: { x: null, y: true } });
        ctx.fail({ type: 'dns_record', id: 'plain', name: null }, 'bad', { name: 'plain' });
      },
    });
    const waivers = parseWaivers('- {rule: hostile, zone: a.example, resource: plain, reason: "why \\"not\\"", owner: o, expires: 2099-01-01}', 'w', ['hostile'], 'yaml', LONG);
    const { db, reader } = snapshotOf(zones);
    recordAudit(db, reader, activeRules(loadCatalogue([rule])), waivers);
    const objects = stored(db, reader.scan.id);
    expect(objects.some((f) => f.waiver)).toBe(true);
    expect([...storedFindingsJson(db, reader.scan.id)]).toEqual(objects.map((f) => JSON.stringify(f)));
    // An audit stored before schema 7 has no run of keys: the findings are sorted when read, the same order either way.
    db.prepare('UPDATE audits SET findings_from = NULL, findings_to = NULL').run();
    expect(stored(db, reader.scan.id)).toEqual(objects);
    expect([...storedFindingsJson(db, reader.scan.id)]).toEqual(objects.map((f) => JSON.stringify(f)));
    db.close();
  });

  it('stores an audit held in memory (--passes) in the same order', () => {
    const rules = activeRules(loadCatalogue([manyVerdicts('rule-b', () => 5), organisationRule]));
    const { db, reader } = snapshotOf(zones);
    const held = runAudit(reader, rules, [], { keepPasses: true });
    saveAudit(db, held);
    expect(stored(db, reader.scan.id)).toEqual(held.findings.filter((f) => f.status !== 'pass'));
    expect(officialAuditHeader(db, reader.scan.id)?.counts.byStatus.fail).toBeGreaterThan(0);
    db.close();
  });
});
