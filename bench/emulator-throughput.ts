import autocannon from 'autocannon';
import { startEmulatorProcess } from './emulator-process.js';
import { cpus } from 'node:os';

/**
 * Requests per second the emulator serves for 50-item list pages, with the emulator alone in its
 * own process (one core: Node runs the handlers on one thread) and the load from this process.
 */
export interface ThroughputResult {
  route: string;
  requests: number;
  seconds: number;
  perSecond: number;
  p50ms: number;
  p99ms: number;
  errors: number;
}

/**
 * Load from autocannon, whose client is light enough not to be the bottleneck (a plain node:http
 * loop tops out below the emulator on 50 KB zone pages). Paths rotate so pages differ.
 */
async function load(base: string, paths: string[], seconds: number, concurrency: number): Promise<Omit<ThroughputResult, 'route'>> {
  const origin = new URL(base);
  const result = await autocannon({
    url: origin.origin,
    connections: concurrency,
    duration: seconds,
    headers: { authorization: 'Bearer emulator-token' },
    requests: paths.map((p) => ({ method: 'GET' as const, path: `${origin.pathname}${p}` })),
  });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    perSecond: result.requests.total / result.duration,
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

export async function emulatorThroughput(seconds = 5, concurrency = 16): Promise<ThroughputResult[]> {
  const emulator = await startEmulatorProcess(['--dataset', 'generated', '--zones', '2000', '--records', '200000', '--rate-limit', '0', '--ip-rate-limit', '0']);
  try {
    const zones = await fetch(`${emulator.base}/zones?per_page=50`, { headers: { authorization: 'Bearer emulator-token' } });
    const zoneIds = ((await zones.json()) as { result: Array<{ id: string }> }).result.map((z) => z.id);
    const cases: Array<[string, string[]]> = [
      ['GET /zones (per_page=50)', Array.from({ length: 40 }, (_, i) => `/zones?per_page=50&page=${i + 1}`)],
      ['GET /zones/{id}/dns_records (per_page=50)', zoneIds.map((id) => `/zones/${id}/dns_records?per_page=50`)],
    ];
    const results: ThroughputResult[] = [];
    for (const [route, paths] of cases) {
      await load(emulator.base, paths, 1, concurrency); // warm-up: JIT and keep-alive sockets
      results.push({ route, ...(await load(emulator.base, paths, seconds, concurrency)) });
    }
    return results;
  } finally {
    emulator.stop();
  }
}

export function throughputMarkdown(results: ThroughputResult[], concurrency = 16): string {
  const rows = results.map(
    (r) => `| ${r.route} | ${r.requests} | ${r.perSecond.toFixed(0)} | ${r.p50ms.toFixed(2)} | ${r.p99ms.toFixed(2)} | ${r.errors} |`,
  );
  return [
    '## Emulator throughput',
    '',
    `The emulator in its own process (one Node thread) on a generated organisation of 2,000 zones and`,
    `200,000 records, rate limits off; load from autocannon in a second process with ${concurrency} connections.`,
    `Target: at least 3,000 requests per second for 50-item list pages. CPU: ${cpus()[0]?.model ?? 'unknown'}.`,
    '',
    '| route | requests | requests/s | p50 ms | p99 ms | errors |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

export interface StartupResult {
  zones: number;
  records: number;
  millisecondsToListen: number;
  peakRssMiB: number;
}

/** Time from spawn to the "listening" line, and peak memory, for a large generated organisation. */
export async function generatedStartup(zones = 10_000, records = 1_000_000): Promise<StartupResult> {
  const started = performance.now();
  const emulator = await startEmulatorProcess(['--dataset', 'generated', '--zones', String(zones), '--records', String(records)]);
  const millisecondsToListen = performance.now() - started;
  // Ask for the largest zone's records in one page so that serving, not only start-up, is measured.
  const list = await fetch(`${emulator.base}/zones?per_page=50`, { headers: { authorization: 'Bearer emulator-token' } });
  const ids = ((await list.json()) as { result: Array<{ id: string }> }).result.map((z) => z.id);
  for (const id of ids) await (await fetch(`${emulator.base}/zones/${id}/dns_records?per_page=5000`, { headers: { authorization: 'Bearer emulator-token' } })).arrayBuffer();
  const status = await import('node:fs').then((fs) => fs.readFileSync(`/proc/${emulator.pid}/status`, 'utf8'));
  emulator.stop();
  const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return { zones, records, millisecondsToListen, peakRssMiB: hwm / 1024 };
}

export function startupMarkdown(r: StartupResult): string {
  return [
    '## Emulator start-up on a large generated organisation',
    '',
    `\`zonewarden emulator --dataset generated --zones ${r.zones} --records ${r.records}\`, then 50 DNS pages of up to 5,000 records.`,
    '',
    '| zones | records | spawn to "listening" | peak RSS |',
    '|---|---|---|---|',
    `| ${r.zones} | ${r.records} | ${(r.millisecondsToListen / 1000).toFixed(2)} s | ${r.peakRssMiB.toFixed(0)} MiB |`,
    '',
  ].join('\n');
}
