import { ZonewardenError } from '../common/errors.js';
import { printable } from '../common/printable.js';

/**
 * How a scan's scope met what the credentials see. A name in --zone or --account that matches
 * nothing is a mistake to report, never an empty scope to audit: when nothing matches the scan
 * stops (exit 2) with the closest names; when some names match, the scan covers those and the
 * others make it incomplete.
 */

export interface UnmatchedName {
  option: '--zone' | '--account';
  name: string;
  why: string;
  closest: string[];
}

/** Nothing in the scope exists for these credentials: the scan is aborted, nothing is audited. */
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

/** Edit distance between two short strings (names): insertions, deletions, substitutions. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}

/** The `count` candidates nearest to `name`, nearest first; ties in alphabetical order. */
export function closestNames(name: string, candidates: Iterable<string>, count = 3): string[] {
  const target = name.toLowerCase();
  return [...new Set(candidates)]
    .filter((c) => c.toLowerCase() !== target)
    .map((c) => ({ c, d: distance(target, c.toLowerCase()) }))
    .sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : x.c > y.c ? 1 : 0))
    .slice(0, count)
    .map((x) => x.c);
}
