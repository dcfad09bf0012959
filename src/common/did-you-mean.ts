/**
 * "Did you mean" for names the user types (commands, flags, config keys, rule ids): the closest
 * known names when close enough to be the likely intent, nothing when the input is unrelated (a
 * wrong guess misleads more than no guess).
 */

/** More would be a list, which the messages already give. */
const MAX_SUGGESTIONS = 3;

/** A prefix shorter than this (`s`, `sc`) matches too much to be an intent. */
const MIN_PREFIX = 3;

/** Edits allowed for an input of this length: one for short names, one more per three letters. */
export function editBudget(length: number): number {
  return Math.max(1, Math.floor(length / 3));
}

/**
 * Optimal string alignment distance: a swap of two neighbouring letters costs one, like an
 * insertion, deletion or substitution, since a swap (`bugdet`) is as common a typo as a missed key.
 * Without `swaps`, the plain Levenshtein distance.
 */
export function editDistance(a: string, b: string, swaps = true): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      const swapped = swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1];
      if (swapped) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidates closest to `input`, ignoring case: the smallest edit distance within the budget;
 * failing that, those the input begins (`aud` for `audit`). Never a candidate that keeps no letter
 * of the input.
 */
export function closestMatches(input: string, candidates: Iterable<string>): string[] {
  const typed = input.toLowerCase();
  if (typed === '') return [];
  const budget = editBudget(typed.length);
  const unique = [...new Set(candidates)];
  let best = Infinity;
  let nearest: string[] = [];
  for (const candidate of unique) {
    const known = candidate.toLowerCase();
    // Cheap bound first: the distance is at least the difference in length (inputs can be long).
    if (Math.abs(known.length - typed.length) > budget) continue;
    const distance = editDistance(typed, known);
    if (distance > budget || distance >= Math.max(typed.length, known.length)) continue;
    if (distance < best) {
      best = distance;
      nearest = [candidate];
    } else if (distance === best) nearest.push(candidate);
  }
  if (nearest.length > 0) return nearest.slice(0, MAX_SUGGESTIONS);
  if (typed.length < MIN_PREFIX) return [];
  return unique.filter((c) => c.toLowerCase().startsWith(typed)).slice(0, MAX_SUGGESTIONS);
}

/**
 * ` (did you mean "--budget"?)`, ` (did you mean "scan" or "scans"?)`, or '' when nothing is close.
 * `show` turns a candidate into what the user would type (`budget` into `--budget`).
 */
export function didYouMean(input: string, candidates: Iterable<string>, show: (candidate: string) => string = (c) => c): string {
  const quoted = closestMatches(input, candidates).map((c) => JSON.stringify(show(c)));
  if (quoted.length === 0) return '';
  const list = quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)!}`;
  return ` (did you mean ${list}?)`;
}
