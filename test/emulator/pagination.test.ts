import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { emulatorFor, get, listAll, raw } from '../support/http.js';

/** Each list endpoint's per_page limits, ordering and filters (docs/api-surface.md, answers beyond the spec: Paging). */
describe('pagination, ordering and filters', () => {
  let emu: RunningEmulator;
  let bigZone: { id: string; size: number };
  beforeAll(async () => {
    emu = await emulatorFor({ dataset: 'generated', generated: { seed: 3, accounts: 60, zones: 120, records: 30_000 } });
    const z = [...emu.org.state.zones].sort((a, b) => b.dns.size - a.dns.size)[0]!;
    bigZone = { id: z.id, size: z.dns.size };
  });
  afterAll(() => emu.close());

  it('accounts: default 20, clamped to 5..50, no total_pages', async () => {
    const dflt = await get(emu, '/accounts');
    expect(dflt.json.result).toHaveLength(20);
    expect(dflt.json.result_info).toEqual({ page: 1, per_page: 20, count: 20, total_count: 60 });
    expect((await get(emu, '/accounts?per_page=1')).json.result_info.per_page).toBe(5);
    const max = await get(emu, '/accounts?per_page=500');
    expect(max.json.result_info).toMatchObject({ per_page: 50, count: 50 });
    expect(max.json.result_info).not.toHaveProperty('total_pages');
  });

  it('accounts: direction only, in either case', async () => {
    const asc = (await get(emu, '/accounts?per_page=50&direction=ASC')).json.result.map((a: { name: string }) => a.name);
    const desc = (await get(emu, '/accounts?per_page=50&direction=desc')).json.result.map((a: { name: string }) => a.name);
    expect(asc[0]).toBe('Generated Account 0001');
    expect(desc[0]).toBe('Generated Account 0060');
    const ordered = await get(emu, '/accounts?order=name');
    expect(ordered.status).toBe(400);
    expect((await get(emu, '/accounts?direction=sideways')).status).toBe(400);
  });

  it('rejects page and per_page that are not positive whole numbers with 400 code 1004', async () => {
    for (const q of ['page=0', 'page=-1', 'page=abc', 'per_page=2.5', 'per_page=0', 'page=1e3']) {
      const r = await get(emu, `/zones?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.errors[0].code, q).toBe(1004);
    }
  });

  it('answers a page past the end with 200 and an empty result', async () => {
    const r = await get(emu, '/zones?page=999&per_page=50');
    expect(r.status).toBe(200);
    expect(r.json.result).toEqual([]);
    expect(r.json.result_info).toMatchObject({ page: 999, count: 0, total_count: 120, total_pages: 3 });
  });

  it('zones: total_pages, and paging covers every zone once', async () => {
    const first = await get(emu, '/zones?per_page=50');
    expect(first.json.result_info).toEqual({ page: 1, per_page: 50, count: 50, total_count: 120, total_pages: 3 });
    const all = (await listAll(emu, '/zones', 50)) as Array<{ id: string }>;
    expect(all).toHaveLength(120);
    expect(new Set(all.map((z) => z.id)).size).toBe(120);
  });

  it('zones: filters by account.id, name, status and match=any', async () => {
    const account = emu.org.state.accounts[0]!;
    const own = emu.org.state.zones.filter((z) => z.accountId === account.id);
    const byAccount = await get(emu, `/zones?account.id=${account.id}&per_page=50`);
    expect(byAccount.json.result_info.total_count).toBe(own.length);
    expect(byAccount.json.result.every((z: { account: { id: string } }) => z.account.id === account.id)).toBe(true);

    const target = emu.org.state.zones[7]!;
    const byName = await get(emu, `/zones?name=${target.name}`);
    expect(byName.json.result.map((z: { id: string }) => z.id)).toEqual([target.id]);
    const contains = await get(emu, `/zones?name=contains:${target.name.slice(0, 7)}&per_page=50`);
    expect(contains.json.result.map((z: { id: string }) => z.id)).toContain(target.id);

    const pending = emu.org.state.zones.filter((z) => z.status === 'pending').length;
    expect((await get(emu, '/zones?status=pending')).json.result_info.total_count).toBe(pending);
    const any = await get(emu, `/zones?match=any&name=${target.name}&status=pending&per_page=50`);
    expect(any.json.result_info.total_count).toBe(pending + (target.status === 'pending' ? 0 : 1));
    expect((await get(emu, '/zones?status=sleeping')).status).toBe(400);
  });

  it('zones: order by name, status, account.name and plan.id in both directions', async () => {
    const names = (await listAll(emu, '/zones?order=name&direction=desc', 50)).map((z) => (z as { name: string }).name);
    expect(names).toEqual([...names].sort().reverse());
    const statuses = (await listAll(emu, '/zones?order=status', 50)).map((z) => (z as { status: string }).status);
    expect(statuses).toEqual([...statuses].sort());
    const planIds = (await listAll(emu, '/zones?order=plan.id', 50)).map((z) => (z as { plan: { id: string } }).plan.id);
    expect(planIds).toEqual([...planIds].sort());
    expect((await get(emu, '/zones?order=created_on')).status).toBe(400);
  });

  it('DNS records: default 100, minimum 1, maximum 5,000,000 and total_pages', async () => {
    const dflt = await get(emu, `/zones/${bigZone.id}/dns_records`);
    expect(dflt.json.result_info).toMatchObject({ page: 1, per_page: 100, count: Math.min(100, bigZone.size), total_count: bigZone.size });
    expect(dflt.json.result_info.total_pages).toBe(Math.ceil(bigZone.size / 100));
    const one = await get(emu, `/zones/${bigZone.id}/dns_records?per_page=1&page=2`);
    expect(one.json.result).toHaveLength(1);
    const huge = await get(emu, `/zones/${bigZone.id}/dns_records?per_page=9000000`);
    expect(huge.json.result_info).toMatchObject({ per_page: 5_000_000, count: bigZone.size, total_pages: 1 });
  });

  it('DNS records: paging in small pages yields each record exactly once, in a stable order', async () => {
    const zone = emu.org.state.zones.find((z) => z.dns.size > 300 && z.dns.size < 3000)!;
    const pages = (await listAll(emu, `/zones/${zone.id}/dns_records`, 97)) as Array<{ id: string }>;
    const whole = (await get(emu, `/zones/${zone.id}/dns_records?per_page=5000`)).json.result as Array<{ id: string }>;
    expect(pages.map((r) => r.id)).toEqual(whole.map((r) => r.id));
    expect(new Set(whole.map((r) => r.id)).size).toBe(zone.dns.size);
  });

  it('DNS records: type filter (repeated or comma-separated), name filter and order', async () => {
    const zone = emu.org.state.zones.find((z) => z.dns.size > 200)!;
    const records = Array.from({ length: zone.dns.size }, (_, i) => zone.dns.at(i));
    const aOrMx = records.filter((r) => r.type === 'A' || r.type === 'MX').length;
    for (const q of ['type=A,MX', 'type=A&type=MX']) {
      const r = await get(emu, `/zones/${zone.id}/dns_records?${q}&per_page=5000`);
      expect(r.json.result_info.total_count, q).toBe(aOrMx);
    }
    const www = await get(emu, `/zones/${zone.id}/dns_records?name=www.${zone.name}`);
    expect(www.json.result.map((r: { type: string }) => r.type)).toEqual(['CNAME']);
    const byName = (await listAll(emu, `/zones/${zone.id}/dns_records?order=name&direction=desc`, 1000)).map((r) => (r as { name: string }).name);
    expect(byName).toEqual([...byName].sort().reverse());
    const byTtl = await get(emu, `/zones/${zone.id}/dns_records?order=ttl`);
    expect(byTtl.status).toBe(200);
    expect((await get(emu, `/zones/${zone.id}/dns_records?order=zone`)).status).toBe(400);
  });

  it('certificate packs: active only by default; status=all and ssl_status=all list every status', async () => {
    const zone = emu.org.state.zones.find((z) => z.certificatePacks.some((p) => p.status !== 'active'))!;
    const active = zone.certificatePacks.filter((p) => p.status === 'active').length;
    const dflt = await get(emu, `/zones/${zone.id}/ssl/certificate_packs`);
    expect(dflt.json.result_info).toMatchObject({ per_page: 20, total_count: active, total_pages: 1 });
    for (const q of ['status=all', 'ssl_status=all']) {
      const all = await get(emu, `/zones/${zone.id}/ssl/certificate_packs?${q}`);
      expect(all.json.result_info.total_count, q).toBe(zone.certificatePacks.length);
    }
    expect((await get(emu, `/zones/${zone.id}/ssl/certificate_packs?per_page=100`)).json.result_info.per_page).toBe(50);
    expect((await get(emu, `/zones/${zone.id}/ssl/certificate_packs?per_page=2`)).json.result_info.per_page).toBe(5);
  });

  it('single objects by id, and 404 for unknown ones', async () => {
    const zone = emu.org.state.zones[0]!;
    const record = zone.dns.at(0);
    const r = await get(emu, `/zones/${zone.id}/dns_records/${record.id}`);
    expect(r.json.result).toEqual(JSON.parse(JSON.stringify(record)));
    const missing = await raw(emu, 'GET', `/zones/${zone.id}/dns_records/ffffffffffffffffffffffffffffffff`);
    expect(missing.status).toBe(404);
    expect(missing.json.success).toBe(false);
  });
});
