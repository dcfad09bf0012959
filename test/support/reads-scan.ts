import { afterEach } from 'vitest';
import type { DeclaredReads } from '../../src/api/endpoints.js';
import { createRedactor } from '../../src/common/redact.js';
import { crawl, type CrawlResult } from '../../src/crawler/crawl.js';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { ScanWriter } from '../../src/snapshot/writer.js';
import { clientFor, recordingLogger } from './client.js';
import { emulatorsClosedAfterEach, TOKEN } from './http.js';

export interface ReadsScan {
  emu: RunningEmulator;
  /** Every request the emulator answered, as `METHOD path status time`. */
  lines: string[];
  reader: SnapshotReader;
  result: CrawlResult;
}

/**
 * Scans of `dataset` into an in-memory snapshot, with the declared reads given (undefined: the
 * crawler's default), each from its own emulator (options such as denyRoutes or failRoutes added),
 * recording the requests: for tests of what a read asks and stores. Emulators and databases are
 * closed after each test.
 */
export function scansWithReads(dataset: DatasetFile): (reads: DeclaredReads | undefined, options?: EmulatorOptions) => Promise<ReadsScan> {
  const emulator = emulatorsClosedAfterEach();
  const dbs: Db[] = [];
  afterEach(() => {
    for (const db of dbs.splice(0)) db.close();
  });
  return async (reads, options = {}) => {
    const lines: string[] = [];
    const emu = await emulator({ dataset, ...options, onRequest: (line) => lines.push(line) });
    const db = openSnapshot(':memory:');
    dbs.push(db);
    const client = clientFor(emu, { budget: 1_000_000, budgetWindowMs: 1000, retries: 0 });
    try {
      const writer = ScanWriter.start(db, emu.url, { accounts: [], zones: [] }, createRedactor([TOKEN]));
      const result = await crawl({ client, writer, scope: { accounts: [], zones: [] }, concurrency: 2, logger: recordingLogger(), repairPauseMs: 0, ...(reads ? { reads } : {}) });
      writer.finish(result.missing.length ? 'incomplete' : 'complete', {});
      return { emu, lines, reader: new SnapshotReader(db, writer.scanId), result };
    } finally {
      await client.close();
    }
  };
}
