import { fillPath, PARTITIONS } from '../../cloudflare/reads.js';
import type { Partition } from '../../snapshot/tables.js';
import type { EntrypointPartition } from '../incremental/stored-zone.js';
import type { ReadKit } from '../read-kit.js';
import type { ZoneFacts } from './zone-read.js';

/**
 * A phase entry point, by its version: absent without a call when tonight's rulesets list shows no
 * such phase, carried when it shows the stamp stored; asked for without a list tonight (10003: none).
 */
export async function readEntrypoint(kit: ReadKit, facts: ZoneFacts, partition: Partition & EntrypointPartition): Promise<void> {
  const zone = facts.zone;
  const { api, paging } = PARTITIONS[partition];
  // The phase is the path's: .../rulesets/phases/<phase>/entrypoint.
  const phase = /\/phases\/([^/]+)\/entrypoint$/.exec(api)![1]!;
  if (facts.phases) {
    if (!facts.phases.has(phase)) return kit.absent(zone, partition, `the zone's rulesets list shows no ${phase} entry point`);
    const stamp = facts.phases.get(phase);
    if (stamp !== null && stamp !== undefined && facts.stored?.entrypointStamp(partition) === stamp && kit.carry(zone, partition)) return;
  }
  await kit.reader.readObject(zone, partition, fillPath(api, { zone_id: zone.id }), {}, paging.absentCode);
}
