import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach } from 'vitest';
import { CLI, cliEnv, exited } from './cli.js';

/** CLI processes that run until a test stops them, their output collected; any left running are killed after each test. */
export function cliProcessesKilledAfterEach(defaultEnv: NodeJS.ProcessEnv): (args: string[], env?: NodeJS.ProcessEnv) => { child: ChildProcess; output: () => { stdout: string; stderr: string } } {
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited(child);
      }
    }
  });
  return (args, env = defaultEnv) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    return { child, output: () => ({ stdout, stderr }) };
  };
}

export { waitFor } from './wait.js';

/** Reads the file as another process would while a scan writes it, changing nothing. */
export function peek<T>(path: string, fn: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true });
  try {
    db.pragma('busy_timeout = 5000');
    return fn(db);
  } finally {
    db.close();
  }
}

/** A scan's status; undefined until the scan's process has created the file, its schema and the row. */
export function statusOf(path: string, id: number): string | undefined {
  if (!existsSync(path)) return undefined;
  return peek(path, (db) => {
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'scans'").get()) return undefined;
    return (db.prepare('SELECT status FROM scans WHERE id = ?').get(id) as { status: string } | undefined)?.status;
  });
}
