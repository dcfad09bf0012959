import { obj, strings } from './fields.js';

/** An item's fields as the snapshot's columns store them (text, integers, booleans as 0 or 1) and drift names them. */

export type Item = Record<string, unknown>;

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : v === undefined || v === null ? null : String(v));
export const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : null);
export const bool = (v: unknown): number | null => (typeof v === 'boolean' ? (v ? 1 : 0) : null);
export { obj, strings };
/** An item's identity: its `id`, or the whole item where it has none. */
export const byId = (item: Item): string => str(item['id']) ?? JSON.stringify(item);
/** A non-empty string, else null (what a person can be shown as a name). */
export const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
