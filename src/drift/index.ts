/** Drift between scans: what the diff command, reports and notifications use. */
export { acceptBaseline, currentBaseline, listBaselines } from './baselines.js';
export { chooseScans, diffScans, type DiffOptions, type ScanPair } from './diff.js';
export { DEFAULT_IGNORED_FIELDS, DriftConfigError, ignoreList, ignoreListFrom, type IgnoreList } from './ignore.js';
export type * from './result.js';
export type { FieldChange } from './fields.js';
