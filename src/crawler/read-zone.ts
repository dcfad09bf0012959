import { ZONE_READS } from './reads/index.js';
import { carriedWhole, DEFERRED, type ReadKit, type ZoneFacts, type ReadModule } from './reads/zone-read.js';

/**
 * The reads of one zone, in order, each as its declaration (`refresh`) says. Read in full, every
 * read runs (a `terminal` or `ruleset-version` read still carries what its stored state or version
 * says cannot have changed). Read for what is due only, a `date` read runs when stored data says a
 * change can have come unlogged (dueByDate); every other read carries its partitions forward,
 * unless one of them has nothing sound to carry (never read, or its last read failed or was
 * refused), or a read that decides it (`decidedBy`) ran tonight and may decide otherwise than when
 * this one last ran: it then runs. A read decided by one that waits for the repair pass waits with
 * it, so that it reads on what that one reads.
 */
export async function readZoneParts(kit: ReadKit, facts: ZoneFacts): Promise<void> {
  const ran = new Set<ReadModule>();
  const waiting = new Set<ReadModule>();
  for (const read of ZONE_READS) {
    const deciders = read.decidedBy ?? [];
    const waitingFor = deciders.find((d) => waiting.has(d));
    if (waitingFor) {
      waiting.add(read);
      const queued = facts.waitingOn.get(waitingFor) ?? [];
      facts.waitingOn.set(waitingFor, queued);
      queued.push(async () => {
        await read.run(kit, facts);
      });
      continue;
    }
    // All or nothing: a read's partitions depend on each other (the migration's status decides the rest).
    if (!mustRun(read, facts, ran, kit) && carriedWhole(kit, facts.zone, read.partitions)) continue;
    ran.add(read);
    if ((await read.run(kit, facts)) === DEFERRED) waiting.add(read);
  }
}

/**
 * Whether a read runs tonight whatever it could carry: the zone is read in full, it is due by date,
 * or a read deciding it ran, unless that one decides as on every scan since its last answer
 * (ZoneFacts.decidedAlike) and this read's partitions come from a read made since then.
 */
function mustRun(read: ReadModule, facts: ZoneFacts, ran: ReadonlySet<ReadModule>, kit: ReadKit): boolean {
  if (facts.mode === 'full') return true;
  if (read.refresh === 'date' && read.dueByDate?.(facts)) return true;
  const decidedSince = (scan: number) => read.partitions.every((p) => (kit.carrySource(facts.zone, p) ?? -1) >= scan);
  return (read.decidedBy ?? []).some((d) => {
    if (!ran.has(d)) return false;
    const alikeSince = facts.decidedAlike.get(d);
    return alikeSince === undefined || !decidedSince(alikeSince);
  });
}
