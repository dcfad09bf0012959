import { expressionBytes, firstFew, mapAction, MIGRATION_LIMITS, owaspPackage, paranoiaLabel, SENSITIVITY_MAPPING, sensitivityRow, thresholdLabel } from '../../policy/migration-preview.js';
import { type ZoneTarget } from '../zones.js';
import { type MigrationMode, type ManagedRulesConfig, type LegacySetting, type UriOverride, type RuleExpression, type MigrationFacts, type Blocker, type MigrationPlan, MigrationRefused, n, entrypointPath, stageOf } from './facts.js';

/** From what the GETs said to a decision: blockers, the mapping preview, what is lost, the PUT to send. */

/** Set away from its default; a rule in mode `default` follows its default, so it is no override. */
const overridden = (s: LegacySetting): boolean => s.mode !== null && s.defaultMode !== null && s.mode !== 'default' && s.mode !== s.defaultMode;

const overrideLabel = (o: UriOverride): string => {
  const where = o.urls.length ? o.urls.join(' ') : o.id;
  return `${o.description ? `"${o.description}" (${where})` : where}${o.paused ? ' [paused]' : ''}`;
};

function incompatibility(facts: MigrationFacts): Blocker[] {
  if (facts.compatible === true) return [];
  if (facts.compatible === null) return [{ kind: 'unverified', message: 'the compatibility check did not say whether the zone can migrate' }];
  const o = facts.overrides;
  if (o === null) return [{ kind: 'incompatible', message: 'not compatible: the compatibility check refuses the zone (it has no URI-based overrides on its plan): ask the vendor\'s support what blocks it' }];
  if (!o.known) return [{ kind: 'incompatible', message: `not compatible: the check refuses the zone; its URI-based overrides, the usual cause, could not be read (${o.reason})` }];
  if (o.items.length === 0) return [{ kind: 'incompatible', message: 'not compatible, yet the zone has no URI-based overrides: ask the vendor\'s support what blocks it' }];
  return [
    {
      kind: 'incompatible',
      message: `not compatible: ${o.items.length} URI-based override(s) of the previous managed rules block it until deleted: ${firstFew(o.items.map(overrideLabel))}`,
    },
  ];
}

function limits(facts: MigrationFacts): { blockers: Blocker[]; firewallRules: MigrationPlan['firewallRules'] } {
  const rules = facts.firewallRules;
  if (!rules.known) {
    return {
      blockers: [{ kind: 'unverified', message: `the firewall rules could not be read, so the migration's limits (200 rules, 4 KB expressions) are not checked: ${rules.reason}` }],
      firewallRules: { count: null, longExpressions: [] },
    };
  }
  const blockers: Blocker[] = [];
  // Paused rules count: the migration carries every rule.
  const count = rules.items.length;
  if (count > MIGRATION_LIMITS.firewallRules) {
    blockers.push({
      kind: 'too-many-rules',
      message: `${n(count)} firewall rules, more than the ${n(MIGRATION_LIMITS.firewallRules)} the migration carries: migrating this zone needs the vendor's support`,
    });
  }
  const longExpressions = rules.items
    .filter((r): r is RuleExpression & { expression: string } => r.expression !== null && expressionBytes(r.expression) > MIGRATION_LIMITS.expressionBytes)
    .map((r) => ({ id: r.id, description: r.description, bytes: expressionBytes(r.expression), characters: [...r.expression].length }));
  if (longExpressions.length) {
    const named = longExpressions.map((e) => `${e.description ? `"${e.description}" ` : ''}${e.id} (${n(e.bytes)} bytes)`);
    blockers.push({
      kind: 'expression-too-long',
      message: `${longExpressions.length} firewall rule expression(s) longer than ${n(MIGRATION_LIMITS.expressionBytes)} bytes of UTF-8: ${firstFew(named, 3)}: migrating this zone needs the vendor's support`,
    });
  }
  return { blockers, firewallRules: { count, longExpressions } };
}

function sensitivityOf(facts: MigrationFacts): MigrationPlan['sensitivity'] {
  if (!facts.packages.known) return { known: false, from: null, paranoiaLevel: null, scoreThreshold: null, text: `sensitivity not known: ${facts.packages.reason}` };
  const owasp = owaspPackage(facts.packages.items);
  const from = owasp?.sensitivity ?? null;
  const row = sensitivityRow(from);
  const mapped = SENSITIVITY_MAPPING[row];
  const shown = row !== 'default' ? row : `${from ?? 'not set'} (${owasp ? '' : 'no OWASP package; '}the Default row)`;
  return {
    known: true,
    from,
    paranoiaLevel: paranoiaLabel(mapped),
    scoreThreshold: thresholdLabel(mapped),
    text: `sensitivity ${shown} → paranoia level ${paranoiaLabel(mapped)}, score threshold ${thresholdLabel(mapped)}`,
  };
}

function actionOf(facts: MigrationFacts): MigrationPlan['action'] {
  if (!facts.packages.known) return { from: null, to: null, text: 'action not known: the packages of the previous managed rules could not be read' };
  const from = owaspPackage(facts.packages.items)?.actionMode ?? null;
  const to = mapAction(from);
  if (from === null || to === null) return { from, to, text: 'action not known (the OWASP package states none)' };
  return { from, to, text: from.toLowerCase() === 'simulate' ? 'action simulate → log (Simulate becomes Log)' : `action ${to} (carried over)` };
}

function lostOf(facts: MigrationFacts): MigrationPlan['lost'] {
  if (!facts.groups.known) return { known: false, reason: facts.groups.reason };
  if (!facts.rules.known) return { known: false, reason: facts.rules.reason };
  return {
    known: true,
    groupOverrides: facts.groups.items.filter(overridden),
    ruleOverrides: facts.rules.items.filter(overridden),
    // The API gives rules their default mode but not groups: a group that is off may be an
    // override or its default (some groups are off unless the site runs that software).
    groupsOff: facts.groups.items.filter((g) => g.defaultMode === null && g.mode === 'off'),
  };
}

export function planMigration(facts: MigrationFacts): MigrationPlan {
  const stage = stageOf(facts.state);
  const enterprise = facts.zone.plan === 'enterprise';
  const migrated = stage === 'complete';
  const checks = migrated ? { blockers: [], firewallRules: { count: null, longExpressions: [] } } : limits(facts);
  return {
    zone: facts.zone,
    state: facts.state,
    stage,
    oldWaf: facts.oldWaf,
    newWaf: facts.newWaf,
    compatible: facts.compatible,
    blockers: migrated ? [] : [...incompatibility(facts), ...checks.blockers],
    sensitivity: sensitivityOf(facts),
    action: actionOf(facts),
    validationMode: enterprise
      ? { available: true, text: 'validation mode available (Enterprise): both versions run, the new managed rules first, until apply --mode pending' }
      : { available: false, text: `no validation mode on the ${facts.zone.plan ?? 'unknown'} plan: enabling the new managed rules disables the previous ones at once` },
    lost: lostOf(facts),
    firewallRules: checks.firewallRules,
    config: facts.config,
    configSource: facts.configSource,
  };
}

/** Every reason not to PUT this mode, each one line; empty when the zone may go ahead. */
export function refusalsFor(plan: MigrationPlan, mode: MigrationMode): string[] {
  const name = plan.zone.name;
  if (plan.stage === 'complete') return [`${name} has already migrated (state complete); the migration is irreversible and there is nothing left to do`];
  if (plan.stage === 'unknown') return [`${name} is in migration state "${plan.state ?? 'none'}", which zonewarden does not know (start, validation, complete): check it in the dashboard`];
  const out: string[] = [];
  if (mode === 'validation') {
    if (plan.zone.plan !== 'enterprise') {
      out.push(`validation mode is for Enterprise zones only and ${name} is on the ${plan.zone.plan ?? 'unknown'} plan: use --mode pending, which disables the previous managed rules at once`);
    } else if (plan.stage === 'validation') {
      out.push(`${name} is already in validation mode: use --mode pending to finish the migration`);
    }
  }
  out.push(...plan.blockers.map((b) => b.message));
  if (plan.config === null) out.push(`the API gave no configuration for ${name} to PUT`);
  return out;
}

// Writing.

export interface MigrationRequest {
  zone: ZoneTarget;
  mode: MigrationMode;
  method: 'PUT';
  path: string;
  query: { waf_migration: MigrationMode; phase_two: '1' };
  body: ManagedRulesConfig;
  /** Where the body came from: the API's configuration, the running entry point, or the user's file. */
  configSource: 'config' | 'entrypoint' | 'file';
  stateBefore: string | null;
}

export interface AdjustedConfig {
  config: ManagedRulesConfig;
  file: string;
}

export function migrationRequest(plan: MigrationPlan, mode: MigrationMode, adjusted?: AdjustedConfig): MigrationRequest {
  const body = adjusted?.config ?? plan.config;
  if (body === null) throw new MigrationRefused(`the API gave no configuration for ${plan.zone.name} to PUT`);
  return {
    zone: plan.zone,
    mode,
    method: 'PUT',
    path: entrypointPath(plan.zone.id),
    query: { waf_migration: mode, phase_two: '1' },
    body,
    configSource: adjusted ? 'file' : (plan.configSource ?? 'config'),
    stateBefore: plan.state,
  };
}

