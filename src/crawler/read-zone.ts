import { ZONE_READS } from './reads/index.js';
import type { ReadKit, ZoneFacts } from './reads/zone-read.js';
import type { Endpoint } from '../snapshot/tables.js';

/**
 * The reads of one zone, in order, each as its declaration (`refresh`) says. Read in full, every
 * read runs (a `terminal` or `ruleset-version` read still carries what its stored state or version
 * says cannot have changed). Read for what is due only, a `date` read runs when stored data says a
 * change can have come unlogged (dueByDate); every other read carries its partitions forward,
 * unless one of them has nothing sound to carry (never read, or its last read failed or was
 * refused): it then runs.
 */
export async function readZoneParts(kit: ReadKit, facts: ZoneFacts, canCarry: (endpoint: Endpoint) => boolean): Promise<void> {
  for (const read of ZONE_READS) {
    if (facts.mode === 'full' || (read.refresh === 'date' && read.dueByDate?.(facts))) {
      await read.run(kit, facts);
      continue;
    }
    // All or nothing: a read's partitions depend on each other (the migration's status decides the rest).
    const present = read.partitions.filter((p) => kit.hasPartition(facts.zone, p));
    if (present.length > 0 && present.every(canCarry)) for (const p of present) kit.carry(facts.zone, p);
    else await read.run(kit, facts);
  }
}
