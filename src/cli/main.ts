#!/usr/bin/env node
import { runCli } from './run.js';

const stopSignal = new Promise<string>((resolve) => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(signal));
});

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
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
