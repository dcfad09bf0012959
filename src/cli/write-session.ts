import { resolve } from 'node:path';
import { catalogueReads, loadRules } from '../policy/catalogue.js';
import { ActionLog } from '../actions/log.js';
import type { ApiClient } from '../api/client.js';
import { redactorFor } from '../config/credentials.js';
import { ConfigError, type Config } from '../config/load.js';
import { CREDENTIAL_ENV } from '../config/options.js';
import { runScan, ScanFailed } from '../crawler/run-scan.js';
import type { Logger } from '../common/logger.js';
import { openSnapshot, type Db } from '../snapshot/db.js';
import type { CommandIO } from './command.js';
import { loggerFor } from './common.js';
import { clientSetFor } from '../jobs/clients.js';

/** What every write command needs: the client, the database and its audit log, and a rescan of the zones it changed. */
export interface WriteSession {
  /** The default credential's client: writes act as that user. */
  client: ApiClient;
  log: ActionLog;
  logger: Logger;
  /** Scans these zones into a new scan; returns its id, or null when the rescan failed (logged). */
  rescan(zoneNames: string[]): Promise<number | null>;
  close(): Promise<void>;
}

export function openWriteSession(config: Config, io: CommandIO): WriteSession {
  const logger = loggerFor(config, io);
  const clients = clientSetFor(config, io, logger);
  const redact = redactorFor(io.env, config);
  let db: Db;
  let client: ApiClient;
  try {
    // Writes act as the default credential's user, even when --account names mapped accounts only.
    if (!clients.default) throw new ConfigError(`no API credentials: set ${CREDENTIAL_ENV.token}, or ${CREDENTIAL_ENV.email} and ${CREDENTIAL_ENV.key}: changes are made with the default credential`);
    client = clients.default;
    db = openSnapshot(resolve(io.cwd, config.db));
  } catch (err) {
    void clients.close();
    throw err;
  }
  return {
    client,
    log: new ActionLog(db, redact),
    logger,
    async rescan(zoneNames) {
      const names = [...new Set(zoneNames)];
      if (names.length === 0) return null;
      try {
        await loadRules(config, io.cwd, (line) => io.stderr(`${line}\n`));
        // Every credential's client (the config file's "credentials") reads the rescan.
        const outcome = await runScan({ db, client, clients, scope: { accounts: [], zones: names }, concurrency: config.concurrency, logger, redact, reads: catalogueReads(config) });
        logger.info(`rescanned ${names.length} zone(s) into scan ${outcome.scanId} (${outcome.status}), a scan of those zones only: audit it with zonewarden audit --scan ${outcome.scanId}`);
        return outcome.scanId;
      } catch (err) {
        const why = err instanceof ScanFailed ? err.message : String(err);
        logger.warn(`the changes are made, but the rescan of ${names.join(', ')} failed (${why}): run zonewarden scan to see them`);
        return null;
      }
    },
    async close() {
      await clients.close();
      db.close();
    },
  };
}
