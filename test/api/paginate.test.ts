import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { LIST_ENDPOINTS, fillPath } from '../../src/api/endpoints.js';
import { ApiNetworkError } from '../../src/api/errors.js';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import { ArrayRecordStore } from '../../src/emulator/state.js';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/server.js';
import { caseDataset } from '../support/case-dataset.js';
import { clientFor, recordingLogger } from '../support/client.js';
import { emulatorFor } from '../support/http.js';

/** Lists against the emulator: the fewest calls, and the guards against broken paginators. */
let emu: RunningEmulator | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await emu?.close();
  client = emu = undefined;
});

async function setup(options: EmulatorOptions, clientOptions: Parameters<typeof clientFor>[1] = {}) {
  emu = await emulatorFor(options);
  client = clientFor(emu, clientOptions);
  return { emu, client };
}

const calls = (e: RunningEmulator, route: string) => e.stats().requests.byRoute[route] ?? 0;

/** One account with `accounts` siblings and a zone holding `rules` firewall rules. */
function sized(accounts: number, rules: number): DatasetFile {
  return {
    version: 1,
    accounts: Array.from({ length: accounts }, (_, i) => ({
      name: `Account ${String(i).padStart(3, '0')}`,
      zones:
        i === 0
          ? [
              {
                name: 'rules.example',
                plan: 'enterprise' as const,
                firewall_rules: Array.from({ length: rules }, (_, r) => ({ action: 'block', filter: { expression: `ip.src eq 198.51.100.${r % 250} and http.host eq "h${r}.rules.example"` } })),
              },
            ]
          : [],
    })),
  };
}

describe('the fewest calls', () => {
  it.each([
    [120, 3],
    [100, 2],
    [50, 1],
    [7, 1],
  ])('zones: %i zones at 50 a page take %i calls (total_pages, no trailing empty page)', async (zones, expected) => {
    const { emu, client } = await setup({ dataset: 'generated', generated: { zones, records: zones * 4, accounts: 3 } });
    const list = client.list('/zones', { perPage: 50 });
    expect(await list.all()).toHaveLength(zones);
    expect(calls(emu, 'GET /zones')).toBe(expected);
    expect(list.summary).toMatchObject({ pages: expected, items: zones, truncated: false, totalCount: zones });
  });

  it.each([
    [50, 1],
    [100, 2],
    [101, 3],
  ])('accounts (no total_pages): %i accounts take %i calls, stopping on total_count', async (accounts, expected) => {
    const { emu, client } = await setup({ dataset: sized(accounts, 1) });
    expect(await client.list('/accounts', { perPage: 50 }).all()).toHaveLength(accounts);
    expect(calls(emu, 'GET /accounts')).toBe(expected);
  });

  it.each([
    [100, 1],
    [200, 2],
    [201, 3],
  ])('firewall rules: %i rules at 100 a page take %i calls', async (rules, expected) => {
    const { emu, client } = await setup({ dataset: sized(1, rules) });
    const zone = emu.org.state.zones[0]!;
    const path = fillPath(LIST_ENDPOINTS.firewallRules.template, { zone_id: zone.id });
    expect(await client.list(path, { perPage: 100 }).all()).toHaveLength(rules);
    expect(calls(emu, 'GET /zones/{zone_id}/firewall/rules')).toBe(expected);
  });

  it('DNS records: one call per zone at the largest page size', async () => {
    const { emu, client } = await setup({ dataset: 'generated', generated: { zones: 10, records: 20_000 } });
    let total = 0;
    for (const zone of emu.org.state.zones) {
      total += (await client.list(`/zones/${zone.id}/dns_records`, { perPage: LIST_ENDPOINTS.dnsRecords.maxPerPage }).all()).length;
    }
    expect(total).toBe(20_000);
    expect(calls(emu, 'GET /zones/{zone_id}/dns_records')).toBe(10);
  });

  it('follows the page size the server used when it clamps per_page', async () => {
    const { emu, client } = await setup({ dataset: 'generated', generated: { zones: 120, records: 500 } });
    // Asking for 500 a page: the server serves 50, and the list must still cover every zone once.
    const zones = await client.list<{ id: string }>('/zones', { perPage: 500 }).all();
    expect(new Set(zones.map((z) => z.id)).size).toBe(120);
    expect(calls(emu, 'GET /zones')).toBe(3);
  });

  it('does not stop on a short page that is not the last, and reports the items the server never served', async () => {
    const logger = recordingLogger();
    const { emu } = await setup({ dataset: 'generated', generated: { zones: 30, records: 100 }, shortPages: true });
    client = clientFor(emu, { logger });
    const list = client.list('/zones', { perPage: 5 });
    // Every full page comes one short: a client that stops on a short page would read 4 zones.
    expect(await list.all()).toHaveLength(24);
    expect(calls(emu, 'GET /zones')).toBe(6);
    expect(list.summary).toMatchObject({ items: 24, totalCount: 30, shortfall: 6 });
    expect(logger.lines).toContain('warning: /zones: the server listed 30 items but served 24');
  });
});

describe('guards', () => {
  it('stops a list that repeats the same page, marks it truncated and warns', async () => {
    const logger = recordingLogger();
    const { emu } = await setup({ dataset: caseDataset(), repeatPage: true });
    client = clientFor(emu, { logger });
    const list = client.list('/zones', { perPage: 5 });
    expect(await list.all()).toHaveLength(5);
    expect(list.summary).toMatchObject({ truncated: true, truncatedReason: 'repeated-page', pages: 2 });
    expect(calls(emu, 'GET /zones')).toBe(2);
    expect(logger.lines).toContain('warning: /zones: page 2 repeats items already read; the list is incomplete');
  });

  it('stops at the page cap and says so', async () => {
    const { client } = await setup({ dataset: caseDataset() });
    const list = client.list('/zones', { perPage: 5, maxPages: 2 });
    expect(await list.all()).toHaveLength(10);
    expect(list.summary).toMatchObject({ truncated: true, truncatedReason: 'page-cap', pages: 2 });
  });

  it('notes a total_count that changes while paging, and drops items served twice when the list shifts', async () => {
    const logger = recordingLogger();
    const { emu } = await setup({ dataset: 'generated', generated: { zones: 1, records: 40 } });
    client = clientFor(emu, { logger });
    const zone = emu.org.state.zones[0]!;
    emu.org.addDnsRecord(zone, { ...zone.dns.at(0), id: 'ffffffffffffffffffffffffffffff00', name: `extra.${zone.name}` });
    const list = client.list<{ id: string }>(`/zones/${zone.id}/dns_records`, { perPage: 10 });
    const ids: string[] = [];
    let page = 0;
    for await (const items of list) {
      ids.push(...items.map((r) => r.id));
      if (++page === 1) {
        // A record inserted at the front while we page: the next page starts one item back.
        (zone.dns as ArrayRecordStore).records.unshift({ ...zone.dns.at(1), id: 'ffffffffffffffffffffffffffffff01', name: `new.${zone.name}` });
        emu.org.touch();
      }
    }
    expect(list.summary.totalCountChanged).toBe(true);
    expect(list.summary.duplicatesDropped).toBe(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(logger.lines).toContain(`warning: /zones/${zone.id}/dns_records: total_count changed from 41 to 42 while paging`);
  });

  it('fetches a page that times out again in smaller pages, and starts later lists small', async () => {
    const logger = recordingLogger();
    const { emu } = await setup({ dataset: 'generated', generated: { zones: 3, records: 3000 }, timeoutPerPage: 100 });
    // Pages over 100 are never answered, so any limit finds them; 2 s is only there so that a page of 50
    // that is answered (in milliseconds) never meets it on a busy machine.
    client = clientFor(emu, { logger, timeoutMs: 2000 });
    const [first, second] = [...emu.org.state.zones].sort((a, b) => b.dns.size - a.dns.size);
    const list = client.list<{ id: string }>(`/zones/${first!.id}/dns_records`, { perPage: 5_000_000, minPerPage: 1 });
    const records = await list.all();
    expect(records).toHaveLength(first!.dns.size);
    expect(new Set(records.map((r) => r.id)).size).toBe(first!.dns.size);
    // 5,000,000, 500,000, 50,000, 5,000 and 500 each time out; pages of 50 are served.
    expect(list.summary.perPage).toBe(50);
    expect(emu.stats().hung).toBe(5);
    expect(logger.lines.filter((l) => l.includes('a page timed out'))).toHaveLength(5);

    const again = await client.list(`/zones/${second!.id}/dns_records`, { perPage: 5_000_000, minPerPage: 1 }).all();
    expect(again).toHaveLength(second!.dns.size);
    expect(emu.stats().hung).toBe(5);
  });

  it('keeps the items of earlier pages when a later page fails for good, and throws', async () => {
    const started = await setup({ dataset: caseDataset() }, { retries: 1 });
    const list = started.client.list<{ id: string }>('/zones', { perPage: 5 });
    const got: string[] = [];
    let error: unknown;
    try {
      for await (const items of list) {
        got.push(...items.map((z) => z.id));
        // The server goes away after the first page.
        await started.emu.close();
      }
    } catch (err) {
      error = err;
    }
    expect(got).toHaveLength(5);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect((error as ApiNetworkError).attempts).toBe(2);
    emu = undefined;
  });
});
