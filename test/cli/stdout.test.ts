import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The built module, as the CLI runs it (npm test builds dist/ first). */
const MODULE = fileURLToPath(new URL('../../dist/src/cli/stdout.js', import.meta.url));

/** A child that writes `chunks` chunks of 1 MB (a letter each) with writeStdout, then says so on stderr. */
function writer(chunks: number) {
  const script = `
    const { writeStdout } = await import(${JSON.stringify(MODULE)});
    for (let i = 0; i < ${chunks}; i++) writeStdout(String.fromCharCode(97 + i).repeat(2 ** 20));
    process.stderr.write('written');`;
  return spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('standard output', () => {
  it('returns from a write only once a slow pipe has taken it, and loses nothing', async () => {
    // A pipe holds 64 KB (pipe(7)): 8 MB cannot all be taken before the reader reads.
    const child = writer(8);
    child.stdout.pause();
    let resumedAt = 0;
    let writtenAt = 0;
    child.stderr.on('data', () => (writtenAt = Date.now()));
    const chunks: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    setTimeout(() => {
      resumedAt = Date.now();
      child.stdout.resume();
    }, 300);
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(writtenAt).toBeGreaterThanOrEqual(resumedAt);
    const out = Buffer.concat(chunks).toString();
    expect(out.length).toBe(8 * 2 ** 20);
    expect([...new Set(out)].join('')).toBe('abcdefgh');
  });

  it('drops the rest quietly once the reader has gone (zonewarden audit | head)', async () => {
    const child = writer(8);
    child.stdout.once('data', () => child.stdout.destroy());
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stderr).toBe('written');
  });
});
