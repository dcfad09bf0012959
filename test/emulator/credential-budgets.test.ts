import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../src/emulator/datasets/index.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorFor, emulatorsClosedAfterEach, raw } from '../support/http.js';

/**
 * The emulator keeps a request budget per credential, as the real API does (the vendor's rate
 * limits page: "Client API per user/account token: 1200/5 minutes"; the per-user limit "applies
 * cumulatively regardless of whether the request is made via the dashboard, API key, or API
 * token"), and extra account-owned tokens read the accounts they belong to.
 */

const emulator = emulatorsClosedAfterEach();

const ACME_TOKEN = 'acme-owned-token-5f0c2b9d7e1a4c3b';
const GLOBEX_TOKEN = 'globex-owned-token-8a7b6c5d4e3f2a1b';
const KEY_PAIR = { 'x-auth-email': 'admin@example.com', 'x-auth-key': 'emulator-key' };

/** The tests' organisation's account ids by name (ids are derived from the dataset, not typed here). */
async function caseAccounts(): Promise<{ acme: string; globex: string }> {
  const probe = await emulatorFor({ dataset: caseDataset() });
  try {
    const id = (prefix: string) => probe.org.state.accounts.find((a) => a.name.startsWith(prefix))!.id;
    return { acme: id('Acme'), globex: id('Globex') };
  } finally {
    await probe.close();
  }
}

const bearer = (token: string) => ({ auth: false, headers: { authorization: `Bearer ${token}` } });
const as = (emu: RunningEmulator, token: string, path: string) => raw(emu, 'GET', path, bearer(token));

describe('a budget per credential', () => {
  it('blocks the user after its quota while an account-owned token keeps its own budget', async () => {
    // vendor docs: rate limits: 1,200 requests per 5 minutes per user or account-owned token
    const { acme } = await caseAccounts();
    const emu = await emulator({ dataset: caseDataset(), rateLimit: 3, rateWindowSeconds: 60, accountTokens: [{ token: ACME_TOKEN, accounts: [acme] }] });
    for (let i = 0; i < 3; i++) expect((await raw(emu, 'GET', '/zones')).status).toBe(200);
    const blocked = await raw(emu, 'GET', '/zones');
    expect(blocked.status).toBe(429);
    // vendor answer: a request over the limit is 429 with code 971 ("Please wait and consider throttling your request speed")
    expect(blocked.json.errors[0].code).toBe(971);

    const own = await as(emu, ACME_TOKEN, '/zones');
    expect(own.status).toBe(200);
    // Its own window: two of three left after its first request.
    expect(own.headers.get('ratelimit')).toBe('"default";r=2;t=60');
    expect(emu.stats().byCredential).toEqual({
      [`account-token:${acme}`]: { requests: 1, rateLimited: 0 },
      user: { requests: 4, rateLimited: 1 },
    });
    expect(emu.stats().rateLimited).toBe(1);
  });

  it("counts the user's token and key pair in one budget", async () => {
    // vendor docs: rate limits: the per-user limit applies "cumulatively regardless of whether the request is made via the dashboard, API key, or API token"
    const emu = await emulator({ dataset: caseDataset(), rateLimit: 2, rateWindowSeconds: 60 });
    expect((await raw(emu, 'GET', '/zones')).status).toBe(200);
    expect((await raw(emu, 'GET', '/zones', { auth: false, headers: KEY_PAIR })).status).toBe(200);
    expect((await raw(emu, 'GET', '/zones', { auth: false, headers: KEY_PAIR })).status).toBe(429);
    expect(emu.stats().byCredential).toEqual({ user: { requests: 3, rateLimited: 1 } });
  });

  it('keeps the budgets of an account-owned emulator token (--token-kind account) and the key pair apart', async () => {
    // vendor docs: rate limits: "per user/account token": an account-owned token is not the user
    const emu = await emulator({ dataset: caseDataset(), tokenKind: 'account', rateLimit: 1, rateWindowSeconds: 60 });
    const owner = emu.org.visibleAccounts()[0]!.id;
    expect((await raw(emu, 'GET', '/zones')).status).toBe(200);
    expect((await raw(emu, 'GET', '/zones')).status).toBe(429);
    expect((await raw(emu, 'GET', '/zones', { auth: false, headers: KEY_PAIR })).status).toBe(200);
    expect(emu.stats().byCredential).toEqual({ [`account-token:${owner}`]: { requests: 2, rateLimited: 1 }, user: { requests: 1, rateLimited: 0 } });
  });

  it("does not spend the user's budget on requests with a credential nobody holds", async () => {
    // vendor answer: a junk token is refused with 403 code 9109; it is no user's request
    const emu = await emulator({ dataset: caseDataset(), rateLimit: 1, rateWindowSeconds: 60 });
    expect((await as(emu, 'junk-token-0123', '/zones')).status).toBe(403);
    expect((await raw(emu, 'GET', '/zones')).status).toBe(200);
    expect(emu.stats().byCredential).toEqual({ unauthenticated: { requests: 1, rateLimited: 0 }, user: { requests: 1, rateLimited: 0 } });
  });

  it('names credentials by label in GET /__emulator/stats, never by the token, and clears them with DELETE', async () => {
    // vendor docs: API tokens are secrets; the emulator's counters are read by tests and benchmarks
    const { acme, globex } = await caseAccounts();
    const emu = await emulator({ dataset: caseDataset(), accountTokens: [{ token: ACME_TOKEN, accounts: [acme], label: 'acme' }, { token: GLOBEX_TOKEN, accounts: [globex] }] });
    await as(emu, ACME_TOKEN, '/zones');
    await as(emu, GLOBEX_TOKEN, '/zones');
    const served = await raw(emu, 'GET', '/__emulator/stats');
    expect(served.json.byCredential).toEqual({ acme: { requests: 1, rateLimited: 0 }, [`account-token:${globex}`]: { requests: 1, rateLimited: 0 } });
    expect(served.text).not.toContain(ACME_TOKEN);
    expect(served.text).not.toContain(GLOBEX_TOKEN);
    expect((await raw(emu, 'DELETE', '/__emulator/stats')).json.byCredential).toEqual({});
  });
});

describe('extra account-owned tokens', () => {
  it('read their own account, also one the user is not a member of, and nothing else', async () => {
    // vendor docs: account-owned tokens belong to an account and act on that account's resources only
    const { acme, globex } = await caseAccounts();
    const emu = await emulator({ dataset: caseDataset(), accountTokens: [{ token: GLOBEX_TOKEN, accounts: [globex] }] });
    const zones = await as(emu, GLOBEX_TOKEN, '/zones?per_page=50');
    expect(zones.status).toBe(200);
    expect(zones.json.result.length).toBeGreaterThan(0);
    expect(new Set(zones.json.result.map((z: { account: { id: string } }) => z.account.id))).toEqual(new Set([globex]));
    expect((await as(emu, GLOBEX_TOKEN, `/accounts/${globex}`)).status).toBe(200);
    expect((await as(emu, GLOBEX_TOKEN, `/accounts/${acme}`)).status).toBe(404);
    const acmeZone = emu.org.state.zones.find((z) => z.accountId === acme)!.id;
    // vendor answer: a zone the caller cannot see is 400 code 1003, as an unknown one
    expect((await as(emu, GLOBEX_TOKEN, `/zones/${acmeZone}`)).json.errors[0].code).toBe(1003);

    // The user is no member of Globex: its view is unchanged by the token's.
    expect((await raw(emu, 'GET', `/accounts/${globex}`)).status).toBe(404);
    const userZones = await raw(emu, 'GET', '/zones?per_page=50');
    expect(userZones.json.result.some((z: { account: { id: string } }) => z.account.id === globex)).toBe(false);
  });

  it('cannot list accounts (400 code 1001) nor read the user-level invites', async () => {
    // vendor answer: GET /accounts with an account-owned token: 400 1001 "List accounts endpoint does not support account owned tokens."
    const { acme } = await caseAccounts();
    const emu = await emulator({ dataset: caseDataset(), accountTokens: [{ token: ACME_TOKEN, accounts: [acme] }] });
    const list = await as(emu, ACME_TOKEN, '/accounts');
    expect(list.status).toBe(400);
    expect(list.json.errors).toEqual([{ code: 1001, message: 'List accounts endpoint does not support account owned tokens.' }]);
    expect((await as(emu, ACME_TOKEN, '/user/invites')).status).toBe(403);
    // The user's own token still lists them.
    expect((await raw(emu, 'GET', '/accounts')).status).toBe(200);
  });

  it.each<[string, (ids: { acme: string; globex: string }) => Parameters<typeof emulatorFor>[0]]>([
    ['an account the dataset lacks', () => ({ accountTokens: [{ token: ACME_TOKEN, accounts: ['0'.repeat(32)] }] })],
    ['no account', () => ({ accountTokens: [{ token: ACME_TOKEN, accounts: [] }] })],
    ["the emulator's own token", ({ acme }) => ({ accountTokens: [{ token: 'emulator-token', accounts: [acme] }] })],
    ['a label taken twice', ({ acme, globex }) => ({ accountTokens: [{ token: ACME_TOKEN, accounts: [acme], label: 'ops' }, { token: GLOBEX_TOKEN, accounts: [globex], label: 'ops' }] })],
    ['the label of the user', ({ acme }) => ({ accountTokens: [{ token: ACME_TOKEN, accounts: [acme], label: 'user' }] })],
    ['a token that is no header value', ({ acme }) => ({ accountTokens: [{ token: 'two words', accounts: [acme] }] })],
  ])('are refused with %s', async (_what, options) => {
    const ids = await caseAccounts();
    await expect(emulatorFor({ dataset: caseDataset(), ...options(ids) })).rejects.toThrow(DatasetError);
  });
});
