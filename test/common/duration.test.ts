import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/common/duration.js';

describe('durations', () => {
  it.each([
    ['36h', 36 * 3_600_000],
    ['90m', 90 * 60_000],
    ['2d', 2 * 86_400_000],
    ['1d12h', 36 * 3_600_000],
    ['45s', 45_000],
    [' 2H ', 7_200_000],
  ])('reads %s', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['36', '', 'h', '1.5h', '-2h', '2w', '0h', '2h 30m', '99999999999999999d'])('refuses %j', (text) => expect(parseDuration(text)).toBeNull());

  it.each([
    [0, '0 seconds'],
    [1000, '1 second'],
    [59_000, '59 seconds'],
    [61_000, '1 minute 1 second'],
    [3_600_000, '1 hour'],
    [36 * 3_600_000, '1 day 12 hours'],
    [2 * 86_400_000 + 5 * 60_000, '2 days'],
  ])('writes %d ms as %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});
