import { parseDuration } from '../common/duration.js';
import { UsageError } from '../common/errors.js';
import { loadConfig, type Config } from '../config/load.js';
import { COMMON_OPTIONS, type CommonKey, type OptionDef } from '../config/options.js';
import type { ScanScope } from '../snapshot/scope.js';
import { configScope } from '../jobs/from-config.js';
import type { CommandIO, OptionSpec } from './command.js';

// What a job builds from the configuration lives with the jobs; the commands have always found it here.
export { apiAccess, closing, configScope, loggerFor } from '../jobs/from-config.js';

/** The common options as flags, with no parse-time default: the loader applies it, after the config file and environment. */
export function commonOptions<K extends CommonKey>(...keys: K[]): Record<(typeof COMMON_OPTIONS)[K]['flag'], OptionSpec> {
  const out: Record<string, OptionSpec> = {};
  for (const key of keys) {
    const def = COMMON_OPTIONS[key] as OptionDef;
    // Switches and lists show no default; the others show the loader's.
    const shown = def.default !== undefined && def.type !== 'boolean' && def.type !== 'list';
    out[def.flag] = {
      help: def.help,
      type: def.type,
      ...(def.value ? { value: def.value } : {}),
      ...(def.env ? { env: def.env } : {}),
      ...(def.min !== undefined ? { min: def.min } : {}),
      ...(def.max !== undefined ? { max: def.max } : {}),
      ...(shown ? { defaultText: String(def.default) } : {}),
    } as OptionSpec;
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

/** --account and --zone of the commands that read a stored scan (audit, report, diff): a view of its findings. */
export function viewOptions(): { account: OptionSpec & { type: 'list' }; zone: OptionSpec & { type: 'list' } } {
  const { account, zone } = commonOptions('account', 'zone');
  return {
    account: { ...account, type: 'list', value: 'ACCOUNT', help: "only this account's findings: its id, name or a glob (* and ?); a comma-separated list names several" },
    zone: { ...zone, type: 'list', value: 'ZONE', help: "only this zone's findings: its name, id or a glob (* and ?); a comma-separated list names several" },
  };
}

/**
 * The scope index.html charts: the configuration's, flags aside. The trend follows the nightly job's scans; a --zone
 * or --account given on one command line is a scoped scan, listed apart rather than drawn as a change of the whole.
 */
export function trendScope(parsed: Record<string, unknown>, io: CommandIO): ScanScope {
  return configScope(configFrom({ ...parsed, account: [], zone: [] }, io));
}

/** --max-age in milliseconds, checked. */
export function maxAgeOf(config: Config): number {
  const maxAgeMs = parseDuration(config.maxAge);
  if (maxAgeMs === null) throw new UsageError(`--max-age "${config.maxAge.slice(0, 40)}" is not a duration; e.g. 36h, 2d, 90m or 1d12h`);
  return maxAgeMs;
}
