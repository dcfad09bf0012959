import { afterEach, describe, expect, it } from 'vitest';
import { ClientSet } from '../../src/api/client-set.js';
import type { DeclaredReads } from '../../src/api/endpoints.js';
import type { ApiClient } from '../../src/api/client.js';
import { createRedactor } from '../../src/common/redact.js';
import { ScanCannotStart } from '../../src/crawler/first-calls.js';
import { runScan, ScanFailed } from '../../src/crawler/run-scan.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { caseDataset } from '../support/case-dataset.js';
import { clientFor, recordingLogger } from '../support/client.js';
import { emulatorFor, emulatorsClosedAfterEach, TOKEN } from '../support/http.js';
import { READS } from '../support/nights.js';

/**
 * A credential per account: an organisation spread over several accounts gives each an
 * account-owned token, whose budget is its own (vendor docs: rate limits, 1,200 requests per 5
 * minutes per user or account-owned token). The scan reads each account with its credential, and
 * the others with the default one.
 */

const emulator = emulatorsClosedAfterEach();
const ACME_TOKEN = 'acme-owned-token-5f0c2b9d7e1a4c3b';
const clients: ApiClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

function client(emu: RunningEmulator, token: string, variables?: string): ApiClient {
  const c = clientFor(emu, { credentials: { kind: 'token', token }, budget: 1_000_000, budgetWindowMs: 1000, retries: 0, ...(variables ? { credentialVariables: variables } : {}) });
  clients.push(c);
  return c;
}

async function accountIds(): Promise<{ acme: string; other: string }> {
  const probe = await emulatorFor({ dataset: caseDataset() });
  try {
    const accounts = probe.org.state.accounts;
    const acme = accounts.find((a) => a.name.startsWith('Acme'))!.id;
    const other = accounts.find((a) => a.id !== acme && probe.org.visibleZones().some((z) => z.accountId === a.id))!.id;
    return { acme, other };
  } finally {
    await probe.close();
  }
}

async function acmeId(): Promise<string> {
  return (await accountIds()).acme;
}

/** A token the API does not know (vendor's API reference: 403 code 9109, "Invalid access token"). */
const UNKNOWN_TOKEN = 'canary-unknown-token-7d41e0a9c2';

async function scanWith(
  emu: RunningEmulator,
  set: ClientSet,
  scope = { accounts: [] as string[], zones: [] as string[] },
  more: { db?: Db; logger?: ReturnType<typeof recordingLogger>; incremental?: { full: boolean; fullEvery: number }; reads?: DeclaredReads } = {},
) {
  const db = more.db ?? openSnapshot(':memory:');
  const logger = more.logger ?? recordingLogger();
  const outcome = await runScan({
    db,
    client: set.primary,
    clients: set,
    scope,
    concurrency: 4,
    logger,
    redact: createRedactor([TOKEN, ACME_TOKEN]),
    repairPauseMs: 0,
    ...(more.incremental ? { incremental: more.incremental } : {}),
    ...(more.reads ? { reads: more.reads } : {}),
  });
  return { db, outcome, reader: new SnapshotReader(db, outcome.scanId) };
}

describe('a credential per account', () => {
  it("reads a mapped account's zones with its own token, each request on that token's budget, and the rest with the default", async () => {
    const acme = await acmeId();
    const emu = await emulator({ dataset: caseDataset(), accountTokens: [{ token: ACME_TOKEN, accounts: [acme] }] });
    const set = new ClientSet({ label: 'ZONEWARDEN_API_TOKEN', client: client(emu, TOKEN) }, [{ label: 'ZW_TOKEN_ACME', client: client(emu, ACME_TOKEN), accounts: [acme] }]);
    const { outcome, reader } = await scanWith(emu, set);
    expect(outcome.status).toBe('complete');
    const all = emu.org.visibleZones();
    expect(reader.zones().map((z) => z.name).sort()).toEqual(all.map((z) => z.name).sort());
    const byCredential = emu.stats().byCredential;
    const acmeZones = all.filter((z) => z.accountId === acme).length;
    expect(acmeZones).toBeGreaterThan(0);
    // Every read of Acme's zones (at least one call each) went through its token; the user listed the accounts.
    expect(byCredential[`account-token:${acme}`]!.requests).toBeGreaterThanOrEqual(acmeZones);
    expect(byCredential['user']!.requests).toBeGreaterThan(0);
    // The summary counts both credentials' requests.
    expect(outcome.summary.requests.total).toBe(emu.stats().requests.total);
  });

  it('reads only the mapped accounts, with no user-level call, when there is no default credential', async () => {
    const acme = await acmeId();
    const emu = await emulator({ dataset: caseDataset(), accountTokens: [{ token: ACME_TOKEN, accounts: [acme] }] });
    const set = new ClientSet(null, [{ label: 'ZW_TOKEN_ACME', client: client(emu, ACME_TOKEN), accounts: [acme] }]);
    const { outcome, reader } = await scanWith(emu, set);
    expect(outcome.status).toBe('complete');
    expect(new Set(reader.zones().map((z) => z.accountId))).toEqual(new Set([acme]));
    const routes = Object.keys(emu.stats().requests.byRoute);
    // vendor's API reference: an account-owned token cannot list accounts (code 1001) nor read /user.
    expect(routes).not.toContain('GET /accounts');
    expect(routes).not.toContain('GET /user/invites');
    expect(Object.keys(emu.stats().byCredential)).toEqual([`account-token:${acme}`]);
  });

  it("reads the other accounts when one mapped token is refused, and names that token's variable in each part it lost", async () => {
    const acme = await acmeId();
    const emu = await emulator({ dataset: caseDataset() });
    const set = new ClientSet({ label: 'ZONEWARDEN_API_TOKEN', client: client(emu, TOKEN) }, [{ label: 'ZW_TOKEN_ACME', client: client(emu, UNKNOWN_TOKEN, 'ZW_TOKEN_ACME'), accounts: [acme] }]);
    const { outcome, reader } = await scanWith(emu, set);
    expect(outcome.status).toBe('incomplete');
    const lost = outcome.summary.missing;
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.every((m) => m.reason.includes('check ZW_TOKEN_ACME') && !m.reason.includes('ZONEWARDEN_API_TOKEN') && !m.reason.includes(UNKNOWN_TOKEN))).toBe(true);
    // Every account but Acme was read with the default credential.
    const others = emu.org.visibleZones().filter((z) => z.accountId !== acme);
    expect(reader.zones().filter((z) => z.accountId !== acme).length).toBe(others.length);
  });

  it('scans the accounts of a token the API takes when another mapped token is refused, with no default credential', async () => {
    const { acme, other } = await accountIds();
    const emu = await emulator({ dataset: caseDataset(), accountTokens: [{ token: ACME_TOKEN, accounts: [acme] }] });
    const set = new ClientSet(null, [
      { label: 'ZW_TOKEN_ACME', client: client(emu, ACME_TOKEN, 'ZW_TOKEN_ACME'), accounts: [acme] },
      { label: 'ZW_TOKEN_OTHER', client: client(emu, UNKNOWN_TOKEN, 'ZW_TOKEN_OTHER'), accounts: [other] },
    ]);
    const { outcome, reader } = await scanWith(emu, set, { accounts: [acme, other], zones: [] });
    // The outcome is the same whichever token answers first: the refused one costs its accounts, not the scan.
    expect(outcome.status).toBe('incomplete');
    expect(reader.zones().length).toBe(emu.org.visibleZones().filter((z) => z.accountId === acme).length);
    expect(outcome.summary.missing.map((m) => m.scopeId)).toContain(other);
    expect(outcome.summary.missing.every((m) => m.reason.includes('check ZW_TOKEN_OTHER'))).toBe(true);
  });

  it('ends the scan with one line naming the variable when the only credential, a mapped one, is refused', async () => {
    const acme = await acmeId();
    const emu = await emulator({ dataset: caseDataset() });
    const set = new ClientSet(null, [{ label: 'ZW_TOKEN_ACME', client: client(emu, UNKNOWN_TOKEN, 'ZW_TOKEN_ACME'), accounts: [acme] }]);
    const error = await scanWith(emu, set, { accounts: [acme], zones: [] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ScanFailed);
    const fatal = (error as ScanFailed).error as ScanCannotStart;
    expect(fatal).toBeInstanceOf(ScanCannotStart);
    expect(fatal.exitCode).toBe(2);
    expect(fatal.message).toMatch(/^the API refused the credentials \(GET \/zones: HTTP 403, 9109 [^)]*\): check ZW_TOKEN_ACME \(a valid/);
    expect(fatal.message).not.toContain('ZONEWARDEN_API_TOKEN');
    expect(fatal.message).not.toContain(UNKNOWN_TOKEN);
  });

  it('ends the scan with one line naming every mapped variable when every credential is refused', async () => {
    const { acme, other } = await accountIds();
    const emu = await emulator({ dataset: caseDataset() });
    const set = new ClientSet(null, [
      { label: 'ZW_TOKEN_ACME', client: client(emu, UNKNOWN_TOKEN, 'ZW_TOKEN_ACME'), accounts: [acme] },
      { label: 'ZW_TOKEN_OTHER', client: client(emu, `${UNKNOWN_TOKEN}-2`, 'ZW_TOKEN_OTHER'), accounts: [other] },
    ]);
    const error = await scanWith(emu, set, { accounts: [acme, other], zones: [] }).then(
      () => null,
      (e: unknown) => e,
    );
    const fatal = (error as ScanFailed).error as ScanCannotStart;
    expect(fatal).toBeInstanceOf(ScanCannotStart);
    // Either may be refused last: both are named, once each.
    expect(fatal.message).toMatch(/: check (ZW_TOKEN_ACME, ZW_TOKEN_OTHER|ZW_TOKEN_OTHER, ZW_TOKEN_ACME) \(each a valid, unexpired token or key with read access\)$/);
    expect(fatal.message).not.toContain(UNKNOWN_TOKEN);
  });

  it("says once per credential, by its variable, that it may not read the audit log", async () => {
    // vendor docs: audit logs: reading them needs the Account Settings Read (or audit logs read) permission.
    const acme = await acmeId();
    const emu = await emulator({ dataset: caseDataset(), accountTokens: [{ token: ACME_TOKEN, accounts: [acme] }], auditLog: 'denied' });
    const set = new ClientSet({ label: 'ZONEWARDEN_API_TOKEN', client: client(emu, TOKEN) }, [{ label: 'ZW_TOKEN_ACME', client: client(emu, ACME_TOKEN, 'ZW_TOKEN_ACME'), accounts: [acme] }]);
    const incremental = { full: false, fullEvery: 7 };
    const { db } = await scanWith(emu, set, undefined, { incremental });
    emu.night({ share: 0.1, seed: 1 });
    const logger = recordingLogger();
    await scanWith(emu, set, undefined, { db, logger, incremental });
    const said = logger.lines.filter((l) => l.includes('may not read the account audit log'));
    const accounts = new Set(emu.org.visibleZones().map((z) => z.accountId));
    expect(accounts.size).toBeGreaterThan(2);
    // One line for the default credential (however many of its accounts were refused), one for Acme's token.
    expect(said).toHaveLength(2);
    expect(said.filter((l) => l.includes('the credential in ZW_TOKEN_ACME'))).toHaveLength(1);
    expect(said.filter((l) => l.includes('the default credential'))).toHaveLength(1);
    expect(said.join('\n')).not.toContain(ACME_TOKEN);
  });

  it("denies what a permission one credential lost covers for that credential's zones only: the others carry as before", async () => {
    // vendor docs: API token permissions: each token holds its own; a token lacking Bot Management Read is answered
    // 403 for every zone. Issue 49: a permission lost is noticed the first night, not carried for --full-every nights.
    const acme = await acmeId();
    const denied: string[] = [];
    const emu = await emulator({ dataset: caseDataset(), accountTokens: [{ token: ACME_TOKEN, accounts: [acme], denyRoutes: denied }] });
    const set = new ClientSet({ label: 'ZONEWARDEN_API_TOKEN', client: client(emu, TOKEN) }, [{ label: 'ZW_TOKEN_ACME', client: client(emu, ACME_TOKEN, 'ZW_TOKEN_ACME'), accounts: [acme] }]);
    const incremental = { full: false, fullEvery: 40 };
    const { db } = await scanWith(emu, set, undefined, { incremental, reads: READS });
    emu.night({ share: 0, seed: 1 });
    const bot = 'GET /zones/{zone_id}/bot_management';
    denied.push(bot);
    const botCalls = () => emu.stats().requests.byRoute[bot] ?? 0;
    const before = botCalls();
    const logger = recordingLogger();
    const { outcome, reader } = await scanWith(emu, set, undefined, { db, logger, incremental, reads: READS });
    expect(outcome.summary.reads).toMatchObject({ incremental: true, zonesRead: 0 });
    expect(outcome.status).toBe('incomplete');
    const zones = reader.zones();
    expect(zones.some((z) => z.accountId === acme)).toBe(true);
    expect(zones.some((z) => z.accountId !== acme)).toBe(true);
    for (const z of zones) expect(reader.coverageOf('zone', z.id, 'bot_management')?.state, z.name).toBe(z.accountId === acme ? 'denied' : 'ok');
    const said = logger.lines.filter((l) => l.includes('was refused Zone · Bot Management · Read ('));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('the credential in ZW_TOKEN_ACME');
    expect(said[0]).not.toContain(ACME_TOKEN);
    // Nothing was read in full that night: each credential was asked one probe of the group, whatever its number of zones.
    expect(botCalls() - before).toBe(2);
  });
});
