import { legacyOverrides, migratesAsBypass } from '../../cloudflare/waf-migration/carry.js';
import { allDisabled, owaspOutcome } from '../../cloudflare/waf-migration/config.js';
import { expressionBytes, firstFew, MIGRATION_LIMITS } from '../../cloudflare/waf-migration/preview.js';
import { type ZoneTarget } from '../zones.js';
import { type MigrationMode, type ManagedRulesConfig, type UriOverride, type RuleExpression, type MigrationFacts, type Blocker, type MigrationPlan, MigrationRefused, n, entrypointPath, stageOf } from './facts.js';

/** From what the GETs said to a decision: blockers, the preview, what is carried and lost, the PUT to send. */

const overrideLabel = (o: UriOverride): string => {
  const where = o.urls.length ? o.urls.join(' ') : o.id;
  return `${o.description ? `"${o.description}" (${where})` : where}${o.paused ? ' [paused]' : ''}`;
};

/** Why the check refuses the zone; `limitsPassed` when the bypass rules are past the limits, the other documented cause. */
function incompatibility(facts: MigrationFacts, limitsPassed: boolean): Blocker[] {
  if (facts.compatible === true) return [];
  if (facts.compatible === null) return [{ kind: 'unverified', message: 'the compatibility check did not say whether the zone can migrate' }];
  const o = facts.overrides;
  if (limitsPassed && (o === null || (o.known && o.items.length === 0))) {
    return [{ kind: 'incompatible', message: 'not compatible: the compatibility check refuses the zone, which has no URI-based overrides; its bypass rules are past the limits below' }];
  }
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
      blockers: [{ kind: 'unverified', message: `the firewall rules could not be read, so the migration's limits (200 bypass rules, 4 KB expressions) are not checked: ${rules.reason}` }],
      firewallRules: { count: null, bypass: [], longExpressions: [] },
    };
  }
  const blockers: Blocker[] = [];
  // Only the bypass rules of the previous managed rules are migrated, so only they meet the limits.
  // Paused ones count: the spec counts the rules with the action, not their state.
  const carried = rules.items.filter(migratesAsBypass);
  if (carried.length > MIGRATION_LIMITS.firewallRules) {
    blockers.push({
      kind: 'too-many-rules',
      message: `${n(carried.length)} firewall rules bypass the previous managed rules and are to be migrated, more than the ${n(MIGRATION_LIMITS.firewallRules)} the migration carries: migrating this zone needs the vendor's support`,
    });
  }
  const longExpressions = carried
    .filter((r): r is RuleExpression & { expression: string } => r.expression !== null && expressionBytes(r.expression) > MIGRATION_LIMITS.expressionBytes)
    .map((r) => ({ id: r.id, description: r.description, bytes: expressionBytes(r.expression), characters: [...r.expression].length }));
  if (longExpressions.length) {
    const named = longExpressions.map((e) => `${e.description ? `"${e.description}" ` : ''}${e.id} (${n(e.bytes)} bytes)`);
    blockers.push({
      kind: 'expression-too-long',
      message: `${longExpressions.length} bypass rule expression(s) to migrate longer than ${n(MIGRATION_LIMITS.expressionBytes)} bytes of UTF-8: ${firstFew(named, 3)}: migrating this zone needs the vendor's support`,
    });
  }
  const bypass = carried.map((r) => ({ id: r.id, description: r.description, paused: r.paused, bytes: r.expression === null ? null : expressionBytes(r.expression) }));
  return { blockers, firewallRules: { count: rules.items.length, bypass, longExpressions } };
}

function owaspOf(facts: MigrationFacts): MigrationPlan['owasp'] {
  if (facts.config === null && !facts.packages.known) return { known: false, text: `the OWASP core rule set after the migration is not known: ${facts.packages.reason}` };
  const outcome = owaspOutcome(facts.config, facts.packages.known ? facts.packages.items : []);
  if (outcome.source === 'mapping' && !facts.packages.known) return { known: false, text: `the OWASP core rule set after the migration is not known: ${facts.packages.reason}` };
  return { known: true, ...outcome };
}

function overridesOf(facts: MigrationFacts): MigrationPlan['overrides'] {
  if (!facts.packages.known) return { known: false, reason: facts.packages.reason };
  if (!facts.groups.known) return { known: false, reason: facts.groups.reason };
  if (!facts.rules.known) return { known: false, reason: facts.rules.reason };
  return { known: true, ...legacyOverrides(facts.packages.items, facts.groups.items, facts.rules.items) };
}

export function planMigration(facts: MigrationFacts): MigrationPlan {
  const stage = stageOf(facts.state);
  const enterprise = facts.zone.plan === 'enterprise';
  const checks = stage === 'complete' ? { blockers: [], firewallRules: { count: null, bypass: [], longExpressions: [] } } : limits(facts);
  // A zone in validation mode passed the compatibility check and the limits when it entered it:
  // finishing is not held to them again (spec: validation mode -> new version only, no condition).
  const beforeCheck = stage === 'start' || stage === 'unknown';
  return {
    zone: facts.zone,
    state: facts.state,
    stage,
    oldWaf: facts.oldWaf,
    newWaf: facts.newWaf,
    compatible: facts.compatible,
    blockers: beforeCheck ? [...incompatibility(facts, checks.blockers.some((b) => b.kind === 'too-many-rules' || b.kind === 'expression-too-long')), ...checks.blockers] : [],
    owasp: owaspOf(facts),
    validationMode: enterprise
      ? { available: true, text: 'validation mode available (Enterprise): both versions run, the new managed rules first, until apply --mode pending' }
      : { available: false, text: `no validation mode on the ${facts.zone.plan ?? 'unknown'} plan: enabling the new managed rules disables the previous ones at once` },
    overrides: overridesOf(facts),
    firewallRules: checks.firewallRules,
    config: facts.config,
    configSource: facts.configSource,
  };
}

/** Every reason not to PUT this mode, each one line; empty when the zone may go ahead. */
export function refusalsFor(plan: MigrationPlan, mode: MigrationMode, adjusted?: ManagedRulesConfig): string[] {
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
  const body = adjusted ?? plan.config;
  if (body === null) out.push(`the API gave no configuration for ${name} to PUT`);
  else if (allDisabled(body)) {
    // The zone must stay protected throughout (spec, States and transitions): a configuration with no
    // rule enabled would leave it with no managed rules once the previous ones are disabled.
    out.push(
      `the configuration${adjusted ? ' in your file' : ''} for ${name} has ${body.rules.length ? 'every rule disabled' : 'no rules'}, which would leave the zone with no managed rules once the previous ones are disabled: enable at least one rule (plan --format json | jq .config, edit, then --config FILE)`,
    );
  }
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

