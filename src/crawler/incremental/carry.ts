import type { ApiClient } from '../../api/client.js';
import type { DeclaredReads } from '../../api/endpoints.js';
import type { Partition } from '../../snapshot/tables.js';
import type { ScanWriter } from '../../snapshot/writer.js';
import type { PartitionBook } from '../partitions.js';
import type { ZoneItem } from '../zone-item.js';
import { askedTonight, type PermissionStandings } from './permissions.js';
import type { ReadPlan } from './read-plan.js';

/** Carrying a zone's part forward instead of reading it: as the plan allows (ReadPlan.mayCarry), never a part refused tonight. */
export class Carrier {
  constructor(
    private readonly writer: ScanWriter,
    private readonly plan: ReadPlan,
    private readonly permissions: PermissionStandings,
    private readonly reads: DeclaredReads | undefined,
    private readonly book: PartitionBook,
  ) {}

  source(zone: ZoneItem, partition: Partition): number | null {
    const source = this.writer.carrySource('zone', zone.id, partition);
    return source !== null && this.plan.mayCarry(partition, source) ? source : null;
  }

  /**
   * Carries a part of the zone forward, unless its credential was refused the part's permission
   * group tonight: it is then denied, as a read would be (a skip, made without a call, is carried
   * as it was, and so is a part no rule asks for tonight).
   */
  carry(client: ApiClient, zone: ZoneItem, partition: Partition): boolean {
    const refusal = askedTonight(partition, this.reads) ? this.permissions.refusal(client, partition) : null;
    const state = refusal ? this.writer.carryState('zone', zone.id, partition) : null;
    if (!refusal || state === null || state === 'skipped') return this.writer.carry('zone', zone.id, partition);
    const err = refusal.error;
    this.book.denied(zone, partition, err, `not carried forward: the credential was refused ${refusal.group.label} tonight (${refusal.what}: ${err.message})`);
    return true;
  }

  /** Before a zone read where due only carries anything: its credential's standing with each part's group (permissions.ts). */
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
