import type { ResourceChange, ResourceChangeKind } from '../drift/result.js';
import { label, valueText } from '../drift/words.js';

/**
 * The HTML report's configuration drift grouped by zone and resource type, so that a night with 20,000
 * changed records reads as a few lines with counts, not a page 17,000 px tall. A larger group is
 * collapsed behind its counts and lists GROUP_ITEMS of its changes (`zonewarden diff` lists them all).
 */

/** A group with at most this many changes is shown open. */
export const OPEN_GROUP = 3;
/** Changes listed in one group. */
export const GROUP_ITEMS = 50;

export interface DriftGroup {
  zone: string;
  type: string;
  counts: Record<ResourceChangeKind, number>;
  total: number;
  open: boolean;
  items: Array<{ change: ResourceChangeKind; what: string; fields: Array<{ field: string; before: string; after: string }> }>;
  more: number;
}

const shown = (value: unknown) => valueText(value, 120);

export function driftGroups(changes: readonly ResourceChange[]): DriftGroup[] {
  const groups = new Map<string, DriftGroup>();
  for (const c of changes) {
    const key = `${c.zone?.id ?? ''}\u0000${c.type}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { zone: c.zone ? (c.zone.name ?? c.zone.id) : '', type: label(c.type), counts: { added: 0, removed: 0, changed: 0 }, total: 0, open: false, items: [], more: 0 }));
    group.counts[c.change]++;
    group.total++;
    if (group.items.length < GROUP_ITEMS) group.items.push({ change: c.change, what: c.name ?? c.id, fields: (c.fields ?? []).map((f) => ({ field: f.field, before: shown(f.before), after: shown(f.after) })) });
    else group.more++;
  }
  // Most changed first: that is where to look.
  return [...groups.values()]
    .map((g) => ({ ...g, open: g.total <= OPEN_GROUP }))
    .sort((a, b) => b.total - a.total || a.zone.localeCompare(b.zone) || a.type.localeCompare(b.type));
}
