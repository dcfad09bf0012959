import { describe, expect, it } from 'vitest';
import { evaluate, type Evaluation } from '../policy/engine.js';
import type { Finding } from '../policy/findings.js';
import { activeRules, loadCatalogue, type RuleSettings } from '../policy/registry.js';
import type { AnyRule, Severity } from '../policy/rule.js';
import { snapshotOf, type FixtureSpec } from './fixture.js';

/**
 * ESLint's RuleTester, for zonewarden rules: valid snapshots (passes, with exactly the listed notes)
 * and invalid ones (exactly the listed failures and unknowns); every message must be produced.
 */

export interface ValidCase {
  name: string;
  snapshot: FixtureSpec;
  options?: Record<string, unknown>;
  severity?: Severity;
  /** The notes the passes carry (ctx.pass with a message id), no more; none when absent. */
  notes?: ExpectedFinding[];
  /** Other rules audited with this one (one problem, one finding): their findings count, told apart by `rule`. */
  alongside?: AnyRule[];
  /** The settings of the rules alongside, by rule id (such as `{ enabled: false }`). */
  settingsOf?: Record<string, RuleSettings>;
}

export interface ExpectedFinding {
  /** The rule that gives it: the rule tested when absent. */
  rule?: string;
  /** fail by default; pass for a note. */
  status?: 'fail' | 'unknown' | 'pass';
  messageId?: string;
  resourceType?: string;
  resourceId?: string;
  resourceName?: string;
  zone?: string;
  severity?: Severity;
  /** Substrings or patterns the message must contain. */
  message?: string | RegExp | Array<string | RegExp>;
  data?: Record<string, unknown>;
}

export interface InvalidCase extends ValidCase {
  findings: ExpectedFinding[];
}

export function runRule(rule: AnyRule, c: ValidCase): Evaluation {
  const settings: RuleSettings = { ...(c.options ? { options: c.options } : {}), ...(c.severity ? { severity: c.severity } : {}) };
  const { reader, db } = snapshotOf(c.snapshot);
  try {
    return evaluate(reader, activeRules(loadCatalogue([rule, ...(c.alongside ?? [])]), { ...c.settingsOf, [rule.meta.id]: settings }));
  } finally {
    db.close();
  }
}

function matches(f: Finding, e: ExpectedFinding, tested: string): boolean {
  const messages = e.message === undefined ? [] : Array.isArray(e.message) ? e.message : [e.message];
  return (
    f.rule === (e.rule ?? tested) &&
    f.status === (e.status ?? 'fail') &&
    (e.messageId === undefined || f.messageId === e.messageId) &&
    (e.resourceType === undefined || f.resource.type === e.resourceType) &&
    (e.resourceId === undefined || f.resource.id === e.resourceId) &&
    (e.resourceName === undefined || f.resource.name === e.resourceName) &&
    (e.zone === undefined || f.zone?.name === e.zone) &&
    (e.severity === undefined || f.severity === e.severity) &&
    messages.every((m) => (typeof m === 'string' ? f.message.includes(m) : m.test(f.message))) &&
    (e.data === undefined || Object.entries(e.data).every(([k, v]) => JSON.stringify(f.data[k]) === JSON.stringify(v)))
  );
}

const brief = (f: Finding) => ({ rule: f.rule, status: f.status, messageId: f.messageId, severity: f.severity, zone: f.zone?.name, resource: f.resource, message: f.message });

/** The expected findings missing from `actual`, and those of `actual` no expectation matched. */
function differences(actual: readonly Finding[], expected: readonly ExpectedFinding[], tested: string): { missing: ExpectedFinding[]; unexpected: ReturnType<typeof brief>[] } {
  const unmatched = [...actual];
  const missing: ExpectedFinding[] = [];
  for (const e of expected) {
    const i = unmatched.findIndex((f) => matches(f, e, tested));
    if (i === -1) missing.push(e);
    else unmatched.splice(i, 1);
  }
  return { missing, unexpected: unmatched.map(brief) };
}

export function testRule(rule: AnyRule, cases: { valid: ValidCase[]; invalid: InvalidCase[] }): void {
  describe(`rule ${rule.meta.id}`, () => {
    describe('valid', () => {
      for (const c of cases.valid) {
        it(c.name, () => {
          const result = runRule(rule, c);
          expect(result.errors).toEqual([]);
          expect(result.findings.filter((f) => f.status !== 'pass').map(brief)).toEqual([]);
          expect(result.findings.length).toBeGreaterThan(0);
          const notes = result.findings.filter((f) => f.messageId !== null);
          expect(differences(notes, (c.notes ?? []).map((n) => ({ ...n, status: 'pass' as const })), rule.meta.id), 'notes differ from the expected ones').toEqual({ missing: [], unexpected: [] });
        });
      }
    });
    describe('invalid', () => {
      for (const c of cases.invalid) {
        it(c.name, () => {
          const result = runRule(rule, c);
          expect(result.errors).toEqual([]);
          const actual = result.findings.filter((f) => f.status !== 'pass');
          expect(differences(actual, c.findings, rule.meta.id), 'findings differ from the expected ones').toEqual({ missing: [], unexpected: [] });
          // Drift and notifications follow a finding by its fingerprint (rule + resource): two
          // findings of one check on the same resource would be confused from one scan to the next.
          const seen = new Map<string, Finding>();
          const shared = actual.filter((f) => seen.has(f.fingerprint) || !seen.set(f.fingerprint, f));
          expect(shared.map(brief), 'findings on the same resource: give each its own resource').toEqual([]);
        });
      }
    });
    it('produces every message of meta.messages in some case', () => {
      const used = new Set([...cases.invalid, ...cases.valid.filter((c) => c.notes?.length)].flatMap((c) => runRule(rule, c).findings.filter((f) => f.rule === rule.meta.id).map((f) => f.messageId)));
      expect(Object.keys(rule.meta.messages).filter((id) => !used.has(id))).toEqual([]);
    });
  });
}
