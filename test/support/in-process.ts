import { runCli } from '../../src/cli/run.js';

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
    env,
    cwd,
    stopSignal: new Promise<string>(() => {}),
  });
  return { code, stdout, stderr };
}
