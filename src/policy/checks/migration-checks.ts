import type { RuleOptions, ZoneContext } from '../rule.js';

/**
 * How the migration rules open their checks, from the zone's migration status. Apart from the
 * mapping and limits (migration-preview.ts) because these speak the rule contract, and the zone's
 * view, which the contract hands to rules, reads the mapping.
 */

/**
 * The opening of every check about migrating: unknown without a migration status, a pass once
 * the zone has migrated (its previous managed rules are gone, so nothing is left to judge).
 * True when the zone has yet to migrate and the check goes on.
 */
export function stillToMigrate(ctx: ZoneContext<RuleOptions>): boolean {
  const migration = ctx.zone.migration();
  if (!migration.known) ctx.unknown(ctx.zone.resource, migration.reason);
  else if (!migration.value) ctx.unknown(ctx.zone.resource, 'the migration status endpoint returned no status');
  else if (migration.value.migrated) ctx.pass();
  else return true;
  return false;
}

/**
 * The opening of the checks of the migration's eligibility (compatibility, 200 rules, 4 KB): a zone
 * in validation mode got past them when it entered it, and finishing needs no new check.
 */
export function stillBeforeCheck(ctx: ZoneContext<RuleOptions>): boolean {
  if (!stillToMigrate(ctx)) return false;
  const migration = ctx.zone.migration();
  if (migration.known && migration.value?.stage === 'validation') {
    ctx.pass();
    return false;
  }
  return true;
}
