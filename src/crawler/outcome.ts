import type { ResolverCheck } from '../common/dns-target-answer.js';
import type { Partition, PartitionKind } from '../snapshot/tables.js';

/** What a crawl found, as it goes: the result the summary is made of, and the progress for its caller to show. */
export interface CrawlProgress {
  zonesDone: number;
  zonesKnown: number;
  accountsDone: number;
  accountsKnown: number;
  /** Reads waiting for, or in, the repair pass. */
  repairing?: number;
  /** Of the zones done: read in full tonight, and read only where due (the rest carried forward). */
  zonesRead?: number;
  zonesCarried?: number;
}

export interface MissingPart {
  kind: PartitionKind;
  scopeId: string;
  name: string | null;
  endpoint: Partition;
  state: string;
  reason: string;
}

export interface CrawlResult {
  accounts: number;
  zones: number;
  missing: MissingPart[];
  /** Parts not readable with these credentials that do not make the scan incomplete. */
  notPermitted: MissingPart[];
  /** Parts the API answered as retired for good (410 Gone): not missing, nothing to retry. */
  retired: MissingPart[];
  skipped: number;
  repairs: { attempted: number; recovered: number };
  zonesRead: number;
  zonesCarried: number;
  readMode: { incremental: boolean; why: string; base: number | null };
  /** When the scan started by the API's clock: where the next night's audit log window starts. */
  apiStartedAt: string | null;
  /** Absent when no target was resolved. */
  resolver?: ResolverCheck;
}

export class CrawlOutcome {
  readonly result: CrawlResult;
  readonly progress: Required<Omit<CrawlProgress, 'repairing'>> & Pick<CrawlProgress, 'repairing'> = { zonesDone: 0, zonesKnown: 0, accountsDone: 0, accountsKnown: 0, zonesRead: 0, zonesCarried: 0 };

  constructor(
    readMode: CrawlResult['readMode'],
    private readonly onProgress?: (progress: CrawlProgress) => void,
  ) {
    this.result = { accounts: 0, zones: 0, missing: [], notPermitted: [], retired: [], skipped: 0, repairs: { attempted: 0, recovered: 0 }, zonesRead: 0, zonesCarried: 0, readMode, apiStartedAt: null };
  }

  report(): void {
    this.onProgress?.({ ...this.progress });
  }

  /** The result, with the counts of accounts and zones the progress kept. */
  finished(): CrawlResult {
    const p = this.progress;
    return Object.assign(this.result, { accounts: p.accountsKnown, zones: p.zonesKnown, zonesRead: p.zonesRead, zonesCarried: p.zonesCarried });
  }
}
