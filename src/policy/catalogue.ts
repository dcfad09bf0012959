import { RULES } from '../../rules/index.js';
import type { Config } from '../config/load.js';
import { activeRules, loadCatalogue, type ActiveRule, type RuleSettings } from './registry.js';
import type { AnyRule } from './rule.js';

/** The shipped rules, validated once per process. */
let loaded: ReadonlyMap<string, AnyRule> | null = null;

export function catalogue(): ReadonlyMap<string, AnyRule> {
  return (loaded ??= loadCatalogue(RULES));
}

/** The rules as the config file sets them. */
export function rulesFor(config: Config): ActiveRule[] {
  return activeRules(catalogue(), config.rules as Record<string, RuleSettings>, config.configFile ? `config file ${config.configFile}` : 'config');
}
