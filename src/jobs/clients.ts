import { ApiClient } from '../api/client.js';
import { ClientSet } from '../api/client-set.js';
import { credentialCount, credentialsFromEnv, ignoredVendorVariables, redactorFor, type Credentials } from '../config/credentials.js';
import type { Config } from '../config/load.js';
import type { Logger } from '../common/logger.js';
import type { JobIO } from './job-io.js';
import { validateBaseUrl } from '../api/base-url.js';
import { apiAccess } from './from-config.js';

/** The API clients, apart from from-config.ts so that the commands that only read the database do not load the HTTP client. */

function newClient(config: Config, io: JobIO, logger: Logger, baseUrl: string, credentials: Credentials, perSecond: number, variables?: string): ApiClient {
  return new ApiClient({
    ...(variables ? { credentialVariables: variables } : {}),
    baseUrl,
    credentials,
    budget: config.budget,
    budgetWindowMs: config.budgetWindow * 1000,
    perSecond,
    concurrency: config.concurrency,
    timeoutMs: config.timeout * 1000,
    retries: config.retries,
    maxRetryWaitMs: config.retryWait * 1000,
    logger,
    redact: redactorFor(io.env, config),
  });
}

/** The API client of the default credential, for commands that act as one user (writes, api). */
export function clientFor(config: Config, io: JobIO, logger: Logger): ApiClient {
  const client = newClient(config, io, logger, validateBaseUrl(config.baseUrl), credentialsFromEnv(io.env, config), config.perSecond);
  noteIgnoredVendorVariables(config, io, logger);
  return client;
}

/** Says (by name only) when CLOUDFLARE_* variables hold another credential than the ZONEWARDEN_API_* ones used. */
function noteIgnoredVendorVariables(config: Config, io: JobIO, logger: Logger): void {
  const note = ignoredVendorVariables(io.env, config);
  if (note) logger.info(note);
}

/**
 * A client per credential for a scan: the default one and one per entry of the config file's
 * "credentials". Each has its own pacer with the full --budget and --budget-window, since the API
 * keeps a budget per user or account-owned token; --per-second is split evenly between them,
 * since the API's 200 per second count every request from this address, whatever its credential.
 */
export function clientSetFor(config: Config, io: JobIO, logger: Logger): ClientSet {
  const { baseUrl, credentials } = apiAccess(config, io);
  noteIgnoredVendorVariables(config, io, logger);
  // Whole shares: apiAccess refused a --per-second below one a credential.
  const perSecond = config.perSecond === 0 ? 0 : Math.floor(config.perSecond / credentialCount(credentials));
  const make = (c: Credentials, variables?: string) => newClient(config, io, logger, baseUrl, c, perSecond, variables);
  return new ClientSet(
    credentials.default && { label: credentials.default.label, client: make(credentials.default.credentials) },
    credentials.mapped.map((m) => ({ label: m.label, accounts: m.accounts, client: make(m.credentials, m.variables) })),
  );
}
