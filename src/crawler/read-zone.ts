import { entryOf } from '../common/map-entry.js';
import { ZONE_READS } from './reads/index.js';
import type { ReadKit } from './read-kit.js';
import { carriedWhole, type ZoneFacts, type ReadModule } from './reads/zone-read.js';
import { DEFERRED } from './zone-item.js';

/**
 * The reads of one zone, in order. Read in full, every read runs (a `terminal` or
 * `ruleset-version` read still carries what cannot have changed). Read where due only, a `date`
 * read runs when stored data says a change can have come unlogged; every other read carries its
 * partitions, unless one has nothing sound to carry or a read that decides it ran tonight. A read
 * decided by one that waits for the repair pass waits with it, to read on what that one reads.
 */
export async function readZoneParts(kit: ReadKit, facts: ZoneFacts): Promise<void> {
  const ran = new Set<ReadModule>();
  const waiting = new Set<ReadModule>();
  for (const read of ZONE_READS) {
    const waitingFor = read.decidedBy?.find((d) => waiting.has(d));
    if (waitingFor) {
      waiting.add(read);
      entryOf(facts.waitingOn, waitingFor, () => []).push(async () => void (await read.run(kit, facts)));
      continue;
    }
    // All or nothing: a read's partitions depend on each other (the migration's status decides the rest).
    if (!mustRun(read, facts, ran, kit) && carriedWhole(kit, facts.zone, read.partitions)) continue;
    ran.add(read);
    if ((await read.run(kit, facts)) === DEFERRED) waiting.add(read);
  }
}

/**
 * Whether a read runs whatever it could carry: the zone is read in full, it is due by date, or a
 * read deciding it ran, unless that one decided alike since this read's partitions were read (ZoneFacts.decidedAlike).
 */
function mustRun(read: ReadModule, facts: ZoneFacts, ran: ReadonlySet<ReadModule>, kit: ReadKit): boolean {
  if (facts.mode === 'full') return true;
  if (read.refresh === 'date' && read.dueByDate?.(facts)) return true;
  const decidedSince = (scan: number) => read.partitions.every((p) => (kit.carrier.source(facts.zone, p) ?? -1) >= scan);
  return (read.decidedBy ?? []).some((d) => {
    if (!ran.has(d)) return false;
    const alikeSince = facts.decidedAlike.get(d);
    return alikeSince === undefined || !decidedSince(alikeSince);
  });
}
