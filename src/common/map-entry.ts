/** The map's value for `key`, made and stored first when it has none: one computation, one promise, one list per key. */
export function entryOf<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}
