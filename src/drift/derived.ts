/**
 * Fields drift compares by what they say rather than as served. The zone list's `development_mode`
 * counts the seconds Development Mode has left, then (negative) the seconds since it expired, 0 if
 * never on (vendor's API reference, zones): as served, every zone that ever used the mode would look
 * changed on every scan. Compared as the state it tells (`on` while seconds are left, else `off`, the
 * values of the development_mode setting), switching the mode is a change and the countdown is none.
 */
export function comparableVersion(type: string, item: unknown): unknown {
  if (type !== 'zone' || !item || typeof item !== 'object' || Array.isArray(item)) return item;
  const seconds = (item as Record<string, unknown>)['development_mode'];
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return item;
  return { ...(item as Record<string, unknown>), development_mode: seconds > 0 ? 'on' : 'off' };
}
