import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScan, ScanFailed } from '../../src/crawler/run-scan.js';
import { createRedactor } from '../../src/common/redact.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { clientFor, recordingLogger } from '../support/client.js';
import { emulatorsClosedAfterEach } from '../support/http.js';

const emulator = emulatorsClosedAfterEach();

describe('a failure that is not an API answer', () => {
  it('stops every zone task: the scan fails once, aborted, and nothing writes after the database is closed', async () => {
    const emu = await emulator({ dataset: 'generated', generated: { seed: 5, accounts: 2, zones: 30, records: 6000 }, latencyMs: 30 });
    const db = openSnapshot(join(mkdtempSync(join(tmpdir(), 'zw-fatal-')), 'zonewarden.db'));
    const client = clientFor(emu, { budget: 1_000_000, budgetWindowMs: 1000 });
    // SQLite's own limit on the file's size: it answers SQLITE_FULL exactly as a full disk does.
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 150}`);
    let failure: unknown;
    try {
      await runScan({ db, client, scope: { accounts: [], zones: [] }, concurrency: 8, logger: recordingLogger(), redact: createRedactor([]) });
    } catch (err) {
      failure = err;
    }
    expect(failure).toBeInstanceOf(ScanFailed);
    expect((failure as ScanFailed).error).toMatchObject({ code: 'SQLITE_FULL' });
    // The crawl has returned: a zone task still running, or queued behind the limit, would go on
    // asking the API (the client is still open) and then write to a closed database.
    const requests = emu.stats().requests.total;
    db.close();
    await new Promise((r) => setTimeout(r, 500));
    await client.close();
    expect(emu.stats().requests.total).toBe(requests);
    const reopened = openSnapshot(db.name, { readonly: true });
    expect(reopened.prepare('SELECT id, status FROM scans').all()).toEqual([{ id: 1, status: 'aborted' }]);
    reopened.close();
  });
});
