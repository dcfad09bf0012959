import { accessSync, closeSync, constants, fchmodSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes the metrics file whole or not at all: the text goes to a temporary file beside it, is
 * synced, and is renamed over the old one. A node exporter's textfile collector reads only files
 * ending in .prom, so it never sees the temporary one, and a rename within a directory replaces
 * the file at once: a scrape reads the old metrics or the new, never half of either. The file is
 * world-readable (0644): the collector runs as another user.
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

/**
 * Checked before a job starts: a metrics file that cannot be written is a usage error now, not a
 * warning after tonight's run. Null when it can be written, else what is wrong and how to fix it.
 */
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
