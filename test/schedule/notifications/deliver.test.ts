import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { deliver } from '../../../src/schedule/notifications/deliver.js';
import type { WebhookTarget } from '../../../src/schedule/notifications/settings.js';
import { PACKAGE } from '../../../src/common/package-info.js';
import { startReceiver, type Receiver, type Received } from '../../support/receiver.js';

/** deliver() against a real HTTP server on loopback: what goes over the wire, and every retry. */

const SECRET_PATH = '/services/T0001/B0002/s3cretWebhookToken';
const SECRET_QUERY = '?sig=qu3rySecret';

let receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers) await r.close();
  receivers = [];
});

/** A receiver whose n-th request (0-based) is answered by `answer`; it never answers if that returns false. */
async function receiver(answer: (res: ServerResponse, n: number, req: Received) => boolean | void) {
  const r = await startReceiver((res, n, req) => void answer(res, n, req));
  receivers.push(r);
  return { received: r.received, port: r.port, target: targetFor(`${r.origin}${SECRET_PATH}${SECRET_QUERY}`) };
}

function targetFor(url: string): WebhookTarget {
  return { url, label: `${new URL(url).origin}/…`, format: 'json', minSeverity: 'high', on: ['failed'] };
}

function reply(status: number, headers: Record<string, string> = {}, body = '') {
  return (res: ServerResponse) => {
    res.writeHead(status, headers).end(body);
  };
}

function recordingSleep() {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (ms: number) => void sleeps.push(ms) };
}

const BODY = JSON.stringify({ text: 'hello <world> & ünïcode' });

describe('deliver', () => {
  it('delivers on the first 2xx, with the right method, headers and body', async () => {
    const { received, target } = await receiver(reply(200, {}, 'ok'));
    const { sleeps, sleep } = recordingSleep();
    const d = await deliver(target, 'failed', BODY, { timeoutMs: 2000, retries: 3, backoffMs: 100, sleep });
    expect(d).toEqual({ target: target.label, event: 'failed', ok: true, attempts: 1, status: 200, error: null });
    expect(sleeps).toEqual([]);
    expect(received).toHaveLength(1);
    const [r] = received;
    expect(r?.method).toBe('POST');
    expect(r?.url).toBe(`${SECRET_PATH}${SECRET_QUERY}`);
    expect(r?.headers['content-type']).toBe('application/json');
    expect(r?.headers['user-agent']).toBe(`zonewarden/${PACKAGE.version}`);
    expect(r?.body).toBe(BODY);
  });

  it('retries 500 and 503 with doubling backoff, then succeeds', async () => {
    const statuses = [500, 503, 200];
    const { received, target } = await receiver((res, n) => void res.writeHead(statuses[n] ?? 599).end());
    const { sleeps, sleep } = recordingSleep();
    const d = await deliver(target, 'failed', BODY, { timeoutMs: 2000, retries: 3, backoffMs: 100, sleep });
    expect(d).toMatchObject({ ok: true, attempts: 3, status: 200, error: null });
    expect(sleeps).toEqual([100, 200]);
    expect(received.map((r) => r.body)).toEqual([BODY, BODY, BODY]);
  });

  it('caps the backoff at 30 s', async () => {
    const { target } = await receiver(reply(502));
    const { sleeps, sleep } = recordingSleep();
    await deliver(target, 'failed', BODY, { timeoutMs: 2000, retries: 3, backoffMs: 20_000, sleep });
    expect(sleeps).toEqual([20_000, 30_000, 30_000]);
  });

  it('waits as long as a 429 Retry-After in seconds says', async () => {
    const { received, target } = await receiver((res, n) => void (n === 0 ? res.writeHead(429, { 'retry-after': '7' }).end() : res.writeHead(204).end()));
    const { sleeps, sleep } = recordingSleep();
    const d = await deliver(target, 'failed', BODY, { timeoutMs: 2000, retries: 3, backoffMs: 100, sleep });
    expect(d).toMatchObject({ ok: true, attempts: 2, status: 204 });
    expect(sleeps).toEqual([7000]);
    expect(received).toHaveLength(2);
  });

  it('understands a Retry-After date, and caps a long one at maxRetryAfterMs', async () => {
    const when = new Date(Date.now() + 3_600_000).toUTCString();
    const { target } = await receiver((res, n) => void (n === 0 ? res.writeHead(503, { 'retry-after': when }).end() : res.writeHead(200).end()));
    const { sleeps, sleep } = recordingSleep();
    const d = await deliver(target, 'failed', BODY, { timeoutMs: 2000, retries: 1, backoffMs: 100, sleep, maxRetryAfterMs: 5000 });
    expect(d.ok).toBe(true);
    expect(sleeps).toEqual([5000]);

    const { target: other } = await receiver((res, n) => void (n === 0 ? res.writeHead(429, { 'retry-after': '600' }).end() : res.writeHead(200).end()));
    const second = recordingSleep();
    await deliver(other, 'failed', BODY, { timeoutMs: 2000, retries: 1, backoffMs: 100, sleep: second.sleep });
    expect(second.sleeps).toEqual([60_000]);
  });

  it('does not retry a 400, and says what the receiver answered without the URL', async () => {
    const { received, target } = await receiver(reply(400, { 'content-type': 'text/plain' }, `invalid_payload for ${SECRET_PATH}`));
    const { sleeps, sleep } = recordingSleep();
    const d = await deliver(target, 'failed', BODY, { timeoutMs: 2000, retries: 3, backoffMs: 100, sleep });
    expect(d).toMatchObject({ ok: false, attempts: 1, status: 400 });
    expect(received).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(d.error).toContain(target.label);
    expect(d.error).toContain('HTTP 400');
    expect(d.error).toContain('invalid_payload');
    expect(d.error).not.toContain('s3cretWebhookToken');
  });

  it('does not follow a redirect', async () => {
    const { received, target, port } = await receiver(reply(302, { location: `http://127.0.0.1:1/elsewhere` }));
    const d = await deliver(target, 'failed', BODY, { timeoutMs: 2000, retries: 3, backoffMs: 1, sleep: async () => undefined });
    expect(d).toMatchObject({ ok: false, attempts: 1, status: 302 });
    expect(d.error).toBe(`http://127.0.0.1:${port}/…: HTTP 302; redirects are not followed`);
    expect(received).toHaveLength(1);
  });

  it('gives up after retries + 1 attempts of 5xx, saying how many', async () => {
    const { received, target } = await receiver(reply(503));
    const d = await deliver(target, 'failed', BODY, { timeoutMs: 2000, retries: 2, backoffMs: 1, sleep: async () => undefined });
    expect(d).toMatchObject({ ok: false, attempts: 3, status: 503 });
    expect(d.error).toBe(`${target.label}: HTTP 503 (3 attempts)`);
    expect(received).toHaveLength(3);
  });

  it('times out on a receiver that never answers, retrying each time', async () => {
    const { received, target } = await receiver(() => false);
    const { sleeps, sleep } = recordingSleep();
    const started = Date.now();
    const d = await deliver(target, 'failed', BODY, { timeoutMs: 200, retries: 2, backoffMs: 10, sleep });
    expect(d).toMatchObject({ ok: false, attempts: 3, status: null });
    expect(d.error).toBe(`${target.label}: no answer within 0.2 s (3 attempts)`);
    expect(sleeps).toEqual([10, 20]);
    expect(received).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 190);
  });

  it('fails cleanly, without the URL path, when the connection is refused', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const target = targetFor(`http://127.0.0.1:${port}${SECRET_PATH}${SECRET_QUERY}`);
    const { sleeps, sleep } = recordingSleep();
    const d = await deliver(target, 'failed', BODY, { timeoutMs: 2000, retries: 1, backoffMs: 50, sleep });
    expect(d).toMatchObject({ target: `http://127.0.0.1:${port}/…`, ok: false, attempts: 2, status: null });
    expect(sleeps).toEqual([50]);
    expect(d.error).toContain(`http://127.0.0.1:${port}/…: connection failed`);
    expect(d.error).toContain('ECONNREFUSED');
    expect(d.error).not.toContain('services');
    expect(d.error).not.toContain('s3cretWebhookToken');
    expect(d.error).not.toContain('qu3rySecret');
    expect(d.error).not.toContain('\n');
  });
});
