import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import {
  ApiAbortedError,
  ApiAuthError,
  ApiMalformedError,
  ApiRequestError,
  ApiServerError,
  ApiTimeoutError,
} from '../../src/api/errors.js';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/server.js';
import { caseDataset } from '../support/case-dataset.js';
import { clientFor, recordingLogger } from '../support/client.js';
import { emulatorFor, get, zoneId } from '../support/http.js';
import { waitFor } from '../support/wait.js';

/** The client against the emulator over real HTTP: each failure mode of docs/api-surface.md, answers beyond the spec. */
let emu: RunningEmulator | undefined;
let client: ApiClient | undefined;
async function setup(options: EmulatorOptions, clientOptions: Parameters<typeof clientFor>[1] = {}) {
  emu = await emulatorFor({ dataset: caseDataset(), ...options });
  client = clientFor(emu, clientOptions);
  return { emu, client };
}
afterEach(async () => {
  await client?.close();
  await emu?.close();
  client = undefined;
  emu = undefined;
});

async function caught(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the call to fail');
}

describe('answers and errors', () => {
  it('returns the result and result_info of a success', async () => {
    const { client } = await setup({});
    const answer = await client.get<Array<{ name: string }>>('/zones', { query: { per_page: 5, order: 'name' } });
    expect(answer.status).toBe(200);
    expect(answer.result.map((z) => z.name)).toEqual(['acme-bank.example', 'acme-cards.example', 'acme-careers.example', 'acme-invest.example', 'acme-loans.example']);
    // 22 visible zones: 13 before the Fabrikam and Contoso accounts (the Globex zone needs the invite).
    expect(answer.resultInfo).toEqual({ page: 1, per_page: 5, count: 5, total_count: 22, total_pages: 5 });
  });

  it('authenticates with the key pair too', async () => {
    const { emu } = await setup({});
    const keyed = clientFor(emu, { credentials: { kind: 'key', email: 'admin@example.com', key: 'emulator-key' } });
    try {
      expect((await keyed.get<{ email: string }>('/user')).result.email).toBe('admin@example.com');
    } finally {
      await keyed.close();
    }
  });

  // docs/api-surface.md, answers beyond the spec: a junk token gets 403 9109 "Invalid access token";
  // some endpoints answer 401 or 403 with code 10000 "Authentication error".
  it.each([
    ['9109', /^GET \/zones: HTTP 403, API error 9109 Invalid access token/],
    ['401', /^GET \/zones: HTTP 401, API error 10000 Authentication error/],
    ['10000', /^GET \/zones: HTTP 403, API error 10000 Authentication error/],
  ] as const)('fails at once, without retrying, on bad credentials answered as %s', async (answer, message) => {
    const { emu } = await setup({ badCredentials: answer });
    const bad = clientFor(emu, { credentials: { kind: 'token', token: 'not-the-token' } });
    try {
      const err = await caught(bad.get('/zones'));
      expect(err).toBeInstanceOf(ApiAuthError);
      expect((err as ApiAuthError).code).toBe('ZW_API_AUTH');
      expect(err.message).toMatch(message);
      expect(err.message).toContain('check ZONEWARDEN_API_TOKEN');
      expect(emu.stats().requests.total).toBe(1);
    } finally {
      await bad.close();
    }
  });

  it('fails at once on other 4xx, with the API codes', async () => {
    const { client, emu } = await setup({});
    const err = await caught(client.get('/zones/0123456789abcdef0123456789abcdef/dns_records'));
    expect(err).toBeInstanceOf(ApiRequestError);
    expect((err as ApiRequestError).hasCode(1003)).toBe(true);
    expect((err as ApiRequestError).status).toBe(400);
    expect((err as ApiRequestError).retryable).toBe(false);
    expect(emu.stats().requests.total).toBe(1);
  });

  // The service answers some of its own failures with HTTP 200 and success:false ("Internal error:
  // please retry"): a server failure like a 5xx, so a read is retried and a write is not.
  it('retries a read answered 200 with success:false and a server-side error, naming it when it persists', async () => {
    const { client, emu } = await setup({ faultRate: 1, faultKinds: ['200-false'] }, { retries: 2 });
    const err = await caught(client.get('/zones'));
    expect(err).toBeInstanceOf(ApiServerError);
    expect((err as ApiServerError).attempts).toBe(3);
    expect(err.message).toBe('GET /zones: HTTP 200, API error 10500 Internal error: please retry');
    expect(emu.stats().requests.total).toBe(3);
  });

  it('does not retry a write answered 200 with success:false and a server-side error', async () => {
    const { client, emu } = await setup({ faultRate: 1, faultKinds: ['200-false'] });
    const zone = zoneId(emu, 'weekend-hack.test');
    const err = await caught(client.request('POST', `/zones/${zone}/filters`, { body: [{ expression: 'ip.src eq 192.0.2.44' }] }));
    expect(err).toBeInstanceOf(ApiServerError);
    expect((err as ApiServerError).retryable).toBe(false);
    expect(emu.stats().requests.total).toBe(1);
  });

  it('reads every page through 10% of answers that are 200 with success:false', async () => {
    const { client, emu } = await setup({ faultRate: 0.1, faultKinds: ['200-false'], dataset: 'generated', generated: { zones: 60, records: 600 } });
    const zones = await client.list<{ id: string }>('/zones', { perPage: 5 }).all();
    expect(zones).toHaveLength(60);
    expect(client.snapshotStats().total.retries).toBe(emu.stats().faultsInjected);
    expect(emu.stats().faultsInjected).toBeGreaterThan(0);
  });

  it('retries a truncated or HTML body on 200, and names status, route and an excerpt when it persists', async () => {
    const { client, emu } = await setup({ faultRate: 1, faultKinds: ['truncated', 'html-200'] }, { retries: 3 });
    const err = await caught(client.get('/zones'));
    expect(err).toBeInstanceOf(ApiMalformedError);
    expect((err as ApiMalformedError).attempts).toBe(4);
    expect(err.message).toMatch(/^GET \/zones: HTTP 200 with a body that is not JSON: "(\{"success":true|<html>)/);
    expect(emu.stats().requests.total).toBe(4);
    expect(client.snapshotStats().total).toMatchObject({ requests: 4, retries: 3, failures: 4 });
  });

  it('completes every read through 30% injected 5xx and malformed answers', async () => {
    const { client, emu } = await setup({ faultRate: 0.3, faultKinds: ['500', '502', '503', 'truncated', 'html-200'], dataset: 'generated', generated: { zones: 60, records: 3000 } });
    const zones = await client.list<{ id: string }>('/zones', { perPage: 5 }).all();
    expect(zones).toHaveLength(60);
    let records = 0;
    for (const z of zones.slice(0, 10)) records += (await client.list(`/zones/${z.id}/dns_records`, { perPage: 50 }).all()).length;
    const expected = emu.org.state.zones.filter((z) => zones.slice(0, 10).some((x) => x.id === z.id)).reduce((n, z) => n + z.dns.size, 0);
    expect(records).toBe(expected);
    const stats = client.snapshotStats();
    expect(stats.total.retries).toBe(emu.stats().faultsInjected);
    expect(stats.total.retries).toBeGreaterThan(5);
  });

  it('does not retry a write that failed with a 5xx: it may have happened', async () => {
    const { client, emu } = await setup({ faultRate: 1, faultKinds: ['503'] });
    const zone = zoneId(emu, 'weekend-hack.test');
    const err = await caught(client.request('POST', `/zones/${zone}/filters`, { body: [{ expression: 'ip.src eq 192.0.2.44' }] }));
    expect(err).toBeInstanceOf(ApiServerError);
    expect((err as ApiServerError).retryable).toBe(false);
    expect(emu.stats().requests.byRoute['POST /zones/{zone_id}/filters']).toBe(1);
  });

  it('gives up on a read after the retries, saying how many attempts it made', async () => {
    const { client, emu } = await setup({ failRoutes: ['GET /zones'] }, { retries: 2 });
    const err = (await caught(client.get('/zones'))) as ApiServerError;
    expect(err).toBeInstanceOf(ApiServerError);
    expect(err.attempts).toBe(3);
    expect(emu.stats().requests.total).toBe(3);
  });

  it('stops retrying when the next wait would pass --retry-wait', async () => {
    const { client } = await setup({ failRoutes: ['GET /zones'] }, { retries: 10, backoffBaseMs: 400, maxRetryWaitMs: 500, random: () => 1 });
    const err = (await caught(client.get('/zones'))) as ApiServerError;
    expect(err.attempts).toBe(2);
    expect(err.message).toContain('gave up: the next retry would exceed --retry-wait');
  });

  it('times out an attempt that does not answer, and retries it', async () => {
    const { client, emu } = await setup({ latencyMs: 1500 }, { timeoutMs: 200, retries: 1 });
    const err = (await caught(client.get('/zones'))) as ApiTimeoutError;
    expect(err).toBeInstanceOf(ApiTimeoutError);
    expect(err.attempts).toBe(2);
    expect(err.message).toBe('GET /zones: no answer within 0.2 s');
    expect(emu.stats().requests.total).toBe(2);
  });

  it('cancels through an AbortSignal, without retrying', async () => {
    const { client, emu } = await setup({ latencyMs: 10_000 });
    const controller = new AbortController();
    const pending = caught(client.get('/zones', { signal: controller.signal }));
    // Aborted once the emulator holds the request (it counts it before its latency), not after a
    // fixed delay: on a busy machine the request may not have left by then.
    await waitFor('the request to reach the emulator', () => emu.stats().requests.total === 1);
    controller.abort();
    const err = await pending;
    // Aborted, not answered late: the answer would have been a success. Asked once: no retry.
    expect(err).toBeInstanceOf(ApiAbortedError);
    expect(emu.stats().requests.total).toBe(1);
  });

  it('counts requests, retries and bytes by route template', async () => {
    const { client, emu } = await setup({});
    const zone = zoneId(emu, 'acme-bank.example');
    await client.get(`/zones/${zone}/dns_records`);
    await client.get(`/zones/${zoneId(emu, 'tinkerer.test')}/dns_records`);
    const stats = client.snapshotStats();
    const route = stats.byRoute['GET /zones/{id}/dns_records']!;
    expect(route.requests).toBe(2);
    expect(route.bytes).toBeGreaterThan(1000);
    expect(stats.total.requests).toBe(2);
  });
});

describe('the shared rate budget', () => {
  it('stays inside a budget equal to the server limit: no 429 at all', async () => {
    const { client, emu } = await setup({ rateLimit: 10, rateWindowSeconds: 2 }, { budget: 10, budgetWindowMs: 2000, concurrency: 4 });
    const started = performance.now();
    await Promise.all(Array.from({ length: 25 }, () => client.get('/zones')));
    const elapsed = performance.now() - started;
    expect(emu.stats().rateLimited).toBe(0);
    expect(emu.stats().requests.total).toBe(25);
    // 25 requests at 10 per 2 s: the 21st waits for the first window's requests to leave two windows.
    expect(elapsed).toBeGreaterThanOrEqual(2 * 2000);
  });

  it('leaves room for colleagues who share the quota, reading it from the headers: no 429', async () => {
    const { emu } = await setup({ rateLimit: 10, rateWindowSeconds: 3 });
    // A colleague has used 6 of the 10 requests of this window.
    for (let i = 0; i < 6; i++) expect((await get(emu, '/accounts')).status).toBe(200);
    const ours = clientFor(emu, { budget: 10, budgetWindowMs: 3000, concurrency: 2 });
    try {
      for (let i = 0; i < 8; i++) await ours.get('/zones');
    } finally {
      await ours.close();
    }
    expect(emu.stats().rateLimited).toBe(0);
    expect(emu.stats().requests.total).toBe(14);
  });

  it('paces by the server\'s stated quota when our budget is set above it: no 429', async () => {
    const { client, emu } = await setup({ rateLimit: 8, rateWindowSeconds: 2 }, { budget: 10_000, concurrency: 1 });
    for (let i = 0; i < 12; i++) await client.get('/accounts');
    expect(emu.stats().rateLimited).toBe(0);
    expect(emu.stats().requests.total).toBe(12);
  });

  it('falls back to the remaining count when the server states no policy (older headers)', async () => {
    const { client, emu } = await setup({ rateLimit: 8, rateWindowSeconds: 2, rateLimitHeaders: 'legacy' }, { budget: 10_000, concurrency: 1 });
    for (let i = 0; i < 12; i++) await client.get('/accounts');
    expect(emu.stats().rateLimited).toBe(0);
    expect(emu.stats().requests.total).toBe(12);
  });

  it('recovers from 429s by pausing every request until Retry-After, then finishing all of them', async () => {
    // No quota headers: the client learns of the limit only from the 429s.
    const { client, emu } = await setup({ rateLimit: 3, rateWindowSeconds: 1, rateLimitHeaders: 'none' }, { budget: 10_000, concurrency: 8 });
    const logger = recordingLogger();
    const recovering = clientFor(emu, { budget: 10_000, concurrency: 8, logger });
    try {
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 8 }, () => recovering.get('/zones')));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      const limited = emu.stats().rateLimited;
      expect(limited).toBeGreaterThan(0);
      // Only requests already in flight when the first 429 came can have been refused.
      expect(limited).toBeLessThanOrEqual(8);
      expect(recovering.snapshotStats().total.rateLimited).toBe(limited);
      expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
      expect(logger.lines.some((l) => /^warning: rate limited by the API on GET \/zones: pausing every request for \d+ s$/.test(l))).toBe(true);
    } finally {
      await recovering.close();
    }
    expect(client).toBeDefined();
  });
});
