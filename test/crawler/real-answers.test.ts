import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClientOptions } from '../../src/api/client.js';
import { ScanCannotStart } from '../../src/crawler/first-calls.js';
import { runScan, ScanFailed, type ScanOutcome } from '../../src/crawler/run-scan.js';
import { summaryText } from '../../src/cli/output/scan-summary.js';
import { diffScans } from '../../src/drift/diff.js';
import { recordAudit } from '../../src/audit/audit.js';
import { catalogue } from '../../src/policy/catalogue.js';
import { activeRules } from '../../src/policy/registry.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { silentLogger } from '../../src/common/logger.js';
import { createRedactor } from '../../src/common/redact.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import type { ScanScope } from '../../src/snapshot/writer.js';
import { caseDataset } from '../support/case-dataset.js';
import { clientFor } from '../support/client.js';
import { emulatorsClosedAfterEach, TOKEN, zoneId } from '../support/http.js';

/**
 * The crawler against the answers the real API gives that the spec does not list: refused
 * credentials, account-owned tokens, retired endpoints, an API that cannot be reached, and list
 * pages without totals. Each scan runs as the CLI runs it (runScan), on a real database.
 */

const emulator = emulatorsClosedAfterEach();
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

async function scanOf(
  emu: RunningEmulator | { url: string },
  options: { scope?: Partial<ScanScope>; client?: Partial<ApiClientOptions>; db?: Db } = {},
): Promise<{ outcome: ScanOutcome | null; error: unknown; db: Db }> {
  const db = options.db ?? openSnapshot(join(mkdtempSync(join(tmpdir(), 'zw-real-')), 'zonewarden.db'));
  if (!options.db) dbs.push(db);
  const client = clientFor(emu as RunningEmulator, { budget: 1_000_000, budgetWindowMs: 1000, ...options.client });
  try {
    const outcome = await runScan({
      db,
      client,
      scope: { accounts: options.scope?.accounts ?? [], zones: options.scope?.zones ?? [] },
      concurrency: 4,
      logger: silentLogger,
      redact: createRedactor([TOKEN]),
    });
    return { outcome, error: null, db };
  } catch (err) {
    return { outcome: null, error: err, db };
  } finally {
    await client.close();
  }
}

function cannotStart(error: unknown): ScanCannotStart {
  expect(error).toBeInstanceOf(ScanFailed);
  const inner = (error as ScanFailed).error;
  expect(inner).toBeInstanceOf(ScanCannotStart);
  return inner as ScanCannotStart;
}

const scanStatus = (db: Db) => db.prepare('SELECT status FROM scans').all() as Array<{ status: string }>;

describe('refused credentials', () => {
  // docs/api-surface.md, answers beyond the spec: 403 9109 "Invalid access token" for a bad, revoked
  // or IP-restricted token; 401 or 403 code 10000 "Authentication error" on some endpoints.
  it.each(['9109', '401', '10000'] as const)('end the scan on the first call when refused as %s: one line naming the variable, the scan aborted', async (answer) => {
    const emu = await emulator({ dataset: caseDataset(), badCredentials: answer });
    const { error, db } = await scanOf(emu, { client: { credentials: { kind: 'token', token: 'revoked-token' } } });
    const fatal = cannotStart(error);
    expect(fatal.code).toBe('ZW_CREDENTIALS_REJECTED');
    expect(fatal.exitCode).toBe(2);
    expect(fatal.message).toMatch(/^the API refused the credentials \(GET \/accounts: HTTP 40[13], (9109 Invalid access token|10000 Authentication error)\): check ZONEWARDEN_API_TOKEN \(or CLOUDFLARE_API_TOKEN\) \(a valid/);
    expect(fatal.message).not.toContain('\n');
    expect(fatal.message).not.toContain('revoked-token');
    // Nothing after the refusal was asked, and no scan is recorded as complete.
    expect(emu.stats().requests.total).toBe(1);
    expect(scanStatus(db)).toEqual([{ status: 'aborted' }]);
  });

  it('names the key-pair variables for a refused key pair', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const { error } = await scanOf(emu, { client: { credentials: { kind: 'key', email: 'admin@example.com', key: 'wrong-key' } } });
    expect(cannotStart(error).message).toMatch(/HTTP 403, 10000 Authentication error\): check ZONEWARDEN_API_EMAIL and ZONEWARDEN_API_KEY \(or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY\) \(a valid/);
  });

  it('says what to do about a token restricted to other addresses', async () => {
    // docs/api-surface.md, answers beyond the spec: 403 9109 "Cannot use the access token from location" for an IP-restricted token.
    const server = await answeringServer(403, { success: false, errors: [{ code: 9109, message: 'Cannot use the access token from location: 192.0.2.7' }], messages: [], result: null });
    try {
      const { error } = await scanOf({ url: server.url });
      expect(cannotStart(error).message).toMatch(/restricted to other client IP addresses: allow this host's address/);
    } finally {
      await server.close();
    }
  });

  it('records a refusal later in the scan as denied ("grant the permission"), not failed, and the scan goes on', async () => {
    // docs/api-surface.md, answers beyond the spec: 403 9109 "Unauthorized to access requested resource" for a permission the token lacks.
    const emu = await emulator({ dataset: caseDataset(), denyRoutes: ['GET /zones/{zone_id}/filters'] });
    const { outcome, db } = await scanOf(emu);
    expect(outcome?.status).toBe('incomplete');
    const id = zoneId(emu, 'acme-bank.example');
    const reader = new SnapshotReader(db, outcome!.scanId);
    expect(reader.coverageOf('zone', id, 'filters')).toMatchObject({ state: 'denied', httpStatus: 403, apiCode: 9109 });
    expect(reader.coverageOf('zone', id, 'dns_records')?.state).toBe('ok');
    expect(outcome!.summary.missing.every((p) => p.endpoint === 'filters' && p.state === 'denied')).toBe(true);
    // Refusals are not retried: one call per zone.
    expect(emu.stats().requests.byRoute['GET /zones/{zone_id}/filters']).toBe(emu.org.visibleZones().length);
  });
});

describe('account-owned tokens', () => {
  // docs/api-surface.md, answers beyond the spec: GET /accounts answers an account-owned token with 400 code 1001.
  it('read every zone through GET /zones when the accounts cannot be listed, and the scan is complete', async () => {
    const emu = await emulator({ dataset: caseDataset(), tokenKind: 'account' });
    const { outcome, db } = await scanOf(emu);
    expect(outcome?.status).toBe('complete');
    const visible = emu.org.visibleZones();
    expect(new Set(visible.map((z) => z.accountId)).size).toBe(1);
    const reader = new SnapshotReader(db, outcome!.scanId);
    expect(reader.zones().map((z) => z.id).sort()).toEqual(visible.map((z) => z.id).sort());
    expect(reader.coverageOf('user', '', 'accounts')).toMatchObject({ state: 'denied', httpStatus: 400, apiCode: 1001 });
    expect(reader.coverageOf('account', visible[0]!.accountId, 'zones')).toMatchObject({ state: 'ok', items: visible.length });
    // Invites are not readable with such a token: said, and not a gap.
    expect(reader.coverageOf('user', '', 'invites')?.state).toBe('denied');
    expect(outcome!.summary.missing).toEqual([]);
    expect(outcome!.summary.notPermitted.map((p) => p.endpoint).sort()).toEqual(['accounts', 'invites']);
    expect(outcome!.summary.accounts).toBe(1);
    expect(summaryText(outcome!.summary)).toMatch(/not readable with these credentials: user: accounts \(denied\): these credentials are an account-owned token/);
  });

  it('read the account --account names, and the scan is complete', async () => {
    const emu = await emulator({ dataset: caseDataset(), tokenKind: 'account' });
    const account = emu.org.visibleAccounts()[0]!.id;
    const { outcome } = await scanOf(emu, { scope: { accounts: [account] } });
    expect(outcome?.status).toBe('complete');
    expect(outcome!.summary.zones).toBe(emu.org.visibleZones().length);
    expect(emu.stats().requests.byRoute['GET /accounts']).toBe(1);
  });
});

describe('retired endpoints', () => {
  // vendor SDK (cloudflare 7.x, firewall/waf/overrides): "This endpoint has been deprecated and returns 410 Gone".
  it('records 410 Gone as retired, asks once, and leaves the scan complete', async () => {
    const emu = await emulator({ dataset: caseDataset(), apiEra: 'retired' });
    const { outcome, db } = await scanOf(emu);
    expect(outcome?.status).toBe('complete');
    const reader = new SnapshotReader(db, outcome!.scanId);
    const enterprise = emu.org.visibleZones().find((z) => z.plan === 'enterprise' && z.migration.state !== 'complete' && z.migration.state !== 'none')!;
    for (const partition of ['waf_packages', 'waf_groups', 'waf_rules', 'waf_overrides'] as const) {
      expect(reader.coverageOf('zone', enterprise.id, partition), partition).toMatchObject({ state: 'retired', httpStatus: 410 });
    }
    expect(reader.wafOverrides(enterprise.id)).toMatchObject({ known: false, state: 'retired', reason: expect.stringMatching(/retired this endpoint \(HTTP 410/) });
    // Not retried: one call per zone that asks. Zones born on the new managed rules (state none, the
    // Fabrikam and Contoso accounts) never had the previous WAF, so they do not ask either.
    const asked = emu.org.visibleZones().filter((z) => z.migration.state !== 'complete' && z.migration.state !== 'none' && z.plan !== 'free');
    expect(emu.stats().requests.byRoute['GET /zones/{zone_id}/firewall/waf/packages']).toBe(asked.length);
    expect(outcome!.summary.retired.length).toBeGreaterThan(0);
    expect(summaryText(outcome!.summary)).toMatch(/retired by the API \(not missing; checks that need it say "unknown"\): waf_overrides of \d+ zones?: /);
  });
});

describe('retired endpoints in drift', () => {
  it('are no drift when retired in both scans, and unknown (retired) when retired since the earlier one', async () => {
    const classic = await emulator({ dataset: caseDataset() });
    const { db } = await scanOf(classic);
    const retired = await emulator({ dataset: caseDataset(), apiEra: 'retired' });
    const second = await scanOf(retired, { db });
    const third = await scanOf(retired, { db });
    const rules = activeRules(catalogue(), {}, 'defaults');
    const audit = (reader: SnapshotReader) => void recordAudit(db, reader, rules, []);
    const legacyUnknown = (d: ReturnType<typeof diffScans>) => d.configuration.unknown.filter((u) => u.type.startsWith('waf_'));
    const since = legacyUnknown(diffScans(db, { from: 1, to: second.outcome!.scanId, audit }));
    expect(since.length).toBeGreaterThan(0);
    expect(since.every((u) => u.state === 'retired' && /retired this endpoint/.test(u.reason))).toBe(true);
    expect(legacyUnknown(diffScans(db, { from: second.outcome!.scanId, to: third.outcome!.scanId, audit }))).toEqual([]);
  });
});

describe('an API that cannot be reached', () => {
  it('ends the scan on the first call for a refused connection, naming the cause', async () => {
    const server = await answeringServer(200, {});
    await server.close();
    const { error, db } = await scanOf({ url: server.url }, { client: { retries: 1 } });
    const fatal = cannotStart(error);
    expect(fatal.code).toBe('ZW_API_UNREACHABLE');
    expect(fatal.message).toMatch(/^the API at http:\/\/127\.0\.0\.1:\d+\/client\/v4 cannot be reached: GET \/accounts: connection failed \(ECONNREFUSED\)/);
    expect(scanStatus(db)).toEqual([{ status: 'aborted' }]);
  });
});

describe('the certificate-pack status filter', () => {
  // spec: Endpoints (certificate_packs: `ssl_status`, the value `all` occurs); docs/api-surface.md, answers beyond the spec: the
  // current API reads `status=all`, and without it lists only active packs.
  it('asks with both ssl_status=all and status=all', async () => {
    const urls: string[] = [];
    const server = await answeringServer(200, (path: string) => {
      if (path.endsWith('/accounts')) return [{ id: 'acc1' }];
      if (path.endsWith('/zones')) return [{ id: 'zone1', name: 'one.example', plan: { legacy_id: 'free' }, account: { id: 'acc1' } }];
      return path.includes('/waf_migration/') ? {} : [];
    }, urls);
    try {
      const { outcome } = await scanOf({ url: server.url });
      expect(outcome?.status).toBe('complete');
      const packs = urls.filter((u) => u.includes('/ssl/certificate_packs')).map((u) => new URL(u, 'http://x').searchParams);
      expect(packs).toHaveLength(1);
      expect(packs[0]!.get('status')).toBe('all');
      expect(packs[0]!.get('ssl_status')).toBe('all');
    } finally {
      await server.close();
    }
  });
});

describe('list pages without totals', () => {
  // docs/api-surface.md, answers beyond the spec (Paging): a page shorter than per_page that is not the last; result_info
  // without total_pages (accounts, firewall rules, filters).
  it('reads past a short page to an empty one, losing nothing', async () => {
    const emu = await emulator({ dataset: 'generated', generated: { seed: 5, accounts: 2, zones: 120, records: 240 }, noTotals: true, shortPages: true });
    const { outcome, db } = await scanOf(emu);
    expect(outcome?.status).toBe('complete');
    const reader = new SnapshotReader(db, outcome!.scanId);
    // Every full page of 50 comes one short (that item is never served); stopping at the first
    // short page would keep 49 zones of an account that has more than 50.
    const perAccount = new Map<string, number>();
    for (const z of emu.org.visibleZones()) perAccount.set(z.accountId, (perAccount.get(z.accountId) ?? 0) + 1);
    expect([...perAccount.values()].some((n) => n > 50)).toBe(true);
    const served = [...perAccount.values()].reduce((sum, n) => sum + n - Math.floor(n / 50), 0);
    expect(reader.zones()).toHaveLength(served);
  });
});

/**
 * A server giving one status to every request: a fixed body, or an envelope around the result a
 * function gives for the path (lists have one page, and answer no totals, so later pages are
 * empty). `urls` collects what was asked.
 */
async function answeringServer(status: number, body: unknown, urls: string[] = []): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    urls.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    const later = Number(url.searchParams.get('page') ?? '1') > 1;
    const answer =
      typeof body === 'function'
        ? { success: true, errors: [], messages: [], result: later ? [] : (body as (path: string) => unknown)(url.pathname) }
        : body;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/client/v4`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
