import { readDeclarationOf } from '../../cloudflare/reads.js';
import { isNativeToNewManagedRules, migrationStatusOf } from '../../cloudflare/waf-migration/models.js';
import { legacyWaf } from './legacy-waf.js';
import { DEFERRED } from '../zone-item.js';
import { carriedWhole, repairedThenWaiting, type ReadModule } from './zone-read.js';

/** Read or skipped together after the status (the registry's `also`). */
const FOLLOWERS = readDeclarationOf('migration_status').partitions.slice(1);

/**
 * The previous-WAF migration: its status, and what it says is there to read. A zone migrated
 * never changes back (vendor docs: WAF migration): its status is carried, its previous WAF never asked.
 */
export const migration: ReadModule = {
  ...readDeclarationOf('migration_status'),
  async run(kit, facts) {
    const zone = facts.zone;
    const base = `/zones/${encodeURIComponent(zone.id)}/waf_migration`;
    if (!(kit.migratedBefore(zone) && kit.carry(zone, 'migration_status'))) {
      // Which reads follow depends on the status: an unreadable one defers them all to the repair pass.
      const status = await kit.reader.readObject(zone, 'migration_status', `${base}/status`, {}, undefined, () => repairedThenWaiting(migration, kit, facts));
      if (status === DEFERRED) return DEFERRED;
      // Unanswered tonight: what follows is decided as on every scan since the status's last answer.
      const alikeSince = status === null ? kit.writer.lastAnswered('zone', zone.id, 'migration_status') + 1 : null;
      if (alikeSince !== null) facts.decidedAlike.set(migration, alikeSince);
      const state = typeof status?.['migration_state'] === 'string' ? status['migration_state'] : null;
      facts.migrationState = state;
      facts.migrated = state === 'complete' || (state === null && ((status !== null && isNativeToNewManagedRules(migrationStatusOf(status))) || kit.migratedBefore(zone)));
      // Due-only: they change by logged writes alone, and were read since on the same decision.
      if (alikeSince !== null && facts.mode === 'due-only' && carriedWhole(kit, zone, FOLLOWERS, alikeSince)) return;
    } else {
      facts.migrated = true;
    }
    if (facts.migrated) {
      const why = 'the zone runs the new managed rules only: the previous managed rules no longer exist for it';
      for (const e of FOLLOWERS) kit.book.skip(zone, e, why);
      return;
    }
    await kit.reader.readObject(zone, 'migration_check', `${base}/check`, { phase_two: '1' });
    await kit.reader.readObject(zone, 'migration_config', `${base}/config`, { phase_two: '1' });
    await legacyWaf(kit, facts);
  },
};
