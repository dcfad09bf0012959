import { validateBaseUrl } from '../api/base-url.js';
import { credentialCount, redactorFor, scanCredentials, type ScanCredentials } from '../config/credentials.js';
import { ConfigError } from '../config/config-error.js';
import type { Config } from '../config/load.js';
import { createLogger, type Logger } from '../common/logger.js';
import type { Db } from '../snapshot/db.js';
import { normalizeScope, type ScanScope } from '../snapshot/scope.js';
import type { JobIO } from './job-io.js';

/** What a job (and a command) builds from the loaded configuration: its logger, its scope, its API and credentials. */

export function loggerFor(config: Config, io: JobIO): Logger {
  return createLogger(config.verbose ? 'verbose' : config.quiet ? 'quiet' : 'normal', io.stderr, redactorFor(io.env, config));
}

/** The base URL checked and every credential a scan uses, from the environment: before a job starts, and for each client. */
export function apiAccess(config: Config, io: JobIO): { baseUrl: string; credentials: ScanCredentials } {
  const credentials = scanCredentials(config.credentials, config.account, io.env);
  // The API's per-second limit counts every request from this address: each credential's pacer keeps
  // an even whole share, which a limit below one a credential cannot give (their bursts would add up past it).
  const count = credentialCount(credentials);
  if (config.perSecond > 0 && config.perSecond < count) {
    throw new ConfigError(
      `--per-second ${config.perSecond} is less than the ${count} credentials this scan reads with: the limit is shared between them and each needs 1 a second or more; give --per-second ${count} or more (0: no limit of zonewarden's own)`,
    );
  }
  return { baseUrl: validateBaseUrl(config.baseUrl), credentials };
}

/** The scope a command means when it names no scan: --account and --zone, else the config's, else the whole organisation. */
export function configScope(config: Config): ScanScope {
  return normalizeScope({ accounts: config.account, zones: config.zone });
}

/** Runs `work` on the database, then closes it, whatever happened. */
export async function closing<T>(db: Db, work: (db: Db) => T | Promise<T>): Promise<T> {
  try {
    return await work(db);
  } finally {
    db.close();
  }
}
