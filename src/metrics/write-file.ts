import { accessSync, closeSync, constants, fchmodSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes the metrics file whole or not at all: a synced temporary file beside it (the textfile
 * collector reads only .prom files) renamed over it, so a scrape never reads half. World-readable:
 * the collector runs as another user.
 */
export function writeMetricsFile(path: string, text: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    const fd = openSync(temp, 'w', 0o644);
    try {
      // Whatever the umask (the unit sets 0027): the collector must read it.
      fchmodSync(fd, 0o644);
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/** Checked before a job starts, to be a usage error now rather than a warning after tonight's run. Null when writable. */
export function metricsPathProblem(path: string): string | null {
  const dir = dirname(path);
  let stat;
  try {
    stat = statSync(dir);
  } catch {
    return `--metrics-file ${path}: the directory ${dir} does not exist; create it or name another (for node exporter: its --collector.textfile.directory)`;
  }
  if (!stat.isDirectory()) return `--metrics-file ${path}: ${dir} is not a directory`;
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return `--metrics-file ${path}: this user cannot create files in ${dir}; give it write access (docs/monitoring.md) or name another directory`;
  }
  return null;
}
