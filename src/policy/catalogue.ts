import { RULES } from '../../rules/index.js';
import type { DeclaredReads } from '../api/endpoints.js';
import type { Config } from '../config/load.js';
import { loadCustomRules } from './custom-rules.js';
import { activeRules, loadCatalogue, readsOfRules, type ActiveRule, type RuleSettings } from './registry.js';
import type { AnyRule } from './rule.js';

/** The shipped rules, validated once per process. */
let builtIn: ReadonlyMap<string, AnyRule> | null = null;
/** The shipped rules and those of the --rules-dir directories last loaded by `loadRules`. */
let withCustom: ReadonlyMap<string, AnyRule> | null = null;

function shipped(): ReadonlyMap<string, AnyRule> {
  return (builtIn ??= loadCatalogue(RULES));
}

/** Every rule a command runs: the built-in ones, then the custom ones of `loadRules`. */
export function catalogue(): ReadonlyMap<string, AnyRule> {
  return withCustom ?? shipped();
}

/**
 * Loads the rules of the config's --rules-dir directories into the catalogue, replacing those of
 * an earlier call (the scheduler calls it for every run, so an edited rule applies from the next).
 * Every command that runs or shows rules calls it before `catalogue` and `rulesFor`; `warn` is told
 * of what a rule declares that zonewarden ignores (custom-rules.ts).
 */
export async function loadRules(config: Pick<Config, 'rulesDir'>, cwd: string, warn?: (line: string) => void): Promise<void> {
  const custom = config.rulesDir.length ? await loadCustomRules(config.rulesDir, cwd, new Set(shipped().keys()), warn) : [];
  withCustom = custom.length ? loadCatalogue([...shipped().values(), ...custom.map((c) => c.rule)]) : null;
}

/** The rules as the config file sets them. */
export function rulesFor(config: Config): ActiveRule[] {
  return activeRules(catalogue(), config.rules as Record<string, RuleSettings>, config.configFile ? `config file ${config.configFile}` : 'config');
}

/**
 * What a scan reads for the rules beyond the lists: the `meta.reads` of every rule the config
 * leaves enabled, for all zones or for some (a rule switched off everywhere costs no call).
 */
export function catalogueReads(config: Config): DeclaredReads {
  return readsOfRules(rulesFor(config));
}
