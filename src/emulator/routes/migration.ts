import { checkExpression } from '../expression.js';
import type { RequestContext } from '../http/context.js';
import { ApiFailure, CODES, fail, ok, type ErrorItem } from '../http/envelope.js';
import type { Route } from '../http/router.js';
import { stableId } from '../ids.js';
import type { MigrationState, Ruleset, RulesetRule, Zone } from '../state.js';
import { bypassRulesToMigrate, KNOWN_MANAGED_RULESETS, migrationConfig, overLimitReasons } from '../waf-mapping.js';
import { isObject, refuse, validationError } from './filter-input.js';
import { entrypointOrMissing, recordEntrypointWrite, zoneFor } from './lookup.js';

/** The managed-rules migration: check, config, status, and the PUT through the spec's state table, irreversibly. */

const PHASE = 'http_request_firewall_managed';
const RULESET_ACTIONS = ['execute', 'skip', 'log', 'block', 'challenge', 'js_challenge', 'managed_challenge'];
const TARGETS: Record<string, MigrationState> = { pending: 'complete', '1': 'complete', validation: 'validation', '2': 'validation' };

function requirePhaseTwo(ctx: RequestContext): void {
  if (ctx.query.get('phase_two') !== '1') {
    throw fail(400, CODES.migrationRefused, 'phase_two=1 is required: phase one of the migration has ended');
  }
}

/** The zone, with a migration PUT's state applied once `--migration-delay` has passed (the vendor: up to an hour). */
export function settledZone(ctx: RequestContext): Zone {
  const zone = zoneFor(ctx);
  const m = zone.migration;
  if (m.switching && ctx.org.clock.now().getTime() >= m.switching.atMs) {
    m.state = m.switching.to;
    m.since = ctx.org.clock.iso();
    m.switching = null;
  }
  return zone;
}

/** Not begun: `start`, or `default`, which the status shows in the wild for the same stage. */
const notBegun = (state: MigrationState): boolean => state === 'start' || state === 'default';

/** Why the zone cannot migrate: URI-based overrides (spec, Managed-rules migration rule 4), and the limits of Errors rule 7. */
function ineligibility(zone: Zone): string[] {
  const reasons = zone.waf.overrides.length ? [`delete its ${zone.waf.overrides.length} URI-based override(s) of the previous managed rules first`] : [];
  return [...reasons, ...overLimitReasons(bypassRulesToMigrate(zone.firewallRules.values(), zone.filters))];
}

function check(ctx: RequestContext) {
  requirePhaseTwo(ctx);
  const zone = settledZone(ctx);
  // Emulator's guess: a zone that never had the previous WAF has nothing that blocks a migration
  // (compatible) and, as in its status, no migration state.
  if (zone.migration.state === 'none') return ok({ compatible: true });
  return ok({ compatible: ineligibility(zone).length === 0, migration_state: zone.migration.state });
}

function config(ctx: RequestContext) {
  requirePhaseTwo(ctx);
  const zone = settledZone(ctx);
  return ok(migrationConfig(zone.waf, zone.firewallRules.values(), zone.filters));
}

export function migrationStatus(zone: Zone) {
  const m = zone.migration;
  // A zone created since 2022-09 never had the previous WAF. The vendor publishes no schema for the
  // status: answering both switches and no migration_state (nor created/source) is the emulator's guess.
  if (m.state === 'none') return { old_waf_status: 'disabled', new_waf_status: 'enabled' };
  // While a migration PUT is being applied, the status still shows the state before it.
  const newEnabled = !notBegun(m.state) || (!m.switching && (m.entrypoint?.rules.some((r) => r.enabled) ?? false));
  const oldEnabled = m.state === 'validation' || (notBegun(m.state) && zone.waf.enabled);
  return {
    migration_state: m.state,
    old_waf_status: oldEnabled ? 'enabled' : 'disabled',
    new_waf_status: newEnabled ? 'enabled' : 'disabled',
    created: m.since,
    source: m.source,
  };
}

interface RulesetBody {
  name: string;
  description: string;
  rules: Array<Omit<RulesetRule, 'last_updated'>>;
}

function readRulesetBody(raw: unknown): RulesetBody {
  if (!isObject(raw)) throw fail(400, CODES.validation, 'request body must be a ruleset object with name and rules');
  const errors: ErrorItem[] = [];
  const { name, description, rules } = raw;
  if (name !== undefined && typeof name !== 'string') errors.push(validationError('/name', 'name must be a string'));
  if (!Array.isArray(rules)) errors.push(validationError('/rules', 'rules must be an array'));
  const parsed = (Array.isArray(rules) ? rules : []).map((rule, i) => readRulesetRule(rule, `/rules/${i}`, errors));
  if (errors.length) throw new ApiFailure(400, errors);
  return { name: (name as string | undefined) ?? 'default', description: typeof description === 'string' ? description : '', rules: parsed as RulesetBody['rules'] };
}

function readRulesetRule(raw: unknown, pointer: string, errors: ErrorItem[]): RulesetBody['rules'][number] | null {
  if (!isObject(raw)) return refuse(errors, validationError(pointer, 'each rule must be an object'));
  const before = errors.length;
  const { id, version, action, expression, description, ref, enabled, action_parameters } = raw;
  for (const [key, value] of Object.entries({ id, version, description, ref })) {
    if (value !== undefined && typeof value !== 'string') errors.push(validationError(`${pointer}/${key}`, `${key} must be a string (empty allowed)`));
  }
  if (typeof action !== 'string' || !RULESET_ACTIONS.includes(action)) {
    errors.push(validationError(`${pointer}/action`, `action must be one of ${RULESET_ACTIONS.join(', ')}`));
  }
  if (typeof expression !== 'string') {
    errors.push(validationError(`${pointer}/expression`, 'expression is required'));
  } else if (expression !== 'true') {
    const parsed = checkExpression(expression);
    if (!parsed.ok) errors.push({ message: parsed.message, source: { pointer: `${pointer}/expression` } });
  }
  if (enabled !== undefined && typeof enabled !== 'boolean') errors.push(validationError(`${pointer}/enabled`, 'enabled must be a boolean'));
  if (action_parameters !== undefined && !isObject(action_parameters)) {
    errors.push(validationError(`${pointer}/action_parameters`, 'action_parameters must be an object'));
  }
  if (action === 'execute') {
    const target = isObject(action_parameters) ? action_parameters['id'] : undefined;
    if (typeof target !== 'string' || !KNOWN_MANAGED_RULESETS.has(target)) {
      errors.push(validationError(`${pointer}/action_parameters/id`, 'execute needs action_parameters.id of a managed ruleset'));
    } else if (isObject(action_parameters) && action_parameters['overrides'] !== undefined) {
      const overrides = action_parameters['overrides'];
      const list = isObject(overrides) ? overrides['rules'] : undefined;
      if (!isObject(overrides) || (list !== undefined && (!Array.isArray(list) || list.some((o) => !isObject(o) || typeof o['id'] !== 'string')))) {
        errors.push(validationError(`${pointer}/action_parameters/overrides`, 'overrides.rules must be an array of {id, action?, enabled?}'));
      }
    }
  }
  if (errors.length > before) return null;
  const rule: RulesetBody['rules'][number] = {
    id: (id as string | undefined) ?? '',
    version: (version as string | undefined) ?? '',
    action: action as string,
    expression: expression as string,
    description: (description as string | undefined) ?? '',
    ref: (ref as string | undefined) ?? '',
    enabled: (enabled as boolean | undefined) ?? true,
  };
  if (isObject(action_parameters)) rule.action_parameters = action_parameters;
  return rule;
}

/** Writes the entry point and logs it: created by the first PUT, updated by the next ones. */
function save(ctx: RequestContext, zone: Zone, body: RulesetBody, why = ''): Ruleset {
  const now = ctx.org.clock.iso();
  const previous = zone.migration.entrypoint;
  const version = String(Number(previous?.version ?? '0') + 1);
  const ruleset: Ruleset = {
    id: previous?.id ?? stableId('entrypoint', zone.name),
    name: body.name,
    description: body.description,
    phase: PHASE,
    kind: 'zone',
    version,
    last_updated: now,
    rules: body.rules.map((r) => ({ ...r, id: r.id || ctx.org.newId(), version, last_updated: now })),
  };
  zone.migration.entrypoint = ruleset;
  recordEntrypointWrite(ctx, zone, ruleset, !previous, ctx.body(), why);
  return ruleset;
}

function putEntrypoint(ctx: RequestContext) {
  const zone = settledZone(ctx);
  const body = readRulesetBody(ctx.body());
  const m = zone.migration;
  const requested = ctx.query.get('waf_migration');
  if (requested === null) {
    // The ordinary ruleset API. Before migrating, a zone may only store disabled rules.
    if (notBegun(m.state) && body.rules.some((r) => r.enabled)) {
      throw fail(
        400,
        CODES.migrationRefused,
        `${zone.name} still runs the previous managed rules: migrate with waf_migration=pending (or validation), or keep every rule enabled:false`,
      );
    }
    return ok(save(ctx, zone, body));
  }
  const target = TARGETS[requested];
  if (!target) throw fail(400, CODES.validation, 'waf_migration must be pending, 1, validation or 2');
  requirePhaseTwo(ctx);
  if (m.state === 'complete') throw fail(400, CODES.migrationRefused, `${zone.name} has already migrated; the migration is irreversible`);
  if (m.state === 'none') throw fail(400, CODES.migrationRefused, `${zone.name} never had the previous managed rules: there is nothing to migrate`);
  // A documented guess: a second request while the first is being applied is refused.
  if (m.switching) throw fail(409, CODES.migrationRefused, `${zone.name}: the previous migration request is still being applied; read the status until it shows ${m.switching.to}`);
  // The check is made before validation mode; finishing from it is not held to it again.
  const reasons = notBegun(m.state) ? ineligibility(zone) : [];
  if (reasons.length) throw fail(400, CODES.migrationRefused, `${zone.name} is not compatible: ${reasons.join('; ')}`);
  if (target === 'validation') {
    if (zone.plan !== 'enterprise') {
      throw fail(400, CODES.migrationRefused, `validation mode is for Enterprise zones only; ${zone.name} is on the ${zone.plan} plan`);
    }
    if (m.state === 'validation') throw fail(400, CODES.migrationRefused, `${zone.name} is already in validation mode; PUT with waf_migration=pending to finish`);
  }
  const ruleset = save(ctx, zone, body, ` (WAF migration to ${target === 'complete' ? 'the new managed rules' : 'validation mode'})`);
  m.source = 'api';
  const delay = ctx.org.migrationDelayMs;
  if (delay > 0) m.switching = { to: target, atMs: ctx.org.clock.now().getTime() + delay };
  else {
    m.state = target;
    m.since = ruleset.last_updated;
  }
  return ok(ruleset);
}

const ENTRYPOINT = `/zones/{zone_id}/rulesets/phases/${PHASE}/entrypoint`;

export const migrationRoutes: Route[] = [
  { method: 'GET', template: '/zones/{zone_id}/waf_migration/check', handler: check },
  { method: 'GET', template: '/zones/{zone_id}/waf_migration/config', handler: config },
  { method: 'GET', template: '/zones/{zone_id}/waf_migration/status', handler: (ctx) => ok(migrationStatus(settledZone(ctx))) },
  { method: 'GET', template: ENTRYPOINT, handler: (ctx) => ok(entrypointOrMissing(settledZone(ctx).migration.entrypoint, PHASE)) },
  { method: 'PUT', template: ENTRYPOINT, handler: putEntrypoint },
];
