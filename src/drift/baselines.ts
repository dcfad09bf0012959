import { SnapshotError, type Db } from '../snapshot/db.js';
import type { Baseline } from './result.js';

/**
 * Accepted baselines: scans a person approved as the state to compare against. Accepting another
 * keeps the earlier ones (the history of what was approved, and when); the newest is the one
 * `diff --baseline` uses. Pruning never deletes a baseline's scan.
 */

type BaselineRow = { id: number; scan_id: number; accepted_at: string; note: string | null };

const toBaseline = (r: BaselineRow): Baseline => ({ id: r.id, scanId: r.scan_id, acceptedAt: r.accepted_at, note: r.note });

export function acceptBaseline(db: Db, scanId: number, note: string | null, at = new Date()): Baseline {
  return db
    .transaction((): Baseline => {
      const scan = db.prepare('SELECT status FROM scans WHERE id = ?').get(scanId) as { status: string } | undefined;
      if (!scan) throw new SnapshotError('ZW_SCAN_MISSING', `there is no scan ${scanId} in this database`);
      if (scan.status !== 'complete') {
        throw new SnapshotError('ZW_SCAN_UNUSABLE', `scan ${scanId} is ${scan.status}: a baseline must be a complete scan, so that everything in it was read`);
      }
      const info = db.prepare('INSERT INTO baselines (scan_id, accepted_at, note) VALUES (?, ?, ?)').run(scanId, at.toISOString(), note);
      return { id: Number(info.lastInsertRowid), scanId, acceptedAt: at.toISOString(), note };
    })
    .immediate();
}

/** Every accepted baseline, newest first. */
export function listBaselines(db: Db): Baseline[] {
  return (db.prepare('SELECT * FROM baselines ORDER BY id DESC').all() as BaselineRow[]).map(toBaseline);
}

export const currentBaseline = (db: Db): Baseline | null => listBaselines(db)[0] ?? null;
