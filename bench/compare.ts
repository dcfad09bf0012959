import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli-process.js';
import { startEmulatorProcess } from './emulator-process.js';
import { runSdkScript, type SdkRunResult } from './sdk/run-sdk.js';

/**
 * zonewarden's scan side by side with what users would write instead on the official SDK (a
 * plain script and a tuned one, bench/sdk/), against the same emulator: first with latency the
 * only limit, then under a rate budget tighter than the work, where the budget bounds the time.
 */

export const TOOLS = ['zonewarden', 'sdk-tuned', 'sdk-plain'] as const;
export type Tool = (typeof TOOLS)[number];

export interface ToolRun {
  tool: Tool;
  seconds: number;
  requests: number;
  rateLimited: number;
  peakRssMiB: number;
  completed: boolean;
  failure: string | null;
}

export const LATENCY_MS = 20;
export const CONCURRENCY = 8;

/** A budget of `limit` requests per `windowSeconds`, the emulator's limit and zonewarden's setting alike. */
export interface Budget {
  limit: number;
  windowSeconds: number;
}

interface ScanSummary {
  durationMs: number;
  zones: number;
  counts: Record<string, number>;
  requests: { total: number; rateLimited: number };
}

export async function zonewardenScan(base: string, db: string, budget: Budget | null): Promise<ToolRun & { summary: ScanSummary }> {
  // These emulators have no per-address limit (--ip-rate-limit 0), and zonewarden is told so, as it is told the budget.
  const pacing = [...(budget ? ['--budget', String(budget.limit), '--budget-window', String(budget.windowSeconds)] : ['--budget', '1000000']), '--per-second', '0'];
  const r = await runCli(['scan', '--db', db, '--concurrency', String(CONCURRENCY), '--format', 'json', '--quiet', ...pacing], {
    ZONEWARDEN_BASE_URL: base,
    ZONEWARDEN_API_TOKEN: 'emulator-token',
  });
  const completed = r.code === 0;
  const summary = completed ? (JSON.parse(r.out) as ScanSummary) : { durationMs: r.ms, zones: 0, counts: {}, requests: { total: 0, rateLimited: 0 } };
  return {
    tool: 'zonewarden',
    // From spawn to exit, as the SDK scripts are timed: Node's start-up and the final commit included.
    seconds: r.ms / 1000,
    requests: summary.requests.total,
    rateLimited: summary.requests.rateLimited,
    peakRssMiB: r.peakKiB / 1024,
    completed,
    failure: completed ? null : `exited with ${r.code}`,
    summary,
  };
}

function fromSdk(r: SdkRunResult): ToolRun {
  return { tool: r.kind === 'plain' ? 'sdk-plain' : 'sdk-tuned', seconds: r.seconds, requests: r.requests, rateLimited: r.rateLimited, peakRssMiB: r.peakRssMiB, completed: r.completed, failure: r.failure };
}

/** The two SDK scripts against an emulator already running (the one zonewarden scanned). */
export async function sdkRuns(base: string): Promise<ToolRun[]> {
  return [fromSdk(await runSdkScript('tuned', base)), fromSdk(await runSdkScript('plain', base))];
}

/**
 * A budget that makes the time about twice what latency alone would: the work spread over at
 * least four windows, so the budget, not the round trips, decides the pace. Windows of 5 s, or
 * of 1 s for work that latency alone would finish in a few seconds (the demo organisation).
 */
export function budgetFor(minimumRequests: number): Budget {
  const latency = latencyBoundSeconds(minimumRequests);
  const windowSeconds = latency < 10 ? 1 : 5;
  const windows = Math.max(4, Math.ceil((2 * latency) / windowSeconds));
  return { limit: Math.max(1, Math.floor(minimumRequests / windows)), windowSeconds };
}

/**
 * The least time `requests` take at the budget's rate. A client that spends each window's budget
 * as fast as latency allows (zonewarden's sliding window, src/api/pacer.ts) can finish up to one
 * window sooner: bench/pacing.ts holds it to that tighter bound.
 */
export function budgetBoundSeconds(requests: number, budget: Budget): number {
  return (requests * budget.windowSeconds) / budget.limit;
}

/** The least time `requests` round trips of LATENCY_MS can take, CONCURRENCY at a time. */
export function latencyBoundSeconds(requests: number): number {
  return (requests * LATENCY_MS) / 1000 / CONCURRENCY;
}

/** Each tool against a fresh emulator whose rate limit is the budget (so no run inherits another's window). */
export async function budgetRuns(datasetArgs: string[], budget: Budget): Promise<ToolRun[]> {
  const runs: ToolRun[] = [];
  for (const tool of TOOLS) {
    const emulator = await startEmulatorProcess([
      ...datasetArgs,
      '--latency',
      String(LATENCY_MS),
      '--rate-limit',
      String(budget.limit),
      '--rate-window',
      String(budget.windowSeconds),
      '--ip-rate-limit',
      '0',
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'zw-bench-budget-'));
    try {
      if (tool === 'zonewarden') runs.push(await zonewardenScan(emulator.base, join(dir, 'budget.db'), budget));
      else runs.push(fromSdk(await runSdkScript(tool === 'sdk-plain' ? 'plain' : 'tuned', emulator.base)));
    } finally {
      emulator.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return runs;
}
