import { readDeclarationOf } from '../../cloudflare/reads.js';
import { isNativeToNewManagedRules, migrationStatusOf } from '../../cloudflare/waf-migration/models.js';
import { legacyWaf } from './legacy-waf.js';
import { carriedWhole, DEFERRED, repairedThenWaiting, type ReadModule } from './zone-read.js';

/** What the status says is there to read: read or skipped together after it (the registry's `also`). */
const FOLLOWERS = readDeclarationOf('migration_status').partitions.slice(1);

/**
 * The previous-WAF migration: its status, and what the status says is there to read. A zone stored
 * as migrated (state `complete`, or born on the new managed rules) never changes back (the
 * migration is irreversible, vendor docs: WAF migration), so its status is carried forward and its
 * previous WAF is never asked for again.
 */
export const migration: ReadModule = {
  ...readDeclarationOf('migration_status'),
  async run(kit, facts) {
    const zone = facts.zone;
    const base = `/zones/${encodeURIComponent(zone.id)}/waf_migration`;
    if (!(kit.migratedBefore(zone) && kit.carry(zone, 'migration_status'))) {
      // Which reads follow depends on the status: an unreadable one defers them all to the repair pass.
      const status = await kit.readObject(zone, 'migration_status', `${base}/status`, {}, undefined, () => repairedThenWaiting(migration, kit, facts));
      if (status === DEFERRED) return DEFERRED;
      // Unanswered tonight: what follows is decided as on every scan since the status's last answer
      // (facts.migrated from the stored statuses alone, and none was stored since).
      const alikeSince = status === null ? kit.lastAnswered(zone, 'migration_status') + 1 : null;
      if (alikeSince !== null) facts.decidedAlike.set(migration, alikeSince);
      const state = typeof status?.['migration_state'] === 'string' ? status['migration_state'] : null;
      facts.migrationState = state;
      facts.migrated = state === 'complete' || (state === null && ((status !== null && isNativeToNewManagedRules(migrationStatusOf(status))) || kit.migratedBefore(zone)));
      // A zone read where due only changed in nothing the check, configuration and previous WAF
      // show (they change by logged writes alone); read tonight only because the status could
      // not be carried, they are carried when read since the status's last answer, on the same decision.
      if (alikeSince !== null && facts.mode === 'due-only' && carriedWhole(kit, zone, FOLLOWERS, alikeSince)) return;
    } else {
      facts.migrated = true;
    }
    if (facts.migrated) {
      const why = 'the zone runs the new managed rules only: the previous managed rules no longer exist for it';
      for (const e of FOLLOWERS) kit.skip(zone, e, why);
      return;
    }
    await kit.readObject(zone, 'migration_check', `${base}/check`, { phase_two: '1' });
    await kit.readObject(zone, 'migration_config', `${base}/config`, { phase_two: '1' });
    await legacyWaf(kit, facts);
  },
};
