import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { worldDnsServer } from '../../src/emulator/dns/shared.js';

/** The built CLI, as users run it (`npm test` builds dist/ first). */
export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/**
 * What every CLI run of the tests resolves DNS targets through (ZONEWARDEN_RESOLVER, unless a test
 * sets its own): the emulators' loopback DNS world, so that no scan of a test asks the system's
 * resolvers, nor the internet through them.
 */
export const TEST_RESOLVER = (await worldDnsServer()).address;

/** The environment of a CLI run: PATH, the loopback resolver, then the test's own. */
export function cliEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'], ZONEWARDEN_RESOLVER: TEST_RESOLVER, ...env };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

// A ceiling against a hung run, not a speed target: on a busy machine a CLI run has taken over
// 30 s (issue 32 item 8), so it stays under vitest's 120 s per test.
const CLI_CEILING_MS = 110_000;

/**
 * A CLI run from argv to exit code, in this process (src/cli/run.ts, the function the built
 * binary's main.ts binds to the process), with the environment a spawned run would have: PATH,
 * the loopback resolver, then the test's own. No process start (about 0.3 s of CPU each, two
 * hundred runs in the suite) where the process itself is not what a test proves; those that prove
 * the process (signals, exit on a kill, stdout into a closed pipe, the built bundle) use
 * runCliProcess, startCli or cliProcessesKilledAfterEach, and run in `npm run test:full`.
 */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = CLI_CEILING_MS): Promise<CliResult> {
  const { runCli: runInThisProcess } = await import('../../src/cli/run.js');
  let stdout = '';
  let stderr = '';
  let timer: NodeJS.Timeout | undefined;
  const ceiling = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`zonewarden ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`)), timeoutMs);
  });
  try {
    const code = await Promise.race([
      runInThisProcess(args, {
        stdout: (t) => (stdout += t),
        stderr: (t) => (stderr += t),
        env: cliEnv(env),
        cwd: process.cwd(),
        stopSignal: new Promise<string>(() => {}),
      }),
      ceiling,
    ]);
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

/** A CLI run as its own process of the built binary (dist/cli/main.js), as users run it. */
export function runCliProcess(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = CLI_CEILING_MS): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`zonewarden ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts a long-running command and resolves with its first stdout line. */
export function startCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ child: ChildProcess; firstLine: string; output: () => { stdout: string; stderr: string } }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(options.cwd ? { cwd: options.cwd } : {}), env: cliEnv(options.env ?? process.env) });
    let stdout = '';
    let stderr = '';
    const output = () => ({ stdout, stderr });
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      stdout += d;
      const nl = stdout.indexOf('\n');
      if (nl >= 0) resolve({ child, firstLine: stdout.slice(0, nl), output });
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before printing a line: ${stderr}`)));
  });
}

export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.on('exit', (code) => resolve(code));
  });
}
