import { mapAction, owaspDisabled, owaspPackage, paranoiaLabel, SENSITIVITY_MAPPING, sensitivityRow, thresholdLabel } from './preview.js';
import type { ManagedRulesConfig } from './models.js';
import type { WafPackage } from '../legacy-waf/models.js';
import { obj, objects } from '../fields.js';

/**
 * What the OWASP core rule set will be after the migration: as GET waf_migration/config (stored by the scan) says,
 * or when it cannot say, by the spec's mapping table applied to the previous package.
 */

/** The vendor's managed ruleset, as the managed entry point's execute rule names it. */
export const MANAGED_RULESET_ID = 'efb7b8c949ac4650a09736fc376e9aee';
/** The vendor's OWASP ruleset, as the migration's configuration names it. */
export const OWASP_RULESET_ID = '4814384a9e5d4991b9815dcfc25d2f1f';
/** The OWASP rule that compares a request's anomaly score with the threshold. */
export const OWASP_SCORE_RULE_ID = '6179ae15870a4bb7b2d480d4843b323c';

/** The new ruleset's threshold names by their minimum score. */
const THRESHOLD_NAMES: Record<number, string> = { 60: 'Low', 40: 'Medium', 25: 'High' };

export interface OwaspOutcome {
  /** `config`: from GET waf_migration/config; `mapping`: the spec's table applied to the previous package. */
  source: 'config' | 'mapping';
  /** False: the migration deploys the OWASP ruleset disabled. */
  enabled: boolean;
  paranoiaLevel: string | null;
  scoreThreshold: string | null;
  action: string | null;
  /** One line for findings and the plan. */
  text: string;
}

/** The configuration's rule executing a ruleset, if any. */
function executing(config: ManagedRulesConfig, rulesetId: string): Record<string, unknown> | undefined {
  return config.rules.find((r) => r['action'] === 'execute' && obj(r['action_parameters'])['id'] === rulesetId);
}

/** A configuration that leaves the zone with no managed rule running (empty, or every rule disabled). */
export const allDisabled = (config: ManagedRulesConfig): boolean => !config.rules.some((r) => r['enabled'] !== false);

function describe(o: Omit<OwaspOutcome, 'text'>, why: string): OwaspOutcome {
  const from = o.source === 'config' ? 'from the migration\'s configuration' : why;
  if (!o.enabled) return { ...o, text: `the OWASP core rule set is deployed disabled (${from})` };
  const parts = [`paranoia level ${o.paranoiaLevel ?? 'not stated'}`, `score threshold ${o.scoreThreshold ?? 'not stated'}`, `action ${o.action ?? 'not stated'}`];
  return { ...o, text: `the OWASP core rule set runs at ${parts.join(', ')} (${from})` };
}

/** Null when the configuration has no rule executing the OWASP ruleset. */
export function owaspFromConfig(config: ManagedRulesConfig): OwaspOutcome | null {
  const rule = executing(config, OWASP_RULESET_ID);
  if (!rule) return null;
  const overrides = obj(obj(rule['action_parameters'])['overrides']);
  // Paranoia levels above the chosen one are switched off as categories `paranoia-level-N`.
  const off = objects(overrides['categories'])
    .filter((c) => c['enabled'] === false)
    .map((c) => /^paranoia-level-(\d)$/.exec(String(c['category']))?.[1])
    .filter((d): d is string => d !== undefined)
    .map(Number);
  const level = off.length ? Math.min(...off) - 1 : 4;
  const score = objects(overrides['rules']).find((r) => r['id'] === OWASP_SCORE_RULE_ID) ?? {};
  const threshold = typeof score['score_threshold'] === 'number' ? score['score_threshold'] : null;
  const action = typeof score['action'] === 'string' ? score['action'] : typeof overrides['action'] === 'string' ? overrides['action'] : null;
  return describe(
    {
      source: 'config',
      enabled: rule['enabled'] !== false,
      paranoiaLevel: `PL${level}`,
      scoreThreshold: threshold === null ? null : `${THRESHOLD_NAMES[threshold] ?? 'custom'} (${threshold} or higher)`,
      action,
    },
    '',
  );
}

/** The spec's table applied to the previous OWASP package: the fallback when the configuration says nothing. */
export function owaspFromMapping(packages: readonly WafPackage[]): OwaspOutcome {
  const owasp = owaspPackage(packages);
  const sensitivity = owasp?.sensitivity ?? null;
  const shown = sensitivity ?? (owasp ? 'not set' : 'not set (no OWASP package)');
  const why = `the spec's mapping of sensitivity ${shown}`;
  if (owaspDisabled(sensitivity)) {
    return describe({ source: 'mapping', enabled: false, paranoiaLevel: null, scoreThreshold: null, action: null }, `sensitivity off disables the OWASP package; the migration deploys it disabled`);
  }
  const row = sensitivityRow(sensitivity);
  const mapped = SENSITIVITY_MAPPING[row];
  const actionMode = owasp?.actionMode ?? null;
  const to = mapAction(actionMode);
  return describe(
    {
      source: 'mapping',
      enabled: true,
      paranoiaLevel: paranoiaLabel(mapped),
      scoreThreshold: thresholdLabel(mapped),
      action: to === null ? null : actionMode?.toLowerCase() === 'simulate' ? 'log (Simulate becomes Log)' : to,
    },
    row === 'default' ? `${why}, as the Default row` : why,
  );
}

/** From the configuration when it names the OWASP ruleset, else from the mapping table. */
export function owaspOutcome(config: ManagedRulesConfig | null, packages: readonly WafPackage[]): OwaspOutcome {
  return (config && owaspFromConfig(config)) ?? owaspFromMapping(packages);
}
