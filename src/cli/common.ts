import { validateBaseUrl } from '../api/base-url.js';
import { credentialCount, credentialsFromEnv, ignoredVendorVariables, redactorFor, scanCredentials, type Credentials, type ScanCredentials } from '../config/credentials.js';
import { ConfigError, loadConfig, type Config } from '../config/load.js';
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
    // A switch not given parses as false, which is no choice of the user's: the config file's `"full": true` stands.
    if (def.type === 'boolean' && parsed[def.flag] !== true) continue;
    if (def.flag in parsed) flags[def.key as CommonKey] = parsed[def.flag];
  }
  const config = loadConfig({ flags, env: io.env, cwd: io.cwd });
  io.redactCredentialsOf?.(config);
  return config;
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
  const credentials = scanCredentials(config.credentials, config.account, io.env);
  // The API's per-second limit counts every request from this address: each credential's pacer keeps
  // an even whole share, which a limit below one a credential cannot give (their bursts would add up past it).
  const count = credentialCount(credentials);
  if (config.perSecond > 0 && config.perSecond < count) {
    throw new ConfigError(
      `--per-second ${config.perSecond} is less than the ${count} credentials this scan reads with: the limit is shared between them and each needs 1 a second or more; give --per-second ${count} or more (0: no limit of zonewarden's own)`,
    );
  }
  return { baseUrl: baseUrlOf(config), credentials };
}

/** The vendor's API unless --base-url, ZONEWARDEN_BASE_URL or the config file names another (the emulator, a proxy). */
export function baseUrlOf(config: Config): string {
  return validateBaseUrl(config.baseUrl);
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
