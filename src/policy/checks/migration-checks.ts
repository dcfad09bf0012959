import type { RuleOptions, ZoneContext } from '../rule.js';

/** How the migration rules open their checks, from the zone's migration status. */

/** True when the zone has yet to migrate; else answered: unknown without a status, a pass once migrated. */
export function stillToMigrate(ctx: ZoneContext<RuleOptions>): boolean {
  const migration = ctx.zone.migration();
  if (!migration.known) ctx.unknown(ctx.zone.resource, migration.reason);
  else if (!migration.value) ctx.unknown(ctx.zone.resource, 'the migration status endpoint returned no status');
  else if (migration.value.migrated) ctx.pass();
  else return true;
  return false;
}

/** For the eligibility checks (compatibility, 200 rules, 4 KB): a zone in validation got past them (a pass). */
export function stillBeforeCheck(ctx: ZoneContext<RuleOptions>): boolean {
  if (!stillToMigrate(ctx)) return false;
  const migration = ctx.zone.migration();
  if (migration.known && migration.value?.stage === 'validation') {
    ctx.pass();
    return false;
  }
  return true;
}
