import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/** Runs the CLI in its own process, sampling its high-water RSS until it exits. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; peakKiB: number; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  let peakKiB = 0;
  const sample = setInterval(() => {
    try {
      const hwm = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
      peakKiB = Math.max(peakKiB, hwm);
    } catch {
      // exited between samples
    }
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(sample);
  return { code, out, peakKiB, ms: performance.now() - started };
}

