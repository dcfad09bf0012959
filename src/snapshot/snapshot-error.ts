import { ZonewardenError } from '../common/errors.js';

/**
 * The database cannot be used: missing, not ours, corrupt, newer, or busy. In a module of its own
 * because both the opening (db.ts) and the reading of SQLite's failures (failures.ts) make one.
 */
export class SnapshotError extends ZonewardenError {
  constructor(code: string, message: string) {
    super(code, message);
  }
}
