import { SCAN_REF_BASE } from './scan-ref.js';
import type { Partition, PartitionKind } from './tables.js';
import type { CoverageState } from './writer.js';

/** A coverage row: how a scan read one partition (the types every part of the reader shares). */

export interface CoverageRow {
  kind: PartitionKind;
  scopeId: string;
  endpoint: Partition;
  state: CoverageState;
  httpStatus: number | null;
  apiCode: number | null;
  errorCode: string | null;
  message: string | null;
  pages: number;
  items: number;
  truncated: boolean;
  /**
   * The scan whose read holds this partition's data when this scan carried it forward without
   * reading it again (an incremental scan); null when this scan read it.
   */
  readIn: number | null;
}

export type Readout<T> = { known: true; items: T[] } | { known: false; state: CoverageState | 'not-read'; reason: string };


/** The coverage columns a CoverageRow holds. */
export const COVERAGE_COLUMNS = 'kind, scope_id, endpoint, state, http_status, api_code, error_code, message, pages, items, truncated, data_scan';

/** A coverage row read column by column (exported for tests: the JSON the reader builds must give the same). */
export const toCoverage = (r: Record<string, unknown>): CoverageRow => ({
  kind: r['kind'] as PartitionKind,
  scopeId: r['scope_id'] as string,
  endpoint: r['endpoint'] as Partition,
  state: r['state'] as CoverageState,
  httpStatus: r['http_status'] as number | null,
  apiCode: r['api_code'] as number | null,
  errorCode: r['error_code'] as string | null,
  message: r['message'] as string | null,
  pages: r['pages'] as number,
  items: r['items'] as number,
  truncated: r['truncated'] === 1,
  readIn: r['data_scan'] === null || r['data_scan'] === undefined ? null : (r['data_scan'] as number) - SCAN_REF_BASE,
});
