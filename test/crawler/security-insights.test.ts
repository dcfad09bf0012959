/**
 * The read of the vendor's own scanner's findings (Security Insights) against the emulator over
 * real HTTP: once per account and scan, every page at the largest size, only the open issues
 * stored (one row each, with the account), and a token without the permission noted once, the
 * scan complete all the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientStats } from '../../src/api/stats.js';
import { crawl, type CrawlResult } from '../../src/crawler/crawl.js';
import { INSIGHTS_PER_PAGE } from '../../src/crawler/reads/security-insights.js';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { createRedactor } from '../../src/common/redact.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { ScanWriter } from '../../src/snapshot/writer.js';
import { summaryText } from '../../src/cli/output/scan-summary.js';
import { buildSummary } from '../../src/crawler/summary.js';
import { clientFor, recordingLogger } from '../support/client.js';
import { AUTH, emulatorsClosedAfterEach, TOKEN } from '../support/http.js';

const emulator = emulatorsClosedAfterEach();
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

const ROUTE = 'GET /accounts/{account_id}/security-center/insights';

/** Two Free zones of one account, on the vendor's defaults: no HSTS, HTTP not redirected, TLS 1.0, no DMARC, Bot Fight Mode off. */
const dataset = (records = 0): DatasetFile => ({
  version: 1,
  accounts: [
    {
      name: 'Example',
      zones: [
        { name: 'one.example', plan: 'free', dns_records: Array.from({ length: records }, (_, i) => ({ type: 'A', name: `h${i}.one.example`, content: `192.0.2.${(i % 250) + 1}` })) },
        { name: 'two.example', plan: 'free' },
      ],
    },
  ],
});

async function scan(emu: RunningEmulator): Promise<{ reader: SnapshotReader; result: CrawlResult; db: Db; scanId: number }> {
  const db = openSnapshot(':memory:');
  dbs.push(db);
  const client = clientFor(emu, { budget: 1_000_000, budgetWindowMs: 1000, retries: 0 });
  try {
    const writer = ScanWriter.start(db, emu.url, { accounts: [], zones: [] }, createRedactor([TOKEN]));
    const result = await crawl({ client, writer, scope: { accounts: [], zones: [] }, concurrency: 2, logger: recordingLogger() });
    writer.finish(result.missing.length ? 'incomplete' : 'complete', {});
    return { reader: new SnapshotReader(db, writer.scanId), result, db, scanId: writer.scanId };
  } finally {
    await client.close();
  }
}

const accountId = (emu: RunningEmulator) => emu.org.state.accounts[0]!.id;

async function servedCount(emu: RunningEmulator): Promise<number> {
  const res = await fetch(`${emu.url}/accounts/${accountId(emu)}/security-center/insights?dismissed=false`, { headers: AUTH });
  return ((await res.json()) as { result: { count: number } }).result.count;
}

describe("the vendor's security insights read", () => {
  it('stores every open insight once per account, one row each, in one call for both zones', async () => {
    const emu = await emulator({ dataset: dataset() });
    const { reader, result } = await scan(emu);
    expect(result.missing).toEqual([]);
    const stored = reader.accountObjects(accountId(emu), 'security_insights');
    if (!stored.known) throw new Error(stored.reason);
    expect(emu.stats().requests.byRoute[ROUTE]).toBe(1);
    // Both zones' issues, in one read of the account: 5 each (no HSTS, Always Use HTTPS off, TLS 1.0,
    // no DMARC, Bot Fight Mode off), and the account's own (no Turnstile widget).
    expect(stored.items.length).toBe(await servedCount(emu));
    expect(stored.items.length).toBe(11);
    const classes = stored.items.map((r) => (JSON.parse(r.raw) as { issue_class: string }).issue_class);
    expect(new Set(classes)).toEqual(new Set(['hsts_not_enabled', 'always_https_not_enabled', 'tls_version_old', 'dmarc', 'manage_bot_fight_mode', 'no_turnstile_enabled']));
  });

  it(`pages through the list at ${INSIGHTS_PER_PAGE} a page until the count is reached`, async () => {
    // 150 DNS-only A records: one unproxied-record insight each, beside the 11 others.
    const emu = await emulator({ dataset: dataset(150) });
    const { reader } = await scan(emu);
    const stored = reader.accountObjects(accountId(emu), 'security_insights');
    if (!stored.known) throw new Error(stored.reason);
    expect(stored.items.length).toBe(161);
    expect(new Set(stored.items.map((r) => r.id)).size).toBe(161);
    expect(emu.stats().requests.byRoute[ROUTE]).toBe(2);
  });

  it('leaves out a dismissed insight', async () => {
    const emu = await emulator({ dataset: dataset() });
    const list = (await (await fetch(`${emu.url}/accounts/${accountId(emu)}/security-center/insights`, { headers: AUTH })).json()) as { result: { issues: Array<{ id: string }> } };
    const gone = list.result.issues[0]!.id;
    const put = await fetch(`${emu.url}/accounts/${accountId(emu)}/security-center/insights/${gone}/dismiss`, { method: 'PUT', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ dismiss: true }) });
    expect(put.status).toBe(200);
    const { reader } = await scan(emu);
    const stored = reader.accountObjects(accountId(emu), 'security_insights');
    if (!stored.known) throw new Error(stored.reason);
    expect(stored.items.map((r) => r.id)).not.toContain(gone);
    expect(stored.items.length).toBe(10);
  });

  it('notes a token without the permission once, in the summary and its JSON, and keeps the scan complete', async () => {
    const emu = await emulator({ dataset: dataset(), denyRoutes: [ROUTE] });
    const { reader, result, scanId } = await scan(emu);
    expect(result.missing).toEqual([]);
    const refused = result.notPermitted.filter((p) => p.endpoint === 'security_insights');
    // Two zones, one account: one note, for the account.
    expect(refused).toEqual([expect.objectContaining({ kind: 'account', scopeId: accountId(emu), state: 'denied' })]);
    expect(emu.stats().requests.byRoute[ROUTE]).toBe(1);
    expect(reader.accountObjects(accountId(emu), 'security_insights')).toMatchObject({ known: false, state: 'denied' });
    const stats = { total: { requests: 0, retries: 0, rateLimited: 0, bytes: 0 } } as unknown as ClientStats;
    const summary = buildSummary(scanId, 'complete', new Date(), result, {}, stats);
    expect(summary.notPermitted.filter((p) => p.endpoint === 'security_insights')).toHaveLength(1);
    expect(summaryText(summary).split('\n').filter((l) => l.includes('security_insights'))).toHaveLength(1);
  });
});
