import { describe, expect, it } from 'vitest';
import { allDisabled, owaspFromConfig, owaspFromMapping, owaspOutcome } from '../../../src/cloudflare/waf-migration/config.js';
import type { ManagedRulesConfig } from '../../../src/cloudflare/waf-migration/models.js';
import type { WafPackage } from '../../../src/cloudflare/legacy-waf/models.js';

/**
 * What the OWASP core rule set becomes after the migration, read from the configuration GET
 * waf_migration/config answers (spec: Managed-rules migration, "the new managed-rules configuration
 * equivalent to the current one"), with the spec's mapping table as the fallback.
 */

const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const SCORE_RULE = '6179ae15870a4bb7b2d480d4843b323c';

function config(owasp: Record<string, unknown> | null, extra: Array<Record<string, unknown>> = []): ManagedRulesConfig {
  return { name: 'default', rules: [...extra, ...(owasp ? [{ action: 'execute', expression: 'true', ...owasp }] : [])] };
}
const overrides = (levelsOff: number[], score: Record<string, unknown> | null) => ({
  categories: levelsOff.map((l) => ({ category: `paranoia-level-${l}`, enabled: false })),
  rules: score ? [{ id: SCORE_RULE, ...score }] : [],
});
const owaspPkg = (sensitivity: string | null, actionMode: string | null): WafPackage => ({ id: 'p', name: 'OWASP', detectionMode: 'anomaly', sensitivity, actionMode });

describe('the OWASP outcome from the configuration', () => {
  it.each([
    ['PL1 with levels 2-4 off, threshold 25 High, log', [2, 3, 4], { score_threshold: 25, action: 'log' }, 'PL1', 'High (25 or higher)', 'log'],
    ['PL2 with levels 3-4 off, threshold 40 Medium', [3, 4], { score_threshold: 40, action: 'block' }, 'PL2', 'Medium (40 or higher)', 'block'],
    ['PL4 when no level is off; threshold 60 is Low', [], { score_threshold: 60, action: 'challenge' }, 'PL4', 'Low (60 or higher)', 'challenge'],
    ['a threshold the new rule set does not name', [2, 3, 4], { score_threshold: 33 }, 'PL1', 'custom (33 or higher)', null],
    ['no score override: threshold not stated', [2, 3, 4], null, 'PL1', null, null],
  ] as const)('%s', (_name, levelsOff, score, pl, threshold, action) => {
    const outcome = owaspFromConfig(config({ enabled: true, action_parameters: { id: OWASP, overrides: overrides([...levelsOff], score) } }));
    expect(outcome).toMatchObject({ source: 'config', enabled: true, paranoiaLevel: pl, scoreThreshold: threshold, action });
  });

  it('a disabled OWASP rule is deployed disabled', () => {
    const outcome = owaspFromConfig(config({ enabled: false, action_parameters: { id: OWASP, overrides: overrides([3, 4], { score_threshold: 40 }) } }));
    expect(outcome?.enabled).toBe(false);
    expect(outcome?.text).toBe("the OWASP core rule set is deployed disabled (from the migration's configuration)");
  });

  it('says nothing when no rule executes the OWASP ruleset, and the mapping table answers instead', () => {
    const managedOnly = config(null, [{ action: 'execute', expression: 'true', enabled: true, action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } }]);
    expect(owaspFromConfig(managedOnly)).toBeNull();
    expect(owaspOutcome(managedOnly, [owaspPkg('medium', 'simulate')])).toMatchObject({ source: 'mapping', paranoiaLevel: 'PL1', action: 'log (Simulate becomes Log)' });
    expect(owaspOutcome(null, [owaspPkg('high', 'block')])).toMatchObject({ source: 'mapping', paranoiaLevel: 'PL2' });
  });
});

describe('the OWASP outcome from the mapping table', () => {
  // spec: Migration mapping rules (sensitivity table); vendor migration guide: `off` disables the package.
  it.each([
    ['high', 'PL2', 'Medium (40 or higher)'],
    ['medium', 'PL1', 'High (25 or higher)'],
    ['low', 'PL1', 'Medium (40 or higher)'],
    [null, 'PL2', 'Medium (40 or higher)'],
  ])('sensitivity %s maps to %s, %s', (sensitivity, pl, threshold) => {
    expect(owaspFromMapping([owaspPkg(sensitivity, 'block')])).toMatchObject({ source: 'mapping', enabled: true, paranoiaLevel: pl, scoreThreshold: threshold, action: 'block' });
  });

  it('sensitivity off: deployed disabled, with no level or threshold', () => {
    expect(owaspFromMapping([owaspPkg('off', 'challenge')])).toMatchObject({ enabled: false, paranoiaLevel: null, scoreThreshold: null });
  });
});

// spec: States and transitions (the zone stays protected by one of the versions throughout).
describe('a configuration with no managed rule running', () => {
  it.each([
    ['empty', [], true],
    ['every rule disabled', [{ enabled: false }, { enabled: false }], true],
    ['one rule enabled', [{ enabled: false }, { enabled: true }], false],
    ['a rule that does not say is enabled (the API defaults to enabled)', [{ enabled: false }, {}], false],
  ])('%s', (_name, rules, expected) => {
    expect(allDisabled({ name: 'default', rules })).toBe(expected);
  });
});
