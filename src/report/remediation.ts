import { catalogue } from '../policy/catalogue.js';
import type { RuleReach } from './risk.js';

/** What to do about a rule's failures, as the rule says it: every report format carries it, so a reader can act without looking it up. */

/** The rule's remediation text; empty for a rule this version does not ship (an audit stored by another version). */
export const remediationOf = (rule: string): string => catalogue().get(rule)?.meta.remediation ?? '';

/** The remediations of the failing rules this version ships, in the order risk.ts gives `rules`: the order to fix them. */
export function fixesInOrder(rules: readonly RuleReach[]) {
  const known = catalogue();
  return rules.flatMap((r) => {
    const meta = known.get(r.rule)?.meta;
    // `why` it matters: the rule's description.
    return meta && r.worst !== null ? [{ rule: r.rule, title: meta.title, remediation: meta.remediation, why: meta.description, failing: r.failing, worst: r.worst, zones: r.zones }] : [];
  });
}
