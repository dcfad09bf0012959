import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ClientSet, mergeStats, NoCredentialForAccount } from '../../src/api/client-set.js';
import type { ApiError } from '../../src/api/errors.js';
import { clientSetFor } from '../../src/jobs/clients.js';
import type { CommandIO } from '../../src/cli/command.js';
import { loadConfig } from '../../src/config/load.js';
import { DEFAULT_CONFIG_FILE } from '../../src/config/options.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { caseDataset } from '../support/case-dataset.js';
import { recordingLogger } from '../support/client.js';
import { emulatorFor } from '../support/http.js';

/**
 * A client per credential, each with its own pacer and budget: the vendor's rate limits page keeps
 * 1,200 requests per 5 minutes per user or account-owned token, and 200 per second per address.
 */

const ACME = '7e16e189370958d4a5d8e47681896ba4';
const GLOBEX = '71cc76c3429329bdba3dcc8d09da7ee0';

function client(token: string): ApiClient {
  return new ApiClient({
    baseUrl: 'http://127.0.0.1:9/client/v4',
    credentials: { kind: 'token', token },
    budget: 10,
    budgetWindowMs: 60_000,
    perSecond: 0,
    concurrency: 2,
    timeoutMs: 1000,
    retries: 0,
    maxRetryWaitMs: 0,
  });
}

describe('ClientSet', () => {
  const main = client('user-token-0001');
  const acme = client('acme-token-0001');
  const globex = client('globex-token-001');
  const set = new ClientSet({ label: 'ZONEWARDEN_API_TOKEN', client: main }, [
    { label: 'ZW_TOKEN_ACME', client: acme, accounts: [ACME] },
    { label: 'ZW_TOKEN_GLOBEX', client: globex, accounts: [GLOBEX.toUpperCase()] },
  ]);

  it("gives an account's requests to its mapped client, and every other account's to the default", () => {
    // vendor docs: rate limits: 1,200 requests per 5 minutes per user or account-owned token (an account read with its own token is counted there)
    expect(set.forAccount(ACME)).toBe(acme);
    expect(set.forAccount(GLOBEX)).toBe(globex);
    expect(set.forAccount(ACME.toUpperCase())).toBe(acme);
    expect(set.forAccount('966cad4e43b5ca177c519d68d5e6e90d')).toBe(main);
    expect(set.isMapped(ACME)).toBe(true);
    expect(set.isMapped('966cad4e43b5ca177c519d68d5e6e90d')).toBe(false);
    expect(set.default).toBe(main);
    expect(set.primary).toBe(main);
  });

  it('lists the mapped accounts, every client (the default first) and their labels, never the secrets', () => {
    expect(set.mappedAccounts()).toEqual([ACME, GLOBEX]);
    expect(set.all()).toEqual([main, acme, globex]);
    expect(set.labelled().map((e) => [e.label, e.accounts])).toEqual([
      ['ZONEWARDEN_API_TOKEN', null],
      ['ZW_TOKEN_ACME', [ACME]],
      ['ZW_TOKEN_GLOBEX', [GLOBEX.toUpperCase()]],
    ]);
    expect(JSON.stringify(set.budgets())).not.toContain('token-0001');
  });

  it('keeps a pacer per client, and sums their budgets for a progress estimate', () => {
    // vendor docs: rate limits: each user or account-owned token has 1,200 requests per 5 minutes of its own
    expect(new Set(set.all().map((c) => c.pacer)).size).toBe(3);
    expect(set.budgetStatus()).toEqual({ used: 0, allowed: 30, windowMs: 60_000, heldBack: 0 });
    expect(set.budgets().map((b) => [b.label, b.status.allowed])).toEqual([
      ['ZONEWARDEN_API_TOKEN', 10],
      ['ZW_TOKEN_ACME', 10],
      ['ZW_TOKEN_GLOBEX', 10],
    ]);
  });

  it('names the credential holding requests back, with its own budget, for the progress line', async () => {
    // Each budget is its own (vendor's rate limits page): one used up holds requests back while the others are free.
    const controller = new AbortController();
    const tickets = [];
    for (let i = 0; i < 10; i++) tickets.push(await acme.pacer.acquire(controller.signal));
    // The eleventh waits for the window: counted as held back before acquire's first await.
    const waiting = acme.pacer.acquire(controller.signal).catch(() => null);
    const status = set.budgetStatus();
    expect(status).toMatchObject({ used: 10, allowed: 30, heldBack: 1, holding: { label: 'ZW_TOKEN_ACME', used: 10, allowed: 10, windowMs: 60_000 } });
    controller.abort();
    await waiting;
    for (const t of tickets) t.release();
    expect(set.budgetStatus().holding).toBeUndefined();
  });

  it('without a default, reads mapped accounts only and says why another cannot be read', () => {
    // vendor answer: an account-owned token cannot list accounts (GET /accounts 400 1001): nothing but its accounts is readable
    const only = new ClientSet(null, [{ label: 'ZW_TOKEN_ACME', client: acme, accounts: [ACME] }]);
    expect(only.default).toBeNull();
    expect(only.primary).toBe(acme);
    expect(only.forAccount(ACME)).toBe(acme);
    expect(() => only.forAccount(GLOBEX)).toThrow(NoCredentialForAccount);
    expect(() => only.forAccount(GLOBEX)).toThrow(
      // vendor docs: Wrangler's system environment variables name CLOUDFLARE_API_TOKEN, which is read as the default credential too
      `no credential for account ${GLOBEX}: it is not listed in the config file's "credentials" and the default credential (ZONEWARDEN_API_TOKEN or CLOUDFLARE_API_TOKEN, or a key pair) is not set`,
    );
  });

  it('wraps a single client, and refuses an account mapped twice or an empty set', () => {
    expect(new ClientSet({ label: 'default', client: main }, []).forAccount(ACME)).toBe(main);
    expect(() => new ClientSet(null, [])).toThrow('a client set needs a default client or a mapped one');
    expect(
      () =>
        new ClientSet(null, [
          { label: 'A', client: acme, accounts: [ACME] },
          { label: 'B', client: globex, accounts: [ACME.toUpperCase()] },
        ]),
    ).toThrow(`account ${ACME.toUpperCase()} is mapped to two credentials`);
  });

  afterAll(async () => {
    await set.close();
  });
});

describe('mergeStats', () => {
  it('sums the counters of every client, route by route', () => {
    const counters = (requests: number) => ({ requests, retries: 1, rateLimited: 0, failures: 0, bytes: 10 });
    expect(
      mergeStats([
        { total: counters(3), byRoute: { 'GET /zones': counters(3) }, pacedMs: 5 },
        { total: counters(2), byRoute: { 'GET /zones': counters(1), 'GET /accounts/{id}': counters(1) }, pacedMs: 7 },
      ]),
    ).toEqual({
      total: { requests: 5, retries: 2, rateLimited: 0, failures: 0, bytes: 20 },
      byRoute: { 'GET /accounts/{id}': counters(1), 'GET /zones': { requests: 4, retries: 2, rateLimited: 0, failures: 0, bytes: 20 } },
      pacedMs: 12,
    });
  });
});

/** A CommandIO over a temp directory holding `config` as the default config file. */
function ioWith(config: unknown, env: NodeJS.ProcessEnv): CommandIO {
  const cwd = mkdtempSync(join(tmpdir(), 'zw-clientset-'));
  writeFileSync(join(cwd, DEFAULT_CONFIG_FILE), JSON.stringify(config));
  return { stdout: () => {}, stderr: () => {}, env, cwd, stopSignal: new Promise(() => {}) };
}

describe('clientSetFor (the CLI)', () => {
  let emu: RunningEmulator;
  let acmeId: string;
  let globexId: string;
  const ACME_TOKEN = 'acme-owned-token-5f0c2b9d7e1a4c3b';
  const GLOBEX_TOKEN = 'globex-owned-token-8a7b6c5d4e3f2a1b';

  beforeAll(async () => {
    const probe = await emulatorFor({ dataset: caseDataset() });
    const id = (prefix: string) => probe.org.state.accounts.find((a) => a.name.startsWith(prefix))!.id;
    [acmeId, globexId] = [id('Acme'), id('Globex')];
    await probe.close();
    emu = await emulatorFor({ dataset: caseDataset(), accountTokens: [{ token: ACME_TOKEN, accounts: [acmeId], label: 'acme' }, { token: GLOBEX_TOKEN, accounts: [globexId], label: 'globex' }] });
  });
  afterAll(async () => {
    await emu.close();
  });

  function setFor(env: NodeJS.ProcessEnv, flags: Record<string, unknown> = {}) {
    const io = ioWith({ baseUrl: emu.url, credentials: [{ accounts: [acmeId], tokenEnv: 'ZW_TOKEN_ACME' }, { accounts: [globexId], tokenEnv: 'ZW_TOKEN_GLOBEX' }] }, env);
    const config = loadConfig({ flags, env, cwd: io.cwd });
    return clientSetFor(config, io, recordingLogger());
  }

  it("reads each mapped account with its own credential, counted in that credential's budget at the API", async () => {
    // vendor docs: rate limits: 1,200 requests per 5 minutes per user or account-owned token
    emu.resetStats();
    const clients = setFor({ ZONEWARDEN_API_TOKEN: 'emulator-token', ZW_TOKEN_ACME: ACME_TOKEN, ZW_TOKEN_GLOBEX: GLOBEX_TOKEN });
    try {
      expect(clients.labelled().map((e) => e.label)).toEqual(['ZONEWARDEN_API_TOKEN', 'ZW_TOKEN_ACME', 'ZW_TOKEN_GLOBEX']);
      const zones = await clients.forAccount(globexId).get<Array<{ account: { id: string } }>>('/zones');
      expect(zones.result.map((z) => z.account.id)).toEqual([globexId]);
      await clients.forAccount(acmeId).get('/zones');
      await clients.forAccount('0'.repeat(32)).get('/zones');
      expect(emu.stats().byCredential).toEqual({ acme: { requests: 1, rateLimited: 0 }, globex: { requests: 1, rateLimited: 0 }, user: { requests: 1, rateLimited: 0 } });
      expect(clients.snapshotStats().total.requests).toBe(3);
    } finally {
      await clients.close();
    }
  });

  it('gives each credential the whole --budget and an even share of --per-second', async () => {
    // vendor docs: rate limits: 1,200 per 5 minutes per user or account-owned token, but 200 per second per IP, whatever the credential
    const clients = setFor({ ZONEWARDEN_API_TOKEN: 'emulator-token', ZW_TOKEN_ACME: ACME_TOKEN, ZW_TOKEN_GLOBEX: GLOBEX_TOKEN }, { budget: 900, perSecond: 200 });
    try {
      expect(clients.all().map((c) => [c.options.budget, c.options.perSecond])).toEqual([
        [900, 66],
        [900, 66],
        [900, 66],
      ]);
    } finally {
      await clients.close();
    }
    // Fewer a second than credentials: no whole share each, so refused with the fix (three at 1 each would make 3 a second of the 2 allowed).
    expect(() => setFor({ ZONEWARDEN_API_TOKEN: 'emulator-token', ZW_TOKEN_ACME: ACME_TOKEN, ZW_TOKEN_GLOBEX: GLOBEX_TOKEN }, { perSecond: 2 })).toThrow(
      '--per-second 2 is less than the 3 credentials this scan reads with: the limit is shared between them and each needs 1 a second or more; give --per-second 3 or more (0: no limit of zonewarden\'s own)',
    );
    const unlimited = setFor({ ZONEWARDEN_API_TOKEN: 'emulator-token', ZW_TOKEN_ACME: ACME_TOKEN, ZW_TOKEN_GLOBEX: GLOBEX_TOKEN }, { perSecond: 0 });
    expect(unlimited.all().map((c) => c.options.perSecond)).toEqual([0, 0, 0]);
    await unlimited.close();
  });

  it('needs no default credential when --account names mapped accounts only', async () => {
    // vendor docs: API tokens: account-owned tokens belong to an account; an organisation may read each account with its own
    const clients = setFor({ ZW_TOKEN_ACME: ACME_TOKEN, ZW_TOKEN_GLOBEX: GLOBEX_TOKEN }, { account: [acmeId, globexId] });
    try {
      expect(clients.default).toBeNull();
      expect(clients.all()).toHaveLength(2);
      expect(clients.all().map((c) => c.options.perSecond)).toEqual([100, 100]);
    } finally {
      await clients.close();
    }
    expect(() => setFor({ ZW_TOKEN_ACME: ACME_TOKEN, ZW_TOKEN_GLOBEX: GLOBEX_TOKEN })).toThrow(/^no API credentials: set ZONEWARDEN_API_TOKEN/);
  });
});

describe('canary: mapped secrets in errors', () => {
  const CANARY = 'CANARY-acme-owned-token-7d1f3c9a5b2e4f60';
  let echo: Server;
  let echoUrl: string;

  beforeAll(async () => {
    // A broken server that quotes the caller's credentials back in its error.
    echo = createServer((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, errors: [{ code: 9999, message: `bad request from ${req.headers.authorization ?? ''}` }], messages: [], result: null }));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/client/v4`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  });

  it('never appears in the message of an error thrown by its client, nor in its log', async () => {
    // vendor docs: API tokens are secrets; our contract (design.md): credentials never reach logs, errors or reports
    const env = { ZONEWARDEN_API_TOKEN: 'user-token-0123456789', ZW_TOKEN_ACME: CANARY };
    const io = ioWith({ baseUrl: echoUrl, credentials: [{ accounts: [ACME], tokenEnv: 'ZW_TOKEN_ACME' }] }, env);
    const logger = recordingLogger();
    const clients = clientSetFor(loadConfig({ flags: { verbose: true }, env, cwd: io.cwd }), io, logger);
    let error: ApiError | undefined;
    try {
      await clients.forAccount(ACME).get('/zones');
    } catch (err) {
      error = err as ApiError;
    } finally {
      await clients.close();
    }
    expect(error).toBeDefined();
    expect(error!.message).toContain('[redacted]');
    expect(error!.message).not.toContain(CANARY);
    expect(JSON.stringify(error!.apiErrors)).not.toContain(CANARY);
    expect(logger.lines.join('\n')).not.toContain(CANARY);
  });
});
