/**
 * Reading fields of an item as the API served it. Tolerant of missing and oddly typed fields: the
 * API adds and drops fields, and null turns up where strings are usual.
 */

export type Item = Record<string, unknown>;

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : v === undefined || v === null ? null : String(v));
export const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : null);
export const bool = (v: unknown): number | null => (typeof v === 'boolean' ? (v ? 1 : 0) : null);
export const obj = (v: unknown): Item => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Item) : {});
/** An item's identity: its `id`, or the whole item where it has none. */
export const byId = (item: Item): string => str(item['id']) ?? JSON.stringify(item);
/** A non-empty string, else null (what a person can be shown as a name). */
export const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
/** The strings of an array, none when it is not one. */
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
