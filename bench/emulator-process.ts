import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The emulator in a process of its own, as users run it, so benchmarks never share its thread. Its
 * DNS world (the names the dataset's records point at) becomes the resolver of every zonewarden
 * the benchmark starts after it (ZONEWARDEN_RESOLVER), so that no benchmark asks real DNS.
 */
const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));

export async function startEmulatorProcess(args: string[]): Promise<{ base: string; pid: number; stop: () => void }> {
  const child = spawn(process.execPath, [CLI, 'emulator', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      const dns = /DNS world on (\S+)/.exec(out);
      if (m && dns) {
        process.env['ZONEWARDEN_RESOLVER'] = dns[1]!;
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  return { base, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

