import { validateBaseUrl } from '../api/base-url.js';
import { ApiClient } from '../api/client.js';
import { ClientSet } from '../api/client-set.js';
import { credentialsFromEnv, ignoredVendorVariables, redactorFor, scanCredentials, type Credentials, type ScanCredentials } from '../config/credentials.js';
import { loadConfig, type Config } from '../config/load.js';
import { COMMON_OPTIONS, type CommonKey, type OptionDef } from '../config/options.js';
import { createLogger, type Logger } from '../common/logger.js';
import { normalizeScope, type ScanScope } from '../snapshot/scope.js';
import type { CommandIO, OptionSpec } from './command.js';

/**
 * The common options as command-line specs. They carry no parse-time default: the config loader
 * applies defaults, so that a config file or the environment can set what a flag did not.
 */
export function commonOptions<K extends CommonKey>(...keys: K[]): Record<(typeof COMMON_OPTIONS)[K]['flag'], OptionSpec> {
  const out: Record<string, OptionSpec> = {};
  for (const key of keys) {
    const def = COMMON_OPTIONS[key] as OptionDef;
    const base = { help: def.help, ...(def.value ? { value: def.value } : {}), ...(def.env ? { env: def.env } : {}) };
    const defaultText = def.default === undefined ? undefined : String(def.default);
    switch (def.type) {
      case 'boolean':
      case 'list':
        out[def.flag] = { ...base, type: def.type };
        break;
      case 'integer':
      case 'number':
        out[def.flag] = { ...base, type: def.type, ...(def.min !== undefined ? { min: def.min } : {}), ...(def.max !== undefined ? { max: def.max } : {}), ...(defaultText ? { defaultText } : {}) };
        break;
      case 'string':
        out[def.flag] = { ...base, type: 'string', ...(defaultText ? { defaultText } : {}) };
        break;
    }
  }
  return out as Record<(typeof COMMON_OPTIONS)[K]['flag'], OptionSpec>;
}

/** Loads the config from parsed flags (by flag name) and the environment. */
export function configFrom(parsed: Record<string, unknown>, io: CommandIO): Config {
  const flags: Partial<Record<CommonKey, unknown>> = {};
  for (const def of Object.values(COMMON_OPTIONS) as OptionDef[]) {
    if (def.flag in parsed) flags[def.key as CommonKey] = parsed[def.flag];
  }
  return loadConfig({ flags, env: io.env, cwd: io.cwd });
}

export function loggerFor(config: Config, io: CommandIO): Logger {
  return createLogger(config.verbose ? 'verbose' : config.quiet ? 'quiet' : 'normal', io.stderr, redactorFor(io.env, config));
}

/**
 * The base URL checked and every credential a scan uses, from the environment: before a job
 * starts, and for each client. The default credential is null only when --account names accounts
 * that the config file's "credentials" all map (see scanCredentials).
 */
export function apiAccess(config: Config, io: CommandIO): { baseUrl: string; credentials: ScanCredentials } {
  return { baseUrl: baseUrlOf(config), credentials: scanCredentials(config.credentials, config.account, io.env) };
}

/** The vendor's API unless --base-url, ZONEWARDEN_BASE_URL or the config file names another (the emulator, a proxy). */
function baseUrlOf(config: Config): string {
  return validateBaseUrl(config.baseUrl);
}

function newClient(config: Config, io: CommandIO, logger: Logger, baseUrl: string, credentials: Credentials, perSecond: number): ApiClient {
  return new ApiClient({
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
export function clientFor(config: Config, io: CommandIO, logger: Logger): ApiClient {
  const client = newClient(config, io, logger, baseUrlOf(config), credentialsFromEnv(io.env, config), config.perSecond);
  noteIgnoredVendorVariables(config, io, logger);
  return client;
}

/** Says (by name only) when CLOUDFLARE_* variables hold another credential than the ZONEWARDEN_API_* ones used. */
function noteIgnoredVendorVariables(config: Config, io: CommandIO, logger: Logger): void {
  const note = ignoredVendorVariables(io.env, config);
  if (note) logger.info(note);
}

/**
 * A client per credential for a scan: the default one and one per entry of the config file's
 * "credentials". Each has its own pacer with the full --budget and --budget-window, since the API
 * keeps a budget per user or account-owned token; --per-second is split evenly between them,
 * since the API's 200 per second count every request from this address, whatever its credential.
 */
export function clientSetFor(config: Config, io: CommandIO, logger: Logger): ClientSet {
  const { baseUrl, credentials } = apiAccess(config, io);
  noteIgnoredVendorVariables(config, io, logger);
  const count = (credentials.default ? 1 : 0) + credentials.mapped.length;
  const perSecond = config.perSecond === 0 ? 0 : Math.max(1, Math.floor(config.perSecond / count));
  const make = (c: Credentials) => newClient(config, io, logger, baseUrl, c, perSecond);
  return new ClientSet(
    credentials.default && { label: credentials.default.label, client: make(credentials.default.credentials) },
    credentials.mapped.map((m) => ({ label: m.label, accounts: m.accounts, client: make(m.credentials) })),
  );
}

/**
 * --account and --zone of the commands that read a stored scan (audit, report, diff): a view of
 * the scan's findings, not a narrower scan. The same flags and config keys as the scope of scan.
 */
export function viewOptions(): { account: OptionSpec & { type: 'list' }; zone: OptionSpec & { type: 'list' } } {
  const { account, zone } = commonOptions('account', 'zone');
  return {
    account: { ...account, type: 'list', value: 'ACCOUNT', help: "only this account's findings: its id, name or a glob (* and ?); a comma-separated list names several" },
    zone: { ...zone, type: 'list', value: 'ZONE', help: "only this zone's findings: its name, id or a glob (* and ?); a comma-separated list names several" },
  };
}

/**
 * The scope a command means when it names no scan: --account and --zone if given, else the
 * configuration's, else the whole organisation. Commands default to the latest scan of this scope.
 */
export function configScope(config: Config): ScanScope {
  return normalizeScope({ accounts: config.account, zones: config.zone });
}

/**
 * The scope index.html charts: the configuration's (file or environment), flags aside. The trend
 * follows the scans the nightly job makes; a --zone or --account given on one command line is a
 * scoped scan, listed apart rather than drawn as a change of the whole.
 */
export function trendScope(parsed: Record<string, unknown>, io: CommandIO): ScanScope {
  return configScope(configFrom({ ...parsed, account: [], zone: [] }, io));
}
