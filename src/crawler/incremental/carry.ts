import type { ApiClient } from '../../api/client.js';
import type { DeclaredReads } from '../../api/endpoints.js';
import type { Partition } from '../../snapshot/tables.js';
import type { ScanWriter } from '../../snapshot/writer.js';
import type { PartitionBook } from '../partitions.js';
import type { ZoneItem } from '../reads/zone-read.js';
import { askedTonight, type PermissionStandings } from './permissions.js';
import type { ReadPlan } from './read-plan.js';

/**
 * Carrying a zone's part forward from its last read instead of reading it: only what the plan
 * allows (ReadPlan.mayCarry), and never a part of a permission group its credential was refused
 * tonight, which is recorded denied, as a read of it would be.
 */
export class Carrier {
  constructor(
    private readonly writer: ScanWriter,
    private readonly plan: ReadPlan,
    private readonly permissions: PermissionStandings,
    private readonly reads: DeclaredReads | undefined,
    private readonly book: PartitionBook,
  ) {}

  /** The scan whose read carry() would carry the part from; null when it may not be carried. */
  source(zone: ZoneItem, partition: Partition): number | null {
    const source = this.writer.carrySource('zone', zone.id, partition);
    return source !== null && this.plan.mayCarry(partition, source) ? source : null;
  }

  /**
   * Carries a part of the zone forward, unless its credential was refused the part's permission
   * group tonight: it is then denied, as a read of it would be (a part whose last read was a skip,
   * made without a call, is carried as it was: tonight's read would skip it alike; so is a part no
   * rule asks for tonight). What the last read stored stays in that scan; the next night that may
   * read it reads it again.
   */
  carry(client: ApiClient, zone: ZoneItem, partition: Partition): boolean {
    const refusal = askedTonight(partition, this.reads) ? this.permissions.refusal(client, partition) : null;
    const state = refusal ? this.writer.carryState('zone', zone.id, partition) : null;
    if (!refusal || state === null || state === 'skipped') return this.writer.carry('zone', zone.id, partition);
    const err = refusal.error;
    this.book.denied(zone, partition, err, `not carried forward: the credential was refused ${refusal.group.label} tonight (${refusal.what}: ${err.message})`);
    return true;
  }

  /**
   * Before a zone read where due only carries anything: its credential's standing with the
   * permission group of each part it could carry (permissions.ts), from tonight's reads or, when
   * none of a group has answered yet, one probe request of it per credential.
   */
  async confirmPermissions(client: ApiClient, zone: ZoneItem, signal: AbortSignal): Promise<void> {
    // Once every group is known for the credential (most of the night), nothing is looked up.
    const carriable = this.permissions
      .unknownGroups(client)
      .flatMap((g) => g.partitions)
      .filter((p) => askedTonight(p, this.reads) && this.writer.carryState('zone', zone.id, p) === 'ok' && this.plan.mayCarry(p, this.writer.carrySource('zone', zone.id, p)!));
    if (carriable.length === 0) return;
    await this.permissions.confirm(client, zone, carriable, this.reads?.settings ?? [], signal);
  }
}
