import { describe, expect, it } from 'vitest';
import { closestMatches, didYouMean, editBudget, editDistance } from '../../src/common/did-you-mean.js';

// Suggestions follow the Damerau-Levenshtein (optimal string alignment) distance: insertion,
// deletion, substitution and a swap of two neighbouring letters each cost one edit.
describe('edit distance', () => {
  it.each([
    ['budget', 'budget', 0],
    ['bugdet', 'budget', 1], // a swap of neighbours is one edit, not two
    ['budgt', 'budget', 1],
    ['budgett', 'budget', 1],
    ['budxet', 'budget', 1],
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3], // optimal string alignment: a swapped pair is not edited again
  ])('%j to %j is %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  it.each([
    [1, 1],
    [3, 1],
    [5, 1],
    [6, 2],
    [9, 3],
  ])('allows %i letters %i edit(s)', (length, edits) => expect(editBudget(length)).toBe(edits));
});

describe('closest matches', () => {
  const COMMANDS = ['demo', 'run', 'schedule', 'status', 'scan', 'scans', 'audit', 'report', 'diff', 'baseline', 'rules'];

  it.each([
    ['scna', ['scan']],
    ['SCAN', ['scan']], // case is ignored, the suggestion keeps the candidate's own case
    ['audti', ['audit']],
    ['reprot', ['report']],
    ['baselin', ['baseline']],
    ['schedul', ['schedule']],
    ['scanz', ['scan', 'scans']], // all at the smallest distance, in the candidates' order
    ['sched', ['schedule']], // too far by edits, but a prefix of one name
  ])('%j suggests %j', (input, expected) => expect(closestMatches(input, COMMANDS)).toEqual(expected));

  it.each(['frobnicate', 'x', 'zz', '', 'sc', 'deploy'])('%j suggests nothing', (input) => expect(closestMatches(input, COMMANDS)).toEqual([]));

  it('never suggests a name that shares no letter with a one-letter input', () => {
    expect(closestMatches('a', ['b', 'c'])).toEqual([]);
  });

  it('suggests at most three names, each once', () => {
    expect(closestMatches('ab', ['ax', 'ay', 'az', 'aw', 'ax'])).toEqual(['ax', 'ay', 'az']);
  });

  it('scales the edits allowed with the length of the input', () => {
    expect(closestMatches('budgetwindw', ['budgetWindow'])).toEqual(['budgetWindow']);
    expect(closestMatches('bugdetwindw', ['budgetWindow'])).toEqual(['budgetWindow']); // two edits in eleven letters
    expect(closestMatches('bxdxet', ['budget'])).toEqual(['budget']); // two edits in six letters
    expect(closestMatches('bxdxxt', ['budget'])).toEqual([]); // three are too many
  });

  it('answers quickly for a very long input', () => {
    expect(closestMatches('a'.repeat(100_000), COMMANDS)).toEqual([]);
  });
});

describe('the suggestion appended to an error', () => {
  it('quotes one name as the user would type it', () => {
    expect(didYouMean('bugdet', ['budget', 'budget-window', 'help'], (name) => `--${name}`)).toBe(' (did you mean "--budget"?)');
  });

  it('lists several with "or"', () => {
    expect(didYouMean('scanz', ['scan', 'scans'])).toBe(' (did you mean "scan" or "scans"?)');
    expect(didYouMean('ab', ['ax', 'ay', 'az'])).toBe(' (did you mean "ax", "ay" or "az"?)');
  });

  it('is empty when nothing is close, so the message is left as it was', () => {
    expect(didYouMean('frobnicate', ['scan', 'audit'])).toBe('');
  });
});
