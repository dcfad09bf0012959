import { catalogue } from '../policy/catalogue.js';

/**
 * What to do about a rule's failures, as the rule says it (`zonewarden rules` shows the same
 * text): every report format carries it next to the findings, so whoever reads a report can act
 * without looking the rule up.
 */

export interface RuleRemediation {
  rule: string;
  title: string;
  remediation: string;
  /** Why it matters: the rule's description. */
  why: string;
  /** How many of the rule's findings fail in this audit. */
  failing: number;
}

/** The rule's remediation text; empty for a rule this version does not ship (an audit stored by another version). */
export function remediationOf(rule: string): string {
  return catalogue().get(rule)?.meta.remediation ?? '';
}

/** The remediations of the rules that fail at least once, most failures first (then by rule id). */
export function failingRemediations(byRule: Readonly<Record<string, { fail: number }>>): RuleRemediation[] {
  const rules = catalogue();
  return Object.entries(byRule)
    .filter(([, counts]) => counts.fail > 0)
    .flatMap(([id, counts]) => {
      const meta = rules.get(id)?.meta;
      return meta ? [{ rule: id, title: meta.title, remediation: meta.remediation, why: meta.description, failing: counts.fail }] : [];
    })
    .sort((a, b) => b.failing - a.failing || a.rule.localeCompare(b.rule));
}
