#!/usr/bin/env node
import { runCli } from './run.js';
import { writeStdout } from './stdout.js';

/**
 * SIGINT or SIGTERM asks the running command to stop cleanly; another one later kills the process at once. A second
 * within a second is the same request delivered twice (systemd signals every process of a service, npm passes its
 * own on to its child, a terminal's Ctrl-C reaches npx and zonewarden alike), not impatience.
 */
const DUPLICATE_WINDOW_MS = 1000;
const stopSignal = new Promise<string>((resolve) => {
  let first = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (first === 0) {
      first = Date.now();
      resolve(signal);
    } else if (Date.now() - first > DUPLICATE_WINDOW_MS) {
      process.stderr.write(`zonewarden: ${signal} again: stopping at once\n`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, onSignal);
});

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => writeStdout(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  stderrIsTTY: process.stderr.isTTY === true,
  stopSignal,
});
process.exitCode = code;
// Long-running commands resolve only after the signal; the others are done here. Exit explicitly
// so that a lingering handle (a keep-alive socket) cannot keep the process alive.
process.stdout.write('', () => process.exit(code));
