import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/policy/engine.js';
import { activeRules, loadCatalogue } from '../../src/policy/registry.js';
import { defineRule, type RuleMeta, type RuleScope } from '../../src/policy/rule.js';
import { snapshotOf, zoneIdOf, type FixtureSpec } from '../support/snapshot-fixture.js';

function meta<S extends RuleScope>(id: string, scope: S, extra: Partial<RuleMeta> = {}): RuleMeta<S> {
  return {
    id,
    title: `${id} holds`,
    description: 'for the engine tests',
    severity: 'medium',
    category: 'zone',
    scope,
    resource: 'zone',
    messages: { bad: '{{what}} is bad' },
    remediation: 'fix it',
    references: [],
    ...extra,
  } as RuleMeta<S>;
}

const failPaused = defineRule({
  meta: meta('fail-paused', 'zone'),
  defaultOptions: {},
  check(ctx) {
    if (ctx.zone.zone.paused) ctx.fail(ctx.zone.resource, 'bad', { what: ctx.zone.name });
    else ctx.pass();
  },
});

const throwsOnB = defineRule({
  meta: meta('throws-on-b', 'zone'),
  defaultOptions: {},
  check(ctx) {
    ctx.fail(ctx.zone.resource, 'bad', { what: 'first' });
    if (ctx.zone.name === 'b.example') throw new Error('boom');
  },
});

const snapshot = { zones: [{ name: 'a.example', paused: true }, { name: 'b.example' }, { name: 'c.example' }] };

/** Passes every zone; a paused one with a note (a message of its own), another with a note it does not have. */
const notePaused = defineRule({
  meta: meta('note-paused', 'zone', { messages: { bad: '{{what}} is bad', pausedNote: '{{what}} is paused, which fails nothing here' } }),
  defaultOptions: {},
  check(ctx) {
    if (ctx.zone.zone.paused) ctx.pass(ctx.zone.resource, 'pausedNote', { what: ctx.zone.name });
    else if (ctx.zone.name === 'c.example') ctx.pass(ctx.zone.resource, 'noSuchNote');
    else ctx.pass();
  },
});

function run(rules: Parameters<typeof loadCatalogue>[0], settings = {}, spec: FixtureSpec = snapshot) {
  const { reader, db } = snapshotOf(spec);
  try {
    return evaluate(reader, activeRules(loadCatalogue(rules), settings));
  } finally {
    db.close();
  }
}

describe('engine', () => {
  it('keeps the note a pass carries, as a pass: counted among passes, never among failures', () => {
    const result = run([notePaused]);
    expect(result.findings.map((f) => [f.zone?.name, f.status, f.messageId, f.message])).toEqual([
      ['a.example', 'pass', 'pausedNote', 'a.example is paused, which fails nothing here'],
      ['b.example', 'pass', null, 'note-paused holds'],
    ]);
    expect(result.findings[0]!.data).toEqual({ what: 'a.example' });
    expect(result.passes['note-paused']).toBe(2);
    // A note that is not among the rule's messages is the rule's error, as an unknown failure message is.
    expect(result.errors.map((e) => [e.rule, e.zone?.name, e.message])).toEqual([['note-paused', 'c.example', 'no message "noSuchNote" in meta.messages']]);
  });

  it('gives every zone a verdict and files findings under zone and account', () => {
    const result = run([failPaused]);
    expect(result.zones).toBe(3);
    expect(result.findings.map((f) => [f.zone?.name, f.status])).toEqual([
      ['a.example', 'fail'],
      ['b.example', 'pass'],
      ['c.example', 'pass'],
    ]);
    const [fail] = result.findings;
    expect(fail).toMatchObject({ rule: 'fail-paused', severity: 'medium', category: 'zone', message: 'a.example is bad', messageId: 'bad', account: { name: 'Example Org' } });
    expect(result.now.toISOString()).toBe('2026-11-01T12:00:00.000Z');
  });

  it('reports a throwing rule as an error for that zone, keeps none of its verdicts there, and runs the rest', () => {
    const result = run([throwsOnB, failPaused]);
    expect(result.errors).toEqual([{ rule: 'throws-on-b', zone: { id: zoneIdOf('b.example'), name: 'b.example' }, message: 'boom' }]);
    const byRule = (id: string) => result.findings.filter((f) => f.rule === id).map((f) => f.zone?.name).sort();
    expect(byRule('throws-on-b')).toEqual(['a.example', 'c.example']);
    expect(byRule('fail-paused')).toEqual(['a.example', 'b.example', 'c.example']);
  });

  it('treats a rule that gives no verdict, or a message without its data, as an error', () => {
    const silent = defineRule({ meta: meta('silent', 'zone'), defaultOptions: {}, check() {} });
    const noData = defineRule({ meta: meta('no-data', 'zone'), defaultOptions: {}, check: (ctx) => ctx.fail(ctx.zone.resource, 'bad', {}) });
    const badId = defineRule({ meta: meta('bad-id', 'zone'), defaultOptions: {}, check: (ctx) => ctx.fail(ctx.zone.resource, 'nope') });
    const result = run([silent, noData, badId], {}, { zones: [{ name: 'a.example' }] });
    expect(result.findings).toEqual([]);
    expect(result.errors.map((e) => `${e.rule}: ${e.message}`)).toEqual([
      'silent: the rule gave no verdict',
      'no-data: message placeholder {{what}} has no data',
      'bad-id: no message "nope" in meta.messages',
    ]);
  });

  it('skips disabled rules and applies a configured severity to every finding', () => {
    const tiered = defineRule({
      meta: meta('tiered', 'zone'),
      defaultOptions: {},
      check: (ctx) => ctx.fail(ctx.zone.resource, 'bad', { what: 'x' }, 'critical'),
    });
    expect(run([tiered]).findings.map((f) => f.severity)).toEqual(['critical', 'critical', 'critical']);
    expect(run([tiered], { tiered: { severity: 'low' } }).findings.map((f) => f.severity)).toEqual(['low', 'low', 'low']);
    const off = run([tiered, failPaused], { tiered: { enabled: false } });
    expect(off.rules.map((r) => r.rule.meta.id)).toEqual(['fail-paused']);
    expect(off.findings.every((f) => f.rule === 'fail-paused')).toBe(true);
  });

  it('keeps fingerprints stable across scans and distinct across rules and resources', () => {
    const first = run([failPaused]).findings;
    const second = run([failPaused]).findings;
    expect(second.map((f) => f.fingerprint)).toEqual(first.map((f) => f.fingerprint));
    expect(new Set(first.map((f) => f.fingerprint)).size).toBe(3);
    const other = run([throwsOnB]).findings.find((f) => f.zone?.name === 'a.example');
    expect(other?.fingerprint).not.toBe(first[0]?.fingerprint);
  });

  it('runs organisation rules once and files zone and account resources under them', () => {
    const org = defineRule({
      meta: meta('org', 'organisation'),
      defaultOptions: {},
      check(ctx) {
        for (const z of ctx.snapshot.zones()) ctx.fail({ type: 'zone', id: z.id, name: z.name }, 'bad', { what: z.name });
        ctx.pass({ type: 'account', id: 'acc0000000000000000000000000000a', name: null });
        ctx.pass({ type: 'user', id: 'me', name: null });
      },
    });
    const result = run([org]);
    expect(result.findings.filter((f) => f.status === 'fail').map((f) => [f.zone?.name, f.account?.name])).toEqual([
      ['a.example', 'Example Org'],
      ['b.example', 'Example Org'],
      ['c.example', 'Example Org'],
    ]);
    const passes = result.findings.filter((f) => f.status === 'pass');
    expect(passes.map((f) => [f.resource.type, f.account?.name ?? null, f.zone])).toEqual([
      ['account', 'Example Org', null],
      ['user', null, null],
    ]);
  });

  it("reads each zone's client-side security settings once for its zone rules and the organisation rules after them", () => {
    const onOrOff = (value: unknown) => (value === null ? 'none' : (value as { enabled: boolean }).enabled ? 'on' : 'off');
    const zoneRule = defineRule({
      meta: meta('zone-page-shield', 'zone'),
      defaultOptions: {},
      check(ctx) {
        const read = ctx.zone.pageShield();
        ctx.fail(ctx.zone.resource, 'bad', { what: read.known ? onOrOff(read.value) : read.reason });
      },
    });
    const orgRule = defineRule({
      meta: meta('org-page-shield', 'organisation'),
      defaultOptions: {},
      check(ctx) {
        for (const z of ctx.snapshot.zones()) {
          const read = ctx.snapshot.pageShieldOf(z.id);
          ctx.fail({ type: 'zone', id: z.id, name: z.name }, 'bad', { what: read.known ? onOrOff(read.value) : read.reason });
        }
      },
    });
    const spec: FixtureSpec = {
      zones: [
        { name: 'a.example', pageShield: { enabled: true } },
        { name: 'b.example', pageShield: { enabled: false } },
        { name: 'c.example', pageShield: null },
        { name: 'd.example', unread: { page_shield: 'denied' } },
      ],
    };
    const verdicts = (rules: Parameters<typeof loadCatalogue>[0]) => {
      const { reader, db } = snapshotOf(spec);
      let zoneObjectQueries = 0;
      const prepare = db.prepare.bind(db);
      db.prepare = ((sql: string) => {
        const statement = prepare(sql);
        if (!sql.includes('FROM zone_objects')) return statement;
        for (const method of ['all', 'get', 'iterate'] as const) {
          const call = statement[method].bind(statement) as (...args: unknown[]) => unknown;
          (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => (zoneObjectQueries++, call(...args));
        }
        return statement;
      }) as typeof db.prepare;
      try {
        const result = evaluate(reader, activeRules(loadCatalogue(rules), {}));
        return { byRule: (id: string) => result.findings.filter((f) => f.rule === id).map((f) => [f.zone?.name, f.message]), zoneObjectQueries };
      } finally {
        db.close();
      }
    };
    const expected = [['a.example', 'on is bad'], ['b.example', 'off is bad'], ['c.example', 'none is bad'], ['d.example', expect.stringContaining('page_shield') as unknown]];
    const both = verdicts([zoneRule, orgRule]);
    expect(both.byRule('zone-page-shield')).toEqual(expected);
    expect(both.byRule('org-page-shield')).toEqual(expected);
    // One query of the zones' objects, read ahead for the zone rules; the organisation rule reads none again.
    expect(both.zoneObjectQueries).toBe(1);
    // Alone, the organisation rule reads each zone's objects itself, and gives the same verdicts.
    const alone = verdicts([orgRule]);
    expect(alone.byRule('org-page-shield')).toEqual(expected);
    expect(alone.zoneObjectQueries).toBeGreaterThanOrEqual(3);
  });

  it('reads only zones the scan covered', () => {
    const result = run([failPaused], {}, { zones: [{ name: 'a.example' }, { name: 'gone.example', unread: { zone: 'missing' } }] });
    expect(result.findings.map((f) => f.zone?.name)).toEqual(['a.example']);
  });
});
