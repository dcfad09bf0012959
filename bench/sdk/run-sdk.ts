import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ItemKind, SdkScriptReport } from './read-organisation.js';

/**
 * Runs one of the SDK scripts in its own process, as a user would, measuring it the way
 * bench/cli-process.ts measures the CLI: wall time from spawn to exit (Node's start-up included)
 * and the high-water RSS sampled from /proc.
 */
export interface SdkRunResult {
  kind: 'plain' | 'tuned';
  seconds: number;
  requests: number;
  rateLimited: number;
  errors: number;
  items: Partial<Record<ItemKind, number>>;
  peakRssMiB: number;
  completed: boolean;
  failure: string | null;
}

export interface SdkRunOptions {
  /** Hard limit: the script is stopped and reported incomplete past it. Default 30 minutes. */
  timeoutMs?: number;
  /** Default: the emulator's token. */
  token?: string;
}

/** Time a stopped script has to print its counts before it is killed outright. */
const GRACE_MS = 5000;

function hwmKiB(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0; // exited between samples
  }
}

/** The environment without CLOUDFLARE_* variables, which the SDK would read. */
function scriptEnv(baseUrl: string, token: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CLOUDFLARE_')));
  return { ...env, ZONEWARDEN_BASE_URL: baseUrl, ZONEWARDEN_API_TOKEN: token };
}

function parseReport(stdout: string): SdkScriptReport | null {
  const line = stdout.trim().split('\n').pop();
  if (!line) return null;
  try {
    return JSON.parse(line) as SdkScriptReport;
  } catch {
    return null;
  }
}

/** Built beside this file in dist/; from the sources (as tests import it), in dist/ all the same. */
function scriptPath(kind: string): string {
  const sibling = fileURLToPath(new URL(`./${kind}.js`, import.meta.url));
  return existsSync(sibling) ? sibling : fileURLToPath(new URL(`../../dist/bench/sdk/${kind}.js`, import.meta.url));
}

export async function runSdkScript(kind: 'plain' | 'tuned', baseUrl: string, options: SdkRunOptions = {}): Promise<SdkRunResult> {
  const script = scriptPath(kind);
  const timeoutMs = options.timeoutMs ?? 30 * 60_000;
  const started = performance.now();
  const child = spawn(process.execPath, [script], { env: scriptEnv(baseUrl, options.token ?? 'emulator-token'), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  // Only the tail: a failing script's stack or the SDK's warnings, not a flood held in memory.
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  let peakKiB = 0;
  const sample = setInterval(() => (peakKiB = Math.max(peakKiB, hwmKiB(child.pid!))), 100);
  let timedOut = false;
  let kill: NodeJS.Timeout | undefined;
  const limit = setTimeout(() => {
    timedOut = true;
    // SIGTERM first: the script then prints how far it got.
    child.kill('SIGTERM');
    kill = setTimeout(() => child.kill('SIGKILL'), GRACE_MS);
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  }).finally(() => {
    clearInterval(sample);
    clearTimeout(limit);
    clearTimeout(kill);
  });
  const seconds = (performance.now() - started) / 1000;

  const report = parseReport(stdout);
  const failure = timedOut
    ? `stopped at the ${timeoutMs} ms limit`
    : report
      ? report.failure
      : `exited with ${code} and no report: ${stderr.trim().slice(-500)}`;
  return {
    kind,
    seconds,
    requests: report?.requests ?? 0,
    rateLimited: report?.rateLimited ?? 0,
    errors: report?.errors ?? 0,
    items: report?.items ?? {},
    peakRssMiB: Math.max(peakKiB, report?.maxRssKiB ?? 0) / 1024,
    completed: !timedOut && report?.completed === true,
    failure,
  };
}
