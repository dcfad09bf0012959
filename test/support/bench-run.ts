import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built benchmark (`npm run bench` runs dist/bench/run.js; `npm test` builds dist/ first). */
const RUN = fileURLToPath(new URL('../../dist/bench/run.js', import.meta.url));

/** `npm run bench -- <args>` as its own process, its output collected. */
export function bench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [RUN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
