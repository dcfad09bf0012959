import { ZONE_READS } from './reads/index.js';
import { DEFERRED, type ReadKit, type ZoneFacts, type ZoneRead } from './reads/zone-read.js';
import type { Endpoint } from '../snapshot/tables.js';

/**
 * The reads of one zone, in order, each as its declaration (`refresh`) says. Read in full, every
 * read runs (a `terminal` or `ruleset-version` read still carries what its stored state or version
 * says cannot have changed). Read for what is due only, a `date` read runs when stored data says a
 * change can have come unlogged (dueByDate); every other read carries its partitions forward,
 * unless one of them has nothing sound to carry (never read, or its last read failed or was
 * refused), or a read that decides it (`decidedBy`) ran tonight: it then runs. A read decided by
 * one that waits for the repair pass waits with it, so that it reads on what that one reads.
 */
export async function readZoneParts(kit: ReadKit, facts: ZoneFacts, canCarry: (endpoint: Endpoint) => boolean): Promise<void> {
  const ran = new Set<ZoneRead>();
  const waiting = new Set<ZoneRead>();
  for (const read of ZONE_READS) {
    const deciders = read.decidedBy ?? [];
    const waitingFor = deciders.find((d) => waiting.has(d));
    if (waitingFor) {
      waiting.add(read);
      const held = facts.held.get(waitingFor) ?? [];
      facts.held.set(waitingFor, held);
      held.push(async () => {
        await read.run(kit, facts);
      });
      continue;
    }
    if (!mustRun(read, facts, ran)) {
      // All or nothing: a read's partitions depend on each other (the migration's status decides the rest).
      const present = read.partitions.filter((p) => kit.hasPartition(facts.zone, p));
      if (present.length > 0 && present.every(canCarry)) {
        for (const p of present) kit.carry(facts.zone, p);
        continue;
      }
    }
    ran.add(read);
    if ((await read.run(kit, facts)) === DEFERRED) waiting.add(read);
  }
}

/** Whether a read runs tonight whatever it could carry: the zone is read in full, it is due by date, or a read deciding it ran. */
function mustRun(read: ZoneRead, facts: ZoneFacts, ran: ReadonlySet<ZoneRead>): boolean {
  if (facts.mode === 'full') return true;
  if (read.refresh === 'date' && read.dueByDate?.(facts)) return true;
  return (read.decidedBy ?? []).some((d) => ran.has(d));
}
