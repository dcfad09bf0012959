import type { Db } from '../snapshot/db.js';
import type { ScanScope } from '../snapshot/scope.js';
import { collectMetrics } from './collect.js';
import { renderExposition } from './exposition.js';
import { writeMetricsFile } from './write-file.js';

/** The database's metrics as exposition text (the metrics command, and the file the nightly job writes). */
export function metricsText(db: Db, scope: ScanScope, maxAgeMs: number, now = new Date()): string {
  return renderExposition(collectMetrics(db, { now, scope, maxAgeMs }));
}

/** The nightly job's metrics file: writing it is never the run's failure, as a webhook is not; a warning says what failed. */
export function publishMetrics(db: Db, path: string, scope: ScanScope, maxAgeMs: number, io: { warn: (line: string) => void; redact: (text: string) => string }): boolean {
  try {
    // Redacted again, as everything printed is: the file bypasses the CLI's redacting stdout.
    writeMetricsFile(path, io.redact(metricsText(db, scope, maxAgeMs)));
    return true;
  } catch (err) {
    io.warn(`warning: --metrics-file: the metrics could not be written to ${path}: ${(err as Error).message}\n`);
    return false;
  }
}
