import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/server.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorFor, get, raw, zoneId } from '../support/http.js';

/** Rate limits, injected faults and the counters tests and benchmarks read. */
let emu: RunningEmulator | undefined;
async function start(options: EmulatorOptions): Promise<RunningEmulator> {
  emu = await emulatorFor({ dataset: caseDataset(), ...options });
  return emu;
}
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Asks `path` and waits until the emulator has counted it hung (the `hung`-th), then a while more,
 * and expects no answer: the client gives up only after the server has taken the request, so a
 * busy machine cannot make the client's own time limit come first.
 */
async function expectHung(e: RunningEmulator, path: string, hung: number): Promise<void> {
  const controller = new AbortController();
  let answered = false;
  const asked = raw(e, 'GET', path, { signal: controller.signal }).then(() => (answered = true));
  while (e.stats().hung < hung) await sleep(10);
  await sleep(100);
  expect(answered).toBe(false);
  controller.abort();
  await expect(asked).rejects.toThrow(/abort/i);
}

describe('the 5-minute budget', () => {
  it('counts down in Ratelimit headers, then answers 429 code 971 with Retry-After and blocks every call', async () => {
    // The real five-minute window: the eleven calls fall inside it however slowly a busy machine makes them.
    const e = await start({ rateLimit: 10, rateWindowSeconds: 300 });
    for (let i = 0; i < 10; i++) {
      const r = await get(e, '/zones');
      expect(r.status).toBe(200);
      const [, remaining, reset] = /^"default";r=(\d+);t=(\d+)$/.exec(r.headers.get('ratelimit') ?? '') ?? [];
      expect(Number(remaining)).toBe(9 - i);
      // Seconds until the first call leaves the window: within it, never 0 while it is there.
      expect(Number(reset)).toBeGreaterThanOrEqual(1);
      expect(Number(reset)).toBeLessThanOrEqual(300);
      expect(r.headers.get('ratelimit-policy')).toBe('"burst";q=10;w=300');
    }
    const limited = await get(e, '/accounts');
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ success: false, result: null, errors: [{ code: 971 }] });
    expect(Number(limited.headers.get('retry-after'))).toBe(300);
    expect(limited.headers.get('ratelimit')).toMatch(/^"default";r=0;t=300$/);
    // The budget is the user's (vendor docs: rate limits, per user or account-owned token): a call
    // with no credentials is not that user's and is refused as such, not blocked by the user's budget.
    expect((await raw(e, 'GET', '/zones', { auth: false })).status).toBe(403);
    expect(e.stats().rateLimited).toBe(1);
  });

  it('lets calls through again once Retry-After has passed', async () => {
    const e = await start({ rateLimit: 3, rateWindowSeconds: 1 });
    for (let i = 0; i < 3; i++) expect((await get(e, '/zones')).status).toBe(200);
    const limited = await get(e, '/zones');
    expect(limited.status).toBe(429);
    await sleep(Number(limited.headers.get('retry-after')) * 1000 + 50);
    expect((await get(e, '/zones')).status).toBe(200);
  });

  it('sends the older x-ratelimit-* headers when asked, or both styles', async () => {
    const legacy = await start({ rateLimit: 50, rateLimitHeaders: 'legacy' });
    const r = await get(legacy, '/zones');
    expect(r.headers.get('ratelimit')).toBeNull();
    expect(r.headers.get('x-ratelimit-limit')).toBe('50');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('49');
    expect(Number(r.headers.get('x-ratelimit-reset'))).toBe(300);
    await legacy.close();
    const both = await start({ rateLimit: 50, rateLimitHeaders: 'both' });
    const b = await get(both, '/zones');
    expect(b.headers.get('ratelimit')).toMatch(/r=49/);
    expect(b.headers.get('x-ratelimit-remaining')).toBe('49');
  });

  it('sends no rate-limit headers and never limits when the budget is 0', async () => {
    const e = await start({ rateLimit: 0 });
    const answers = await Promise.all(Array.from({ length: 30 }, () => get(e, '/accounts')));
    expect(answers.every((a) => a.status === 200 && a.headers.get('ratelimit') === null)).toBe(true);
  });

  it('limits requests per second from one address', async () => {
    const e = await start({ rateLimit: 0, ipRateLimit: 5 });
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await get(e, '/zones')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const limited = await get(e, '/zones');
    expect(limited.headers.get('retry-after')).toBe('1');
  });
});

describe('injected faults', () => {
  it('replaces the given share of answers with 500, 502 (an HTML page) or 503, deterministically by seed', async () => {
    const e = await start({ faultRate: 0.3, faultSeed: 42 });
    const statuses: number[] = [];
    let htmlPages = 0;
    for (let i = 0; i < 200; i++) {
      const r = await get(e, '/zones?per_page=5');
      statuses.push(r.status);
      if (r.status === 502) {
        expect(r.headers.get('content-type')).toMatch(/^text\/html/);
        expect(r.text).toContain('502 Bad Gateway');
        htmlPages++;
      } else if (r.status !== 200) {
        expect(r.json).toMatchObject({ success: false, result: null });
      }
    }
    const faults = statuses.filter((s) => s !== 200);
    expect(faults.length).toBeGreaterThan(35);
    expect(faults.length).toBeLessThan(85);
    expect(new Set(faults)).toEqual(new Set([500, 502, 503]));
    expect(htmlPages).toBeGreaterThan(0);
    expect(e.stats().faultsInjected).toBe(faults.length);
    await e.close();

    const again = await start({ faultRate: 0.3, faultSeed: 42 });
    const replay: number[] = [];
    for (let i = 0; i < 200; i++) replay.push((await get(again, '/zones?per_page=5')).status);
    expect(replay).toEqual(statuses);
  });

  it('fails a named route every time and leaves the others alone', async () => {
    const e = await start({ failRoutes: ['GET /zones/{zone_id}/filters'] });
    const zone = zoneId(e, 'acme-bank.example');
    for (let i = 0; i < 3; i++) expect((await get(e, `/zones/${zone}/filters`)).status).toBe(500);
    expect((await get(e, `/zones/${zone}/firewall/rules`)).status).toBe(200);
  });

  it('never answers a page whose per_page is above --timeout-per-page', async () => {
    const e = await start({ timeoutPerPage: 50 });
    const zone = zoneId(e, 'acme-bank.example');
    expect((await get(e, `/zones/${zone}/dns_records?per_page=50`)).status).toBe(200);
    await expectHung(e, `/zones/${zone}/dns_records?per_page=51`, 1);
    // Default per_page (100) is above the limit as well: clients that never set it hang too.
    await expectHung(e, `/zones/${zone}/dns_records`, 2);
    expect(e.stats().hung).toBe(2);
  });

  it('serves page 1 for every page with --repeat-page, for all lists or for named routes', async () => {
    const e = await start({ repeatPage: ['GET /zones'] });
    const one = await get(e, '/zones?per_page=5&page=1');
    const two = await get(e, '/zones?per_page=5&page=2');
    expect(two.json.result_info.page).toBe(2);
    expect(two.json.result.map((z: { id: string }) => z.id)).toEqual(one.json.result.map((z: { id: string }) => z.id));
    const accounts1 = await get(e, '/accounts?per_page=5&page=1');
    const accounts2 = await get(e, '/accounts?per_page=5&page=2');
    expect(accounts1.json.result[0].id).not.toBe(accounts2.json.result[0]?.id);
  });

  it('drops the last item of every full page with --short-pages', async () => {
    const e = await start({ shortPages: true });
    const page = await get(e, '/zones?per_page=5&page=1');
    expect(page.json.result).toHaveLength(4);
    // The tests' organisation has 22 member zones: the last page, 5, holds 2 and is not full.
    expect(page.json.result_info).toMatchObject({ per_page: 5, count: 4, total_count: 22 });
    const last = await get(e, '/zones?per_page=5&page=5');
    expect(last.json.result).toHaveLength(2);
  });

  it('injects malformed successes when asked: success:false on 200, truncated JSON, HTML on 200', async () => {
    const e = await start({ faultRate: 1, faultKinds: ['200-false', 'truncated', 'html-200'] });
    const falseOk = await get(e, '/zones');
    expect(falseOk.status).toBe(200);
    expect(falseOk.json).toMatchObject({ success: false, result: null });
    const cut = await get(e, '/zones');
    expect(cut.status).toBe(200);
    expect(cut.json).toBeUndefined();
    expect(cut.text.startsWith('{"success":true')).toBe(true);
    const html = await get(e, '/zones');
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(e.stats().faultsInjected).toBe(3);
  });

  it('delays every answer by --latency', async () => {
    const e = await start({ latencyMs: 150 });
    const t = performance.now();
    expect((await get(e, '/zones')).status).toBe(200);
    expect(performance.now() - t).toBeGreaterThanOrEqual(140);
  });
});

describe('GET /__emulator/stats', () => {
  it('counts requests by method and route template, and DELETE resets them', async () => {
    const e = await start({});
    const zone = zoneId(e, 'acme-bank.example');
    await get(e, '/zones');
    await get(e, `/zones/${zone}/dns_records`);
    await get(e, `/zones/${zone}/dns_records?page=2`);
    await raw(e, 'POST', `/zones/${zone}/filters`, { body: [{ expression: 'ip.src eq 192.0.2.77' }] });
    await get(e, '/nowhere');
    const stats = (await get(e, '/__emulator/stats')).json;
    expect(stats).toEqual({
      requests: {
        total: 5,
        byRoute: {
          'GET (no route)': 1,
          'GET /zones': 1,
          'GET /zones/{zone_id}/dns_records': 2,
          'POST /zones/{zone_id}/filters': 1,
        },
      },
      rateLimited: 0,
      faultsInjected: 0,
      hung: 0,
      // vendor docs: rate limits are kept per user or account-owned token: the dataset's user spent all five.
      byCredential: { user: { requests: 5, rateLimited: 0 } },
    });
    await raw(e, 'DELETE', '/__emulator/stats');
    expect((await get(e, '/__emulator/stats')).json.requests.total).toBe(0);
  });
});
