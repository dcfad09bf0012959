import { describe, expect, it } from 'vitest';
import { comparableVersion } from '../../src/drift/derived.js';
import { fieldDiff } from '../../src/drift/fields.js';
import { ignoreList } from '../../src/drift/ignore.js';

// vendor's API reference, zones, development_mode: seconds until Development Mode expires
// (positive), or since it last expired (negative); 0 if it has never been enabled.
const zone = (developmentMode: unknown) => ({ id: 'z1', name: 'shop.example', development_mode: developmentMode });
const changes = (before: unknown, after: unknown) =>
  fieldDiff('zone', comparableVersion('zone', zone(before)), comparableVersion('zone', zone(after)), ignoreList([])).changes;

describe("drift compares the zone list's development_mode as on or off", () => {
  it.each([
    ['never on, then on', 0, 10_800, [{ field: 'development_mode', before: 'off', after: 'on' }]],
    ['expired, then on again', -86_400, 600, [{ field: 'development_mode', before: 'off', after: 'on' }]],
    ['on, then expired', 3_600, -7_200, [{ field: 'development_mode', before: 'on', after: 'off' }]],
    ['counting down while on', 7_200, 3_600, []],
    ['counting up since it expired', -3_600, -90_000, []],
    ['never on, then expired (on and off between scans)', 0, -60, []],
  ])('%s', (_, before, after, expected) => {
    expect(changes(before, after)).toEqual(expected);
  });

  it('leaves other resource types and a value that is not a number as served', () => {
    expect(comparableVersion('zone_setting', { id: 'development_mode', development_mode: 5 })).toEqual({ id: 'development_mode', development_mode: 5 });
    expect(changes(null, 5)).toEqual([{ field: 'development_mode', before: null, after: 'on' }]);
  });
});
