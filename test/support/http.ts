import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/server.js';
import { caseDataset } from './case-dataset.js';

/**
 * Raw HTTP against a real emulator on loopback, deliberately not through the project's API
 * client: conformance tests must see exactly what goes over the wire.
 */
export const TOKEN = 'emulator-token';
export const AUTH = { authorization: `Bearer ${TOKEN}` };
/** A fixed clock so that dataset times are the same in every run. */
export const NOW = new Date('2026-11-01T12:00:00.000Z');

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export async function raw(
  emulator: RunningEmulator,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; auth?: boolean; signal?: AbortSignal } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...(options.auth === false ? {} : AUTH), ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const url = path.startsWith('/__emulator') ? `${emulator.origin}${path}` : `${emulator.url}${path}`;
  const res = await fetch(url, { method, headers, body, signal: options.signal ?? null });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export function get(emulator: RunningEmulator, path: string) {
  return raw(emulator, 'GET', path);
}

/** `--organization ID` for each organisation with a pending invite: what `invites accept --all` needs to accept them all. */
export async function pendingOrganizationFlags(emulator: RunningEmulator): Promise<string[]> {
  const invites = (await get(emulator, '/user/invites')).json.result as Array<{ status: string; organization_id: string }>;
  return invites.filter((i) => i.status === 'pending').flatMap((i) => ['--organization', i.organization_id]);
}

/**
 * Starts an emulator for a test; the clock is fixed, and rate limits are off unless a test asks
 * for them (clients pace themselves on the quota headers, which would slow unrelated tests). The
 * organisation is the tests' own (case-dataset.ts) unless the test names another.
 */
export async function emulatorFor(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ dataset: caseDataset(), now: NOW, ipRateLimit: 0, rateLimit: 0, ...options });
}

type OptionsSource = EmulatorOptions | (() => EmulatorOptions);

/**
 * Registers hooks that start an emulator (with `start`) and close it again (with `stop`), and
 * returns an accessor to the running one; `who` names the helper in the accessor's error.
 */
function emulatorLifecycle(
  options: OptionsSource,
  start: (fn: () => Promise<void>) => void,
  stop: (fn: () => Promise<void>) => void,
  who: string,
): () => RunningEmulator {
  let current: RunningEmulator | undefined;
  start(async () => {
    current = await emulatorFor(typeof options === 'function' ? options() : options);
  });
  stop(async () => {
    await current?.close();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error(`emulator not started: ${who}() gives the emulator only inside the tests and hooks of its describe`);
    return current;
  };
}

/** A fresh emulator for each test of the enclosing describe, so state changes must not leak between tests. */
export function freshEmulatorPerTest(options: OptionsSource): () => RunningEmulator {
  return emulatorLifecycle(options, beforeEach, afterEach, 'freshEmulatorPerTest');
}

/** One emulator for the whole enclosing describe: read-only suites share one server. */
export function emulatorPerDescribe(options: OptionsSource): () => RunningEmulator {
  return emulatorLifecycle(options, beforeAll, afterAll, 'emulatorPerDescribe');
}

/** The zone of the emulator's organisation with this name (ids are derived, so tests look them up). */
export function zoneId(emulator: RunningEmulator, name: string): string {
  const zone = emulator.org.state.zones.find((z) => z.name === name);
  if (!zone) throw new Error(`no zone ${name} in this dataset`);
  return zone.id;
}

/** Every item of a list, page by page, checking result_info on the way. */
export async function listAll(emulator: RunningEmulator, path: string, perPage: number): Promise<unknown[]> {
  const items: unknown[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 1; page < 10_000; page++) {
    const r = await get(emulator, `${path}${sep}page=${page}&per_page=${perPage}`);
    if (r.status !== 200) throw new Error(`${path} page ${page}: HTTP ${r.status} ${r.text.slice(0, 200)}`);
    items.push(...r.json.result);
    if (items.length >= r.json.result_info.total_count) break;
  }
  return items;
}

/**
 * For tests that start emulators with different options each: `start` them freely, and every
 * one is closed after its test.
 */
export function emulatorsClosedAfterEach(): (options?: EmulatorOptions) => Promise<RunningEmulator> {
  const started: RunningEmulator[] = [];
  afterEach(async () => {
    for (const emu of started.splice(0)) await emu.close();
  });
  return async (options = {}) => {
    const emu = await emulatorFor(options);
    started.push(emu);
    return emu;
  };
}
