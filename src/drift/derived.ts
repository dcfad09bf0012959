/**
 * Fields drift compares by what they say rather than as served. The zone list's
 * `development_mode` counts the seconds Development Mode has left, then (negative) the seconds
 * since it expired, 0 if it was never on (vendor's API reference, zones): as served, every zone
 * that ever used the mode would look changed on every scan. Compared as the state it tells (`on`
 * while seconds are left, `off` otherwise), switching the mode on, or off, is a change of the zone
 * (`development_mode: "off" -> "on"`, the values the development_mode setting showed when it was
 * read) and the countdown is none. A value of another kind is compared as served.
 */
export function comparableVersion(type: string, item: unknown): unknown {
  if (type !== 'zone' || !item || typeof item !== 'object' || Array.isArray(item)) return item;
  const seconds = (item as Record<string, unknown>)['development_mode'];
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return item;
  return { ...(item as Record<string, unknown>), development_mode: developmentModeState(seconds) };
}

/** Development Mode's state from the seconds the zone list says it has left. */
export const developmentModeState = (seconds: number): 'on' | 'off' => (seconds > 0 ? 'on' : 'off');
