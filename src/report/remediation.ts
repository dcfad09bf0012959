import { catalogue } from '../policy/catalogue.js';
import type { Severity } from '../policy/rule.js';
import type { RuleReach } from './risk.js';

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
  /** The most severe of its failures. */
  worst: Severity;
  /** Zones with at least one of its failures. */
  zones: number;
}

/** The rule's remediation text; empty for a rule this version does not ship (an audit stored by another version). */
export function remediationOf(rule: string): string {
  return catalogue().get(rule)?.meta.remediation ?? '';
}

/**
 * The remediations of the rules that fail at least once, in the order to fix them: the most severe
 * failure first, then the widest reach (zones, then findings), as risk.ts orders `rules`. Rules
 * this version does not ship have no remediation to show and are left out.
 */
export function fixesInOrder(rules: readonly RuleReach[]): RuleRemediation[] {
  const known = catalogue();
  return rules.flatMap((r) => {
    const meta = known.get(r.rule)?.meta;
    return meta && r.worst !== null ? [{ rule: r.rule, title: meta.title, remediation: meta.remediation, why: meta.description, failing: r.failing, worst: r.worst, zones: r.zones }] : [];
  });
}
