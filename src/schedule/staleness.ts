import type { Db } from '../snapshot/db.js';
import { FULL_SCOPE, type ScanScope } from '../snapshot/scope.js';
import { lastCompleteScan, lastDelivered } from './run-log.js';

/**
 * Staleness: how old the last complete scan is against --max-age. `status` exits 1 on it; the
 * job sends a `stale` notification once per episode (not again until a complete scan ends it),
 * so a week of failing nights raises one stale alarm, beside each night's failure notice.
 */
export interface Staleness {
  stale: boolean;
  lastComplete: { id: number; finishedAt: string } | null;
  /**
   * Age of the last complete scan; with none yet, time since the first scan started (a new
   * install is not stale before it has had max-age to succeed); null when nothing has run.
   */
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

/**
 * Stale, and no stale notice delivered since the last complete scan (or ever, when there is
 * none). A database where nothing has run yet gets no notice: a scheduler starting on a new
 * install is not an alarm (status still exits 1 for monitoring).
 */
export function staleNoticeDue(db: Db, s: Staleness): boolean {
  if (!s.stale || s.ageMs === null) return false;
  const sent = lastDelivered(db, 'stale');
  return sent === null || (s.lastComplete !== null && Date.parse(sent) < Date.parse(s.lastComplete.finishedAt));
}
