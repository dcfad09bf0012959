import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../src/api/client.js';
import { COMMON_OPTIONS } from '../src/config/options.js';
import { runScan } from '../src/crawler/run-scan.js';
import { startEmulator } from '../src/emulator/server.js';
import { silentLogger } from '../src/common/logger.js';
import { openSnapshot } from '../src/snapshot/db.js';
import { runCli } from './cli-process.js';
import { CONCURRENCY, LATENCY_MS, type Budget } from './compare.js';
import { startEmulatorProcess } from './emulator-process.js';

/**
 * What users meet on the real API, which states its quota on every answer: `zonewarden scan`
 * with its default settings against the emulator's default quota (1,200 per 5 minutes, stated in
 * `Ratelimit-Policy`, and 200 a second from one address), against the same work unthrottled; a
 * budget that is the limit, against the least time a sliding window allows; and a storm of
 * injected 5xx, scan after scan with fixed fault seeds, against the same scans without faults.
 */

export interface TimedScan {
  seconds: number;
  requests: number;
  rateLimited: number;
  complete: boolean;
}

interface CliSummary {
  status: string;
  requests: { total: number; rateLimited: number };
}

/** `zonewarden scan` in its own process against a fresh emulator process (so no run inherits another's window). */
async function scanProcess(emulatorArgs: string[], scanArgs: string[]): Promise<TimedScan> {
  const emulator = await startEmulatorProcess([...emulatorArgs, '--latency', String(LATENCY_MS)]);
  const dir = mkdtempSync(join(tmpdir(), 'zw-bench-pacing-'));
  try {
    const r = await runCli(['scan', '--db', join(dir, 'pacing.db'), '--format', 'json', '--quiet', ...scanArgs], {
      ZONEWARDEN_BASE_URL: emulator.base,
      ZONEWARDEN_API_TOKEN: 'emulator-token',
    });
    const summary = r.out ? (JSON.parse(r.out) as CliSummary) : null;
    return { seconds: r.ms / 1000, requests: summary?.requests.total ?? 0, rateLimited: summary?.requests.rateLimited ?? 0, complete: r.code === 0 };
  } finally {
    emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export const SMALL_ORG = ['--dataset', 'generated', '--zones', '30', '--records', '3000'];
export const MEDIUM_ORG = ['--dataset', 'generated', '--zones', '1000', '--records', '100000'];
/** The fewest requests that read the medium organisation (its scale's section works it out from a scan). */
export const MEDIUM_MINIMUM_REQUESTS = 9912;
const UNTHROTTLED = ['--rate-limit', '0', '--ip-rate-limit', '0'];

export interface DefaultsResult {
  unthrottled: TimedScan[];
  stated: TimedScan[];
}

/**
 * Default settings against the emulator's default quota, and the same scan with no limit at all;
 * alternated, `repeats` times each, since the figure is a ratio of medians on a shared machine.
 */
export async function defaultsAgainstUnthrottled(dataset: string[], repeats: number): Promise<DefaultsResult> {
  const result: DefaultsResult = { unthrottled: [], stated: [] };
  for (let i = 0; i < repeats; i++) {
    result.unthrottled.push(await scanProcess([...dataset, ...UNTHROTTLED], []));
    result.stated.push(await scanProcess(dataset, []));
  }
  return result;
}

/**
 * The least time `requests` can take at CONCURRENCY in flight of LATENCY_MS each, when no more
 * than `budget.limit` may start in any window: each starts when one of the CONCURRENCY before it
 * has answered and a window after the one `limit` before it started.
 */
export function slidingWindowBoundSeconds(requests: number, budget: Budget): number {
  const latency = LATENCY_MS / 1000;
  const starts: number[] = [];
  for (let i = 0; i < requests; i++) {
    const byConcurrency = i >= CONCURRENCY ? starts[i - CONCURRENCY]! + latency : 0;
    const byWindow = i >= budget.limit ? starts[i - budget.limit]! + budget.windowSeconds : 0;
    starts.push(Math.max(byConcurrency, byWindow));
  }
  return requests === 0 ? 0 : starts[requests - 1]! + latency;
}

export interface BudgetLimitResult {
  budget: Budget;
  run: TimedScan;
  boundSeconds: number;
}

/** zonewarden told the server's own limit (`--budget` = the limit), the server stating it as the API does. */
export async function budgetIsTheLimit(dataset: string[], budget: Budget): Promise<BudgetLimitResult> {
  const run = await scanProcess(
    [...dataset, '--rate-limit', String(budget.limit), '--rate-window', String(budget.windowSeconds), '--ip-rate-limit', '0'],
    ['--budget', String(budget.limit), '--budget-window', String(budget.windowSeconds), '--per-second', '0', '--concurrency', String(CONCURRENCY)],
  );
  return { budget, run, boundSeconds: slidingWindowBoundSeconds(run.requests, budget) };
}

export interface StormResult {
  scans: number;
  complete: number;
  faultRate: number;
  faultsInjected: number;
  requests: number;
  retries: number;
  repaired: number;
  /** The same scans without faults. */
  faultFreeRequests: number;
  seconds: number;
  faultFreeSeconds: number;
  repairPauseMs: number;
}

const STORM_ORG = { seed: 7, accounts: 3, zones: 40, records: 4000 };
/** Scans at once: they wait on backoff far more than they compute. */
const STORM_PARALLEL = 4;
/** The repair pass's pause, shortened from the 30 s of the CLI so a hundred scans take minutes; faults here do not pass with time. */
const STORM_REPAIR_PAUSE_MS = 1000;

/** One scan in this process as `zonewarden scan` runs it with its default settings. */
async function stormScan(faultRate: number, faultSeed: number): Promise<{ complete: boolean; requests: number; retries: number; repaired: number; faults: number; seconds: number }> {
  const emulator = await startEmulator({ dataset: 'generated', generated: STORM_ORG, faultRate, faultSeed, rateLimit: 0, ipRateLimit: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'zw-bench-storm-'));
  const db = openSnapshot(join(dir, 'storm.db'));
  const d = (key: 'budget' | 'budgetWindow' | 'concurrency' | 'timeout' | 'retries' | 'retryWait'): number => COMMON_OPTIONS[key].default;
  const client = new ApiClient({
    baseUrl: emulator.url,
    credentials: { kind: 'token', token: 'emulator-token' },
    budget: d('budget'),
    budgetWindowMs: d('budgetWindow') * 1000,
    concurrency: d('concurrency'),
    timeoutMs: d('timeout') * 1000,
    retries: d('retries'),
    maxRetryWaitMs: d('retryWait') * 1000,
  });
  const started = performance.now();
  try {
    const outcome = await runScan({
      db,
      client,
      scope: { accounts: [], zones: [] },
      concurrency: d('concurrency'),
      logger: silentLogger,
      redact: (t) => t,
      repairPauseMs: STORM_REPAIR_PAUSE_MS,
    });
    const s = outcome.summary;
    return {
      complete: outcome.status === 'complete',
      requests: s.requests.total,
      retries: s.requests.retries,
      repaired: s.repairs.attempted,
      faults: emulator.stats().faultsInjected,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await client.close();
    db.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `scans` scans at `faultRate` injected 5xx (fault seeds 1..scans), and as many without faults. */
export async function faultStorm(scans: number, faultRate: number): Promise<StormResult> {
  const result: StormResult = {
    scans,
    complete: 0,
    faultRate,
    faultsInjected: 0,
    requests: 0,
    retries: 0,
    repaired: 0,
    faultFreeRequests: 0,
    seconds: 0,
    faultFreeSeconds: 0,
    repairPauseMs: STORM_REPAIR_PAUSE_MS,
  };
  const seeds = Array.from({ length: scans }, (_, i) => i + 1);
  const worker = async () => {
    for (let seed = seeds.shift(); seed !== undefined; seed = seeds.shift()) {
      const storm = await stormScan(faultRate, seed);
      const calm = await stormScan(0, seed);
      if (storm.complete) result.complete++;
      result.faultsInjected += storm.faults;
      result.requests += storm.requests;
      result.retries += storm.retries;
      result.repaired += storm.repaired;
      result.seconds += storm.seconds;
      result.faultFreeRequests += calm.requests;
      result.faultFreeSeconds += calm.seconds;
    }
  };
  await Promise.all(Array.from({ length: STORM_PARALLEL }, worker));
  return result;
}

export interface PacingResult {
  small: DefaultsResult;
  medium: BudgetLimitResult;
  storm: StormResult;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : NaN);
const s = (x: number) => `${x.toFixed(2)} s`;

export function pacingMarkdown(r: PacingResult): string {
  const u = r.small.unthrottled;
  const q = r.small.stated;
  const smallRatio = ratio(median(q.map((x) => x.seconds)), median(u.map((x) => x.seconds)));
  const m = r.medium;
  const mediumRatio = ratio(m.run.seconds, m.boundSeconds);
  const st = r.storm;
  const rows = (label: string, runs: TimedScan[]) =>
    `| ${label} | ${runs.map((x) => s(x.seconds)).join(', ')} | ${s(median(runs.map((x) => x.seconds)))} | ${median(runs.map((x) => x.requests))} | ${runs.reduce((n, x) => n + x.rateLimited, 0)} | ${runs.every((x) => x.complete) ? 'yes' : 'no'} |`;
  const lines = [
    '## Pacing and storms: what users meet on the API',
    '',
    '### The common case: default settings against a server that states its quota (30 zones, 3,000 records)',
    '',
    `\`zonewarden scan\` with no options, in its own process, against the emulator at ${LATENCY_MS} ms latency with its default`,
    'quota (1,200 requests per 300 s, stated in `Ratelimit-Policy` on every answer, and 200 a second from one address),',
    'then the same against an emulator with no limit at all; a fresh emulator for every run, the two alternated.',
    '',
    '| emulator | wall time of each run | median | requests | 429s | complete |',
    '|---|---|---|---|---|---|',
    rows('no limit', u),
    rows('default quota, stated', q),
    '',
    `Default settings against the unthrottled run of the same work: **${smallRatio.toFixed(2)} ×** (medians).`,
    '',
    `### The budget the limit (1,000 zones, 100,000 records): ${m.budget.limit} requests per ${m.budget.windowSeconds} s`,
    '',
    `The emulator enforces the limit and states it; zonewarden is told the same (\`--budget ${m.budget.limit} --budget-window ${m.budget.windowSeconds}\`,`,
    `concurrency ${CONCURRENCY}). The bound is the least time its ${m.run.requests} requests can take when no more than the limit may start in any`,
    `window and ${CONCURRENCY} are in flight at ${LATENCY_MS} ms each (a sliding window spent as fast as latency allows).`,
    '',
    '| requests | wall time | sliding-window bound | × bound | 429s | complete |',
    '|---|---|---|---|---|---|',
    `| ${m.run.requests} | ${s(m.run.seconds)} | ${s(m.boundSeconds)} | ${mediumRatio.toFixed(2)} | ${m.run.rateLimited} | ${m.run.complete ? 'yes' : 'no'} |`,
    '',
    `### A storm: ${Math.round(st.faultRate * 100)}% of answers a 500, 502 or 503 (40 zones, 4,000 records)`,
    '',
    `${st.scans} scans, fault seeds 1 to ${st.scans}, each with the default settings (4 retries, backoff from 0.5 s with jitter),`,
    `in process, ${STORM_PARALLEL} at a time; the repair pass after a pause of ${st.repairPauseMs / 1000} s rather than the CLI's 30 s, since injected faults`,
    'do not pass with time. Each is compared with the same scan without faults.',
    '',
    '| scans complete | faults injected | retries | reads repaired at the end | requests | fault-free requests | request overhead | time × fault-free |',
    '|---|---|---|---|---|---|---|---|',
    `| ${st.complete} / ${st.scans} | ${st.faultsInjected} | ${st.retries} | ${st.repaired} | ${st.requests} | ${st.faultFreeRequests} | ${ratio(st.requests, st.faultFreeRequests).toFixed(3)} × | ${ratio(st.seconds, st.faultFreeSeconds).toFixed(1)} × |`,
    '',
    '### Targets',
    '',
    '| target | goal | measured | met |',
    '|---|---|---|---|',
    `| small organisation, default settings / unthrottled | at most 1.25 | ${smallRatio.toFixed(2)} | ${smallRatio <= 1.25 ? 'yes' : 'no'} |`,
    `| medium organisation, budget the limit: wall / sliding-window bound | at most 1.10 | ${mediumRatio.toFixed(2)} | ${mediumRatio <= 1.1 ? 'yes' : 'no'} |`,
    `| 429s in these runs | 0 | ${[...u, ...q, m.run].reduce((n, x) => n + x.rateLimited, 0)} | ${[...u, ...q, m.run].every((x) => x.rateLimited === 0) ? 'yes' : 'no'} |`,
    `| scans complete at ${Math.round(st.faultRate * 100)}% 5xx | ${st.scans} / ${st.scans} | ${st.complete} / ${st.scans} | ${st.complete === st.scans ? 'yes' : 'no'} |`,
    '',
  ];
  return lines.join('\n');
}
