/**
 * Defensive readers of the API's raw JSON fields: the API adds and drops fields and sends null where strings are
 * usual, so a missing or oddly typed field becomes null (empty for containers) and the caller decides.
 */

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
export const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const strings = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string');
/** A list's items, each read as an object. */
export const objects = (v: unknown): Array<Record<string, unknown>> => arr(v).map(obj);

/** A timestamp as the API writes it (ISO 8601); null when absent or not a date. */
export function date(v: unknown): Date | null {
  const s = str(v);
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A stored raw item as an object: {} when it is not valid JSON or not an object. */
export function parseJson(raw: string): Record<string, unknown> {
  try {
    return obj(JSON.parse(raw));
  } catch {
    return {};
  }
}
