import type { Db } from '../snapshot/db.js';
import { FULL_SCOPE, type ScanScope } from '../snapshot/scope.js';
import { lastCompleteScan, lastDelivered } from './run-log.js';

/** Staleness: the last complete scan's age against --max-age; one `stale` notice per episode, not per night. */
export interface Staleness {
  stale: boolean;
  lastComplete: { id: number; finishedAt: string } | null;
  /** Age of the last complete scan, else time since the first scan started; null when nothing has run. */
  ageMs: number | null;
  maxAgeMs: number;
}

export function staleness(db: Db, maxAgeMs: number, now = new Date(), scope: ScanScope = FULL_SCOPE): Staleness {
  const lastComplete = lastCompleteScan(db, scope);
  const first = db.prepare('SELECT min(started_at) AS at FROM scans').get() as { at: string | null };
  const since = lastComplete?.finishedAt ?? first.at;
  const ageMs = since === null ? null : now.getTime() - Date.parse(since);
  return { stale: ageMs === null || ageMs > maxAgeMs, lastComplete, ageMs, maxAgeMs };
}

/** Stale with no stale notice since the last complete scan; never where nothing has run (a new install is no alarm). */
export function staleNoticeDue(db: Db, s: Staleness): boolean {
  if (!s.stale || s.ageMs === null) return false;
  const sent = lastDelivered(db, 'stale');
  return sent === null || (s.lastComplete !== null && Date.parse(sent) < Date.parse(s.lastComplete.finishedAt));
}
