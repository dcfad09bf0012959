import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/server.js';

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

/** Starts an emulator for a test file; the clock is fixed and per-second limiting off unless asked. */
export async function emulatorFor(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ now: NOW, ipRateLimit: 0, ...options });
}

/** The demo zone with this name (ids are derived, so tests look them up). */
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
