import { resolve } from 'node:path';
import { catalogueReads, loadRules } from '../policy/catalogue.js';
import { ActionLog } from '../actions/log.js';
import type { ApiClient } from '../api/client.js';
import { redactorFor } from '../config/credentials.js';
import type { Config } from '../config/load.js';
import { runScan, ScanFailed } from '../crawler/run-scan.js';
import type { Logger } from '../common/logger.js';
import type { Redact } from '../common/redact.js';
import { openSnapshot, type Db } from '../snapshot/db.js';
import type { CommandIO } from './command.js';
import { clientFor, loggerFor } from './common.js';

/**
 * What every write command needs: the client, the database with its audit log, and a rescan of
 * the zones it changed, so that the next audit and report see the changes without waiting for
 * the nightly scan.
 */
export interface WriteSession {
  client: ApiClient;
  db: Db;
  log: ActionLog;
  logger: Logger;
  redact: Redact;
  /** Scans these zones into a new scan; returns its id, or null when the rescan failed (logged). */
  rescan(zoneNames: string[]): Promise<number | null>;
  close(): Promise<void>;
}

export function openWriteSession(config: Config, io: CommandIO): WriteSession {
  const logger = loggerFor(config, io);
  const client = clientFor(config, io, logger);
  const redact = redactorFor(io.env);
  let db: Db;
  try {
    db = openSnapshot(resolve(io.cwd, config.db));
  } catch (err) {
    void client.close();
    throw err;
  }
  return {
    client,
    db,
    log: new ActionLog(db, redact),
    logger,
    redact,
    async rescan(zoneNames) {
      const names = [...new Set(zoneNames)];
      if (names.length === 0) return null;
      try {
        await loadRules(config, io.cwd);
        const outcome = await runScan({ db, client, scope: { accounts: [], zones: names }, concurrency: config.concurrency, logger, redact, reads: catalogueReads(config) });
        logger.info(`rescanned ${names.length} zone(s) into scan ${outcome.scanId} (${outcome.status}), a scan of those zones only: audit it with zonewarden audit --scan ${outcome.scanId}`);
        return outcome.scanId;
      } catch (err) {
        const why = err instanceof ScanFailed ? err.message : String(err);
        logger.warn(`the changes are made, but the rescan of ${names.join(', ')} failed (${why}): run zonewarden scan to see them`);
        return null;
      }
    },
    async close() {
      await client.close();
      db.close();
    },
  };
}
