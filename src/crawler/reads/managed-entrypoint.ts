import { readDeclarationOf } from '../../cloudflare/reads.js';
import { readEntrypoint } from './entrypoint.js';
import { migration } from './migration.js';
import type { ZoneFacts, ReadModule } from './zone-read.js';

/**
 * The managed-rules phase entry point of every paid zone and any zone migrating or migrated: a Free
 * zone not migrating runs the vendor's free managed ruleset, which is the vendor's to deploy.
 */
export const managedEntrypoint: ReadModule = {
  ...readDeclarationOf('entrypoint'),
  decidedBy: [migration],
  async run(kit, facts) {
    if (hasManagedPhase(facts)) return readEntrypoint(kit, facts, 'entrypoint');
    kit.book.skip(facts.zone, 'entrypoint', "a Free zone that has not started migrating: its free managed ruleset is the vendor's to deploy");
  },
};

/** Known once the migration read ran. */
export function hasManagedPhase(facts: ZoneFacts): boolean {
  return facts.migrationState === 'validation' || facts.migrated || facts.zone.plan?.legacy_id !== 'free';
}
