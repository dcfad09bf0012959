import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import type { ApiError } from '../../src/api/errors.js';
import { createRedactor } from '../../src/common/redact.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { caseDataset } from '../support/case-dataset.js';
import { recordingLogger } from '../support/client.js';
import { runCli } from '../support/cli.js';
import { emulatorFor } from '../support/http.js';

/**
 * Credentials never appear in errors, logs or output, even when a hostile or broken server echoes
 * them back. The token and key here are test values that look real.
 */
const TOKEN = 'zw-test-token-7d1f3c9a5b2e4f60a8c1d3e5f7a9b2c4';
const EMAIL = 'secops-automation@example.org';
const KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345';
const SECRETS = [TOKEN, EMAIL, KEY];

/** Answers every request with its own credentials in the error message and in an HTML excerpt. */
let echo: Server;
let echoUrl: string;
let emu: RunningEmulator;

beforeAll(async () => {
  echo = createServer((req, res) => {
    const creds = `${req.headers.authorization ?? ''} ${req.headers['x-auth-email'] ?? ''} ${req.headers['x-auth-key'] ?? ''}`;
    if (req.url?.includes('/html')) {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(`<html>upstream rejected ${creds}</html>`);
      return;
    }
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: false, errors: [{ code: 9999, message: `bad request from ${creds}` }], messages: [], result: null }));
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/client/v4`;
  emu = await emulatorFor({ dataset: caseDataset(), token: TOKEN, email: EMAIL, key: KEY });
});
afterAll(async () => {
  await new Promise<void>((resolve) => echo.close(() => resolve()));
  await emu.close();
});

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

function client(baseUrl: string, kind: 'token' | 'key', logger = recordingLogger()) {
  return new ApiClient({
    baseUrl,
    credentials: kind === 'token' ? { kind, token: TOKEN } : { kind, email: EMAIL, key: KEY },
    budget: 1000,
    budgetWindowMs: 1000,
    concurrency: 2,
    timeoutMs: 2000,
    retries: 1,
    maxRetryWaitMs: 1000,
    backoffBaseMs: 10,
    logger,
    redact: createRedactor(SECRETS),
  });
}

describe('redaction', () => {
  it.each(['token', 'key'] as const)('keeps %s credentials a server echoes out of error messages and logs', async (kind) => {
    const logger = recordingLogger();
    const c = client(echoUrl, kind, logger);
    try {
      for (const path of ['/zones', '/html']) {
        let error: ApiError | undefined;
        try {
          await c.get(path);
        } catch (err) {
          error = err as ApiError;
        }
        expect(error).toBeDefined();
        expect(error!.message).toContain('[redacted]');
        expectNoSecret(error!.message);
        expectNoSecret(JSON.stringify(error!.apiErrors));
      }
    } finally {
      await c.close();
    }
    expectNoSecret(logger.lines.join('\n'));
  });

  it('keeps credentials out of everything the CLI prints, verbose or failing', async () => {
    const env = { ZONEWARDEN_BASE_URL: emu.url, ZONEWARDEN_API_TOKEN: TOKEN };
    const ok = await runCli(['api', '/zones', '--paginate', '--verbose'], env);
    expect(ok.code).toBe(0);
    // The tests' organisation's 22 visible zones.
    expect(JSON.parse(ok.stdout)).toHaveLength(22);
    expect(ok.stderr).toMatch(/GET \/zones\?page=1&per_page=50 200/);
    expectNoSecret(ok.stdout + ok.stderr);

    const keyed = await runCli(['api', '/user', '--verbose'], { ZONEWARDEN_BASE_URL: emu.url, ZONEWARDEN_API_EMAIL: EMAIL, ZONEWARDEN_API_KEY: KEY });
    expect(keyed.code).toBe(0);
    expect(JSON.parse(keyed.stdout).email).toBe('admin@example.com');
    expectNoSecret(keyed.stderr);
    expect(keyed.stdout).not.toContain(KEY);

    const echoed = await runCli(['api', '/zones', '--verbose'], { ZONEWARDEN_BASE_URL: echoUrl, ZONEWARDEN_API_TOKEN: TOKEN });
    expect(echoed.code).toBe(2);
    expect(echoed.stderr).toContain('[redacted]');
    expectNoSecret(echoed.stdout + echoed.stderr);

    const wrong = await runCli(['api', '/zones'], { ZONEWARDEN_BASE_URL: emu.url, ZONEWARDEN_API_TOKEN: `${TOKEN}-wrong` });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim()).toMatch(/^zonewarden api: GET \/zones: HTTP 403, API error 9109 Invalid access token/);
    expectNoSecret(wrong.stderr);
  });

  it('refuses a token with a line break without printing it', async () => {
    const r = await runCli(['api', '/zones'], { ZONEWARDEN_BASE_URL: emu.url, ZONEWARDEN_API_TOKEN: `${TOKEN}\nX-Injected: 1` });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('zonewarden api: ZONEWARDEN_API_TOKEN contains spaces, line breaks or non-ASCII characters; set it to the token alone');
  });
});
