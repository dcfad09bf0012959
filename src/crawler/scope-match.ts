import { editDistance } from '../common/did-you-mean.js';
import { ZonewardenError } from '../common/errors.js';
import { printable } from '../common/printable.js';

/**
 * A name in --zone or --account that matches nothing the credentials see is a mistake to report,
 * never an empty scope to audit: when nothing matches the scan stops (exit 2) with the closest
 * names; when some match, the others make the scan incomplete.
 */
export interface UnmatchedName {
  option: '--zone' | '--account';
  name: string;
  why: string;
  closest: string[];
}

export class ScopeMatchedNothing extends ZonewardenError {
  constructor(readonly unmatched: UnmatchedName[]) {
    super('ZW_SCOPE_EMPTY', `${unmatched.map(describeUnmatched).join('; ')}; nothing to scan (check the names, or drop the filter to scan everything these credentials see)`);
  }
}

export function describeUnmatched(u: UnmatchedName): string {
  // Suggestions are names the API served: shown as text, never as terminal control sequences.
  const hint = u.closest.length ? ` (closest: ${printable(u.closest.join(', '))})` : '';
  return `${u.option} ${u.name}: ${u.why}${hint}`;
}

/** The `count` candidates nearest to `name` (Levenshtein), nearest first; ties in alphabetical order. */
export function closestNames(name: string, candidates: Iterable<string>, count = 3): string[] {
  const target = name.toLowerCase();
  return [...new Set(candidates)]
    .filter((c) => c.toLowerCase() !== target)
    .map((c) => ({ c, d: editDistance(target, c.toLowerCase(), false) }))
    .sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : x.c > y.c ? 1 : 0))
    .slice(0, count)
    .map((x) => x.c);
}
