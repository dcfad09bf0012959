import type { IgnoreList } from './ignore.js';

/**
 * Field-by-field differences between two versions of a resource as served. Paths name fields with dots;
 * array elements with an `id` are matched by it (`rules[abc].action`), so a reordered list is no change;
 * lists of plain values are compared as sets (the API promises no order for hosts, tags or name
 * servers). A field absent on one side has no `before` (added) or no `after` (removed).
 */
export interface FieldChange {
  field: string;
  before?: unknown;
  after?: unknown;
}

export interface FieldDiff {
  changes: FieldChange[];
  /** Fields that differ but are on the ignore list. */
  ignored: number;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return false;
}

/** The id that matches an element across versions, when every element has a distinct one. */
function idsOf(items: unknown[]): string[] | null {
  const idOf = (item: unknown) => (isObject(item) && (typeof item['id'] === 'string' || typeof item['id'] === 'number') ? String(item['id']) : null);
  const ids = items.map(idOf);
  return ids.every((id) => id !== null) && new Set(ids).size === ids.length ? ids : null;
}

const isScalar = (v: unknown): boolean => v === null || typeof v !== 'object';

const sorted = (xs: unknown[]) => xs.map((v) => JSON.stringify(v)).sort();

export function fieldDiff(type: string, before: unknown, after: unknown, ignore: IgnoreList): FieldDiff {
  const result: FieldDiff = { changes: [], ignored: 0 };
  walk(before, after, '', []);
  return result;

  function change(path: string, a: unknown, b: unknown): void {
    result.changes.push({ field: path || '(whole)', ...(a === undefined ? {} : { before: a }), ...(b === undefined ? {} : { after: b }) });
  }

  function walk(a: unknown, b: unknown, path: string, names: string[]): void {
    if (names.length > 0 && ignore.ignores(type, names)) {
      if (!sameJson(a, b)) result.ignored++;
      return;
    }
    if (isObject(a) && isObject(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      for (const k of keys) walk(a[k], b[k], path ? `${path}.${k}` : k, [...names, k]);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      const [ia, ib] = [idsOf(a), idsOf(b)];
      if (ia && ib) {
        const byId = new Map(a.map((x, i) => [ia[i]!, x]));
        const after = new Map(b.map((x, i) => [ib[i]!, x]));
        for (const id of [...new Set([...ib, ...ia])]) walk(byId.get(id), after.get(id), `${path}[${id}]`, names);
        return;
      }
      if (a.every(isScalar) && b.every(isScalar)) {
        if (!sameJson(sorted(a), sorted(b))) change(path, a, b);
        return;
      }
      if (a.length === b.length) {
        a.forEach((x, i) => walk(x, b[i], `${path}[${i}]`, names));
        return;
      }
    }
    if (!sameJson(a, b)) change(path, a, b);
  }
}
