import { afterEach, describe, expect, it } from 'vitest';
import { ClientSet } from '../../src/api/client-set.js';
import type { ApiClient } from '../../src/api/client.js';
import { createRedactor } from '../../src/common/redact.js';
import { runScan } from '../../src/crawler/run-scan.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { caseDataset } from '../support/case-dataset.js';
import { clientFor, recordingLogger } from '../support/client.js';
import { emulatorFor, emulatorsClosedAfterEach, TOKEN } from '../support/http.js';

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

function client(emu: RunningEmulator, token: string): ApiClient {
  const c = clientFor(emu, { credentials: { kind: 'token', token }, budget: 1_000_000, budgetWindowMs: 1000, retries: 0 });
  clients.push(c);
  return c;
}

async function acmeId(): Promise<string> {
  const probe = await emulatorFor({ dataset: caseDataset() });
  try {
    return probe.org.state.accounts.find((a) => a.name.startsWith('Acme'))!.id;
  } finally {
    await probe.close();
  }
}

async function scanWith(emu: RunningEmulator, set: ClientSet, scope = { accounts: [] as string[], zones: [] as string[] }) {
  const db = openSnapshot(':memory:');
  const outcome = await runScan({ db, client: set.primary, clients: set, scope, concurrency: 4, logger: recordingLogger(), redact: createRedactor([TOKEN, ACME_TOKEN]), repairPauseMs: 0 });
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
});
