import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listActions } from '../../src/actions/log.js';
import { runCli } from '../../src/cli/run.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { TEST_RESOLVER } from './cli.js';
import { TOKEN } from './http.js';

/**
 * The CLI run in this process, from argv to exit code, with its output collected: the same path
 * as the built binary (main.ts only binds the process), for tests of commands that change the
 * emulator and the database.
 */
export async function runInProcess(argv: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    // The emulators' loopback DNS world, unless the test names a resolver of its own.
    env: { ZONEWARDEN_RESOLVER: TEST_RESOLVER, ...env },
    cwd,
    stopSignal: new Promise<string>(() => {}),
  });
  return { code, stdout, stderr };
}

/**
 * A write command against an emulator, in a fresh directory with its own database (and config
 * file, when given): `run` adds the arguments, `actions` reads the audit log oldest first.
 */
export function writeCommand(emu: RunningEmulator, command: string[], config?: unknown) {
  const dir = mkdtempSync(join(tmpdir(), `zw-${command[0]}-`));
  if (config !== undefined) writeFileSync(join(dir, 'zonewarden.config.json'), JSON.stringify(config));
  const db = join(dir, 'zonewarden.db');
  const run = (...args: string[]) => runInProcess([...command, '--base-url', emu.url, '--db', db, '--budget', '1000000', ...args], { ZONEWARDEN_API_TOKEN: TOKEN }, dir);
  const actions = () => {
    const handle = openSnapshot(db);
    try {
      return listActions(handle).reverse();
    } finally {
      handle.close();
    }
  };
  return { dir, db, run, actions };
}

/** The emulator routes that were written to (anything but GET), for dry runs that must write nothing. */
export function writesTo(emu: RunningEmulator): string[] {
  return Object.keys(emu.stats().requests.byRoute).filter((route) => !route.startsWith('GET'));
}
