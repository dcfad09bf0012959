import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiNetworkError } from '../../src/api/errors.js';

/**
 * An API that cannot be reached: no connection is ever made, so nothing can have changed, and a
 * cause that will not heal in seconds (an unknown host, a certificate that does not verify) is
 * given up at once rather than after the retries.
 */

function client(baseUrl: string): ApiClient {
  return new ApiClient({
    baseUrl,
    credentials: { kind: 'token', token: 'unreachable-canary-token' },
    budget: 1000,
    budgetWindowMs: 1000,
    concurrency: 1,
    timeoutMs: 5000,
    retries: 3,
    maxRetryWaitMs: 60_000,
    backoffBaseMs: 10,
  });
}

async function failureOf(c: ApiClient): Promise<ApiNetworkError> {
  try {
    await c.get('/accounts');
  } catch (err) {
    expect(err).toBeInstanceOf(ApiNetworkError);
    return err as ApiNetworkError;
  } finally {
    await c.close();
  }
  throw new Error('the request succeeded');
}

describe('an API that cannot be reached', () => {
  it('gives up on an unknown host at once, saying so', async () => {
    // RFC 2606: .invalid never resolves.
    const err = await failureOf(client('http://zonewarden-test.invalid/client/v4'));
    expect(err.unreachable).toBe(true);
    expect(err.message).toMatch(/^GET \/accounts: connection failed \((ENOTFOUND|EAI_AGAIN)\)/);
    if (err.message.includes('ENOTFOUND')) expect(err.attempts).toBe(1);
    expect(err.message).not.toContain('canary');
  });

  it('gives up on a certificate that does not verify at once, naming it', async () => {
    const dir = new URL('../fixtures/tls/', import.meta.url);
    const server = createServer({ key: readFileSync(new URL('self-signed.key', dir)), cert: readFileSync(new URL('self-signed.crt', dir)) }, (_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let requests = 0;
    server.on('secureConnection', () => requests++);
    try {
      const err = await failureOf(client(`https://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`));
      expect(err.unreachable).toBe(true);
      expect(err.retryable).toBe(false);
      expect(err.attempts).toBe(1);
      expect(err.message).toMatch(/connection failed \(DEPTH_ZERO_SELF_SIGNED_CERT\): self-signed certificate/);
      expect(requests).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('retries a refused connection (a restarting server) and then says it was refused', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const err = await failureOf(client(`http://127.0.0.1:${port}/client/v4`));
    expect(err.unreachable).toBe(true);
    expect(err.attempts).toBe(4);
    expect(err.message).toMatch(/connection failed \(ECONNREFUSED\)/);
  });
});
