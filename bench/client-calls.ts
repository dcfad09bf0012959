import { ApiClient } from '../src/api/client.js';
import { fillPath, LIST_ENDPOINTS, type ListEndpoint } from '../src/api/endpoints.js';
import { startEmulatorProcess } from './emulator-process.js';

/**
 * Calls the API client makes to read every list of a generated organisation (accounts, zones,
 * and per zone DNS records, certificate packs, firewall rules and filters), against the least
 * possible: the sum over lists of ceil(items / the endpoint's largest page), at least one each.
 */
export interface CallsResult {
  zones: number;
  records: number;
  lists: number;
  calls: number;
  minimum: number;
  seconds: number;
}

export async function clientCalls(zones = 1000, records = 100_000): Promise<CallsResult> {
  const emulator = await startEmulatorProcess(['--dataset', 'generated', '--zones', String(zones), '--records', String(records), '--rate-limit', '0', '--ip-rate-limit', '0']);
  const client = new ApiClient({
    baseUrl: emulator.base,
    credentials: { kind: 'token', token: 'emulator-token' },
    budget: 1_000_000,
    budgetWindowMs: 300_000,
    // The emulator has no per-address limit (--ip-rate-limit 0).
    perSecond: 0,
    concurrency: 8,
    timeoutMs: 60_000,
    retries: 4,
    maxRetryWaitMs: 60_000,
  });
  let minimum = 0;
  let lists = 0;
  const read = async (endpoint: ListEndpoint, params: Record<string, string>) => {
    const list = client.list<{ id: string }>(fillPath(endpoint.template, params), { perPage: endpoint.maxPerPage, minPerPage: endpoint.minPerPage, query: endpoint.query ?? {} });
    const items = await list.all();
    lists++;
    minimum += Math.max(1, Math.ceil(items.length / endpoint.maxPerPage));
    return items;
  };
  const started = performance.now();
  try {
    await read(LIST_ENDPOINTS.accounts, {});
    const zoneList = await read(LIST_ENDPOINTS.zones, {});
    const perZone = [LIST_ENDPOINTS.dnsRecords, LIST_ENDPOINTS.certificatePacks, LIST_ENDPOINTS.firewallRules, LIST_ENDPOINTS.filters];
    // Eight zones at a time, as a crawler would.
    for (let i = 0; i < zoneList.length; i += 8) {
      await Promise.all(zoneList.slice(i, i + 8).flatMap((z) => perZone.map((e) => read(e, { zone_id: z.id }))));
    }
    return { zones, records, lists, calls: client.snapshotStats().total.requests, minimum, seconds: (performance.now() - started) / 1000 };
  } finally {
    await client.close();
    emulator.stop();
  }
}

export function callsMarkdown(r: CallsResult): string {
  return [
    '## API client: calls made against the minimum',
    '',
    `Every list of a generated organisation (${r.zones} zones, ${r.records} DNS records): accounts, zones, and per zone`,
    'DNS records, certificate packs (every status), firewall rules and filters, read with the client at',
    'each endpoint\'s largest page. Minimum: the sum over lists of ceil(items / largest page), at least one call each.',
    '',
    '| lists | calls made | minimum | ratio | wall time |',
    '|---|---|---|---|---|',
    `| ${r.lists} | ${r.calls} | ${r.minimum} | ${(r.calls / r.minimum).toFixed(3)} | ${r.seconds.toFixed(1)} s |`,
    '',
  ].join('\n');
}
