import type { ResolverCheck } from '../common/dns-target-answer.js';
import type { DeclaredReads } from '../api/endpoints.js';
import type { ClientStats } from '../api/stats.js';
import type { CrawlResult, MissingPart } from './outcome.js';

/** What a scan did, as data: stored with it, read by the metrics, printed by the CLI, given to tools (`--format json`). */
export interface ScanSummary {
  scanId: number;
  status: 'complete' | 'incomplete' | 'aborted';
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  accounts: number;
  zones: number;
  /** Items read this scan, by table. */
  counts: Record<string, number>;
  requests: { total: number; retries: number; rateLimited: number; bytes: number };
  repairs: { attempted: number; recovered: number };
  missing: MissingPart[];
  notPermitted: MissingPart[];
  retired: MissingPart[];
  skipped: number;
  /** What the rules asked beyond the lists: a night reading on from it reads again what it was not asked for. Absent in older summaries. */
  declaredReads?: DeclaredReads;
  reads?: { incremental: boolean; why: string; base: number | null; zonesRead: number; zonesCarried: number; apiStartedAt: string | null };
  /** Absent when the scan resolved no target (and in older summaries). */
  resolver?: ResolverCheck;
}

export function buildSummary(scanId: number, status: ScanSummary['status'], started: Date, crawl: CrawlResult, counts: Record<string, number>, stats: ClientStats): ScanSummary {
  const finished = new Date();
  return {
    scanId,
    status,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - started.getTime(),
    accounts: crawl.accounts,
    zones: crawl.zones,
    counts: Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1))),
    requests: { total: stats.total.requests, retries: stats.total.retries, rateLimited: stats.total.rateLimited, bytes: stats.total.bytes },
    repairs: crawl.repairs,
    missing: crawl.missing,
    notPermitted: crawl.notPermitted,
    retired: crawl.retired,
    skipped: crawl.skipped,
    reads: { ...crawl.readMode, zonesRead: crawl.zonesRead, zonesCarried: crawl.zonesCarried, apiStartedAt: crawl.apiStartedAt },
    ...(crawl.resolver ? { resolver: crawl.resolver } : {}),
  };
}
