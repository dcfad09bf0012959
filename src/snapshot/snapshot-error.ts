import { ZonewardenError } from '../common/errors.js';

/** The database cannot be used: missing, not ours, corrupt, newer, or busy (made by db.ts and failures.ts). */
export class SnapshotError extends ZonewardenError {}
