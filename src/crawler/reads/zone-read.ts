import type { ReadDeclaration } from '../../cloudflare/reads.js';
import type { Partition } from '../../snapshot/tables.js';
import type { StoredZone } from '../incremental/stored-zone.js';
import type { ReadKit } from '../read-kit.js';
import { DEFERRED, type Deferred, type ZoneItem, type ZoneMode } from '../zone-item.js';

/**
 * What a zone read is: one small module per read, its declaration taken from the registry
 * (src/cloudflare/reads.ts), reading through the crawler's kit. Adding a read: docs/development.md;
 * docs/scanning.md lists the reads, which test/crawler/read-declarations.test.ts checks.
 */

export interface ZoneFacts {
  zone: ZoneItem;
  mode: ZoneMode;
  /** What the last scan of the same scope holds for the zone (null on a full scan with no earlier one). */
  stored: StoredZone | null;
  /** The phases tonight's rulesets list shows, with their entry points' stamps (rulesetStamp); null when not read tonight. */
  phases: Map<string, string | null> | null;
  /** The zone runs the new managed rules only (migrated, or born on them). */
  migrated: boolean;
  migrationState: string | null;
  /** The API's time now (ms): "in its renewal window" is by the vendor's clock. */
  now: number;
  /** Reads waiting, in order, on a read that decides them while it waits for the repair pass (repairedThenWaiting runs them). */
  waitingOn: Map<ReadModule, Array<() => Promise<void>>>;
  /**
   * Reads that ran tonight unanswered (refused, failed), so decide as on every night since their
   * last answer, by the first scan after it: the reads they decide, if made since, were decided
   * alike and may be carried (else a token refused the migration status would have every zone's
   * settings read every night).
   */
  decidedAlike: Map<ReadModule, number>;
}

/** A deferred read's repair: the read again, then the reads waiting on it (nothing is deferred in the repair pass). */
export async function repairedThenWaiting(read: ReadModule, kit: ReadKit, facts: ZoneFacts): Promise<void> {
  if ((await read.run(kit, facts)) === DEFERRED) return;
  const waiting = facts.waitingOn.get(read) ?? [];
  facts.waitingOn.delete(read);
  for (const run of waiting) await run();
}

/**
 * Carries the zone's partitions of these if every one may be carried (and, given `since`, comes
 * from a read made in or after that scan); else carries none and says so.
 */
export function carriedWhole(kit: ReadKit, zone: ZoneItem, partitions: readonly Partition[], since = 0): boolean {
  const present = partitions.filter((p) => kit.writer.hasPartition('zone', zone.id, p));
  const carriable = (p: Partition) => (kit.carrier.source(zone, p) ?? -1) >= since;
  if (present.length === 0 || !present.every(carriable)) return false;
  for (const p of present) kit.carry(zone, p);
  return true;
}

export interface ReadModule extends ReadDeclaration {
  /** For `date` reads: whether stored data asks for a read tonight although the zone did not change. */
  dueByDate?(facts: ZoneFacts): boolean;
  /**
   * Reads whose outcome decides what this one reads (the migration's state decides the managed
   * phase, the rulesets list and the legacy `waf` switch). On a due-only night this read runs
   * whenever one of them runs: its last outcome may have been decided on what they could not read
   * then. While one of them waits for the repair pass, this one waits with it.
   */
  decidedBy?: readonly ReadModule[];
  /** Reads, skips or carries its partitions for the zone; DEFERRED when it waits for the repair pass. */
  run(kit: ReadKit, facts: ZoneFacts): Promise<void | Deferred>;
}
