import { ApiClient, type ApiClientOptions } from '../../src/api/client.js';
import type { Logger } from '../../src/common/logger.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { TOKEN } from './http.js';

/** A client for the emulator with generous limits and quick retries, unless a test says otherwise. */
export function clientFor(emu: RunningEmulator, overrides: Partial<ApiClientOptions> = {}): ApiClient {
  return new ApiClient({
    baseUrl: emu.url,
    credentials: { kind: 'token', token: TOKEN },
    budget: 100_000,
    budgetWindowMs: 300_000,
    // The test emulators set no per-address limit unless a test says so.
    perSecond: 0,
    concurrency: 4,
    timeoutMs: 5000,
    retries: 4,
    maxRetryWaitMs: 60_000,
    backoffBaseMs: 20,
    ...overrides,
  });
}

/** A logger that keeps its lines, to assert on warnings and on what never appears. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    level: 'verbose',
    lines,
    info: (m) => lines.push(`info: ${m}`),
    warn: (m) => lines.push(`warning: ${m}`),
    debug: (m) => lines.push(`debug: ${m}`),
  };
}
