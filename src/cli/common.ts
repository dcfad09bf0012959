import { loadConfig, type Config } from '../config/load.js';
import { COMMON_OPTIONS, type CommonKey, type OptionDef } from '../config/options.js';
import type { ScanScope } from '../snapshot/scope.js';
import { configScope } from '../jobs/from-config.js';
import type { CommandIO, OptionSpec } from './command.js';

// What a job builds from the configuration lives with the jobs; the commands have always found it here.
export { apiAccess, configScope, loggerFor } from '../jobs/from-config.js';

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
 * The scope index.html charts: the configuration's (file or environment), flags aside. The trend
 * follows the scans the nightly job makes; a --zone or --account given on one command line is a
 * scoped scan, listed apart rather than drawn as a change of the whole.
 */
export function trendScope(parsed: Record<string, unknown>, io: CommandIO): ScanScope {
  return configScope(configFrom({ ...parsed, account: [], zone: [] }, io));
}
