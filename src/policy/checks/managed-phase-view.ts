/** What a zone's managed phase deploys (zone and account entry points, src/cloudflare/rulesets/managed-phase.ts). */

import { best, deploymentsOf, type Deployment, type ZoneIdentity } from '../../cloudflare/rulesets/managed-phase.js';
import type { ZoneView } from '../zone-view.js';

export type Found = { known: true; items: Deployment[] } | { known: false; reason: string };

/** The zone entry point's deployments of a ruleset; `exists` false when the zone has no entry point. */
export function zoneDeployments(view: ZoneView, zone: ZoneIdentity, rulesetId: string): Found & { exists?: boolean; rules?: number } {
  const read = view.managedEntrypoint();
  if (!read.known) return { known: false, reason: read.reason };
  if (!read.value) return { known: true, items: [], exists: false, rules: 0 };
  return { known: true, items: deploymentsOf(read.value, rulesetId, zone, 'zone'), exists: true, rules: read.value.rules.length };
}

/**
 * The account entry point's deployments of a ruleset to this zone: none off Enterprise (vendor
 * docs: "Account-level WAF configuration"), or when skipped; unknown when refused or not read.
 */
export function accountDeployments(view: ZoneView, zone: ZoneIdentity, rulesetId: string): Found {
  if (zone.plan !== null && zone.plan !== 'enterprise') return { known: true, items: [] };
  const read = view.accountManagedEntrypoint();
  if (read.known) return { known: true, items: read.value ? deploymentsOf(read.value, rulesetId, zone, 'account') : [] };
  if (read.state === 'skipped') return { known: true, items: [] };
  return { known: false, reason: `the account's managed entry point, which can deploy managed rules to this zone, was not read: ${read.reason}` };
}

/** Whether the zone runs the new managed rules (false: still on the previous ones); unknown without a known state. */
export function onNewManagedRules(view: ZoneView): { known: true; value: boolean } | { known: false; reason: string } {
  const migration = view.migration();
  if (!migration.known) return { known: false, reason: migration.reason };
  if (!migration.value) return { known: false, reason: 'the migration status endpoint returned no status: whether the zone runs the new managed rules is not known' };
  if (migration.value.stage === 'unknown') {
    return { known: false, reason: `the migration status says the state ${JSON.stringify(migration.value.state)}, which is not a known stage: whether the zone runs the new managed rules is not known` };
  }
  return { known: true, value: migration.value.migrated };
}

/** How a managed ruleset stands on a zone, as managed-ruleset-not-deployed judges it. */
export type RulesetStanding =
  | { kind: 'pass' }
  | { kind: 'unknown'; reason: string }
  | { kind: 'runs'; zone: ZoneIdentity }
  | { kind: 'fails'; zone: ZoneIdentity; found: Deployment | null; inZone: { exists?: boolean; rules?: number } };

/**
 * Whether the ruleset runs on every request of the zone, from its own entry point or its account's
 * (whose rules zone skip rules cannot reach); otherwise the closest deployment (best) says what fails.
 */
export function rulesetStanding(view: ZoneView, plans: readonly string[], rulesetId: string): RulesetStanding {
  const scope = managedPhaseScope(view, plans);
  if (scope.kind !== 'judge') return scope;
  const zone = scope.zone;
  const inZone = zoneDeployments(view, zone, rulesetId);
  if (inZone.known && best(inZone.items)?.outcome.kind === 'runs') return { kind: 'runs', zone };
  const inAccount = accountDeployments(view, zone, rulesetId);
  if (inAccount.known && best(inAccount.items)?.outcome.kind === 'runs') return { kind: 'runs', zone };
  if (!inZone.known) return { kind: 'unknown', reason: inZone.reason };
  if (!inAccount.known) return { kind: 'unknown', reason: inAccount.reason };
  return { kind: 'fails', zone, found: best([...inZone.items, ...inAccount.items]), inZone };
}

/** Whether no rule of the ruleset runs at all (not deployed, disabled, skipped, all overridden off). */
export function rulesetNeverRuns(standing: RulesetStanding): boolean {
  if (standing.kind !== 'fails') return false;
  const o = standing.found?.outcome;
  return o === undefined || o.kind === 'disabled' || o.kind === 'skipped' || (o.kind === 'overriddenOff' && o.kept === 0 && !o.logging);
}

/** Whether a managed-phase rule judges this zone: plans left out and zones on the previous rules pass. */
export function managedPhaseScope(view: ZoneView, plans: readonly string[]): { kind: 'judge'; zone: ZoneIdentity } | { kind: 'pass' } | { kind: 'unknown'; reason: string } {
  if (view.plan !== null && !plans.includes(view.plan)) return { kind: 'pass' };
  const onNew = onNewManagedRules(view);
  if (!onNew.known) return { kind: 'unknown', reason: onNew.reason };
  return onNew.value ? { kind: 'judge', zone: { name: view.name, plan: view.plan } } : { kind: 'pass' };
}
