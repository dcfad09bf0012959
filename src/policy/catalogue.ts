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

/** Loads the --rules-dir rules into the catalogue, replacing an earlier call's (the scheduler calls it every run). */
export async function loadRules(config: Pick<Config, 'rulesDir'>, cwd: string, warn?: (line: string) => void): Promise<void> {
  const custom = config.rulesDir.length ? await loadCustomRules(config.rulesDir, cwd, new Set(shipped().keys()), warn) : [];
  withCustom = custom.length ? loadCatalogue([...shipped().values(), ...custom.map((c) => c.rule)]) : null;
}

/** The rules as the config file sets them. */
export function rulesFor(config: Config): ActiveRule[] {
  return activeRules(catalogue(), config.rules as Record<string, RuleSettings>, config.configFile ? `config file ${config.configFile}` : 'config');
}

/** What a scan reads for the rules beyond the lists: the `meta.reads` of the rules the config leaves enabled. */
export function catalogueReads(config: Config): DeclaredReads {
  return readsOfRules(rulesFor(config));
}
