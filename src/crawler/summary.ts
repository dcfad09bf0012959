import type { ResolverCheck } from '../common/dns-target-answer.js';
import type { ZoneReads } from '../api/endpoints.js';
import type { ClientStats } from '../api/stats.js';
import type { CrawlResult, MissingPart } from './crawl.js';
import { formatDuration } from './progress.js';

/** What a scan did, for people (text) and for tools (`--format json`). */
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
  /** Reads that failed after their retries and were read again at the end of the scan; `recovered` answered then. */
  repairs: { attempted: number; recovered: number };
  missing: MissingPart[];
  notPermitted: MissingPart[];
  /** Parts the API answered as retired for good: neither missing nor retried. */
  retired: MissingPart[];
  skipped: number;
  /**
   * What the rules asked the scan to read beyond the lists (settings, objects): a later night that
   * reads on from it reads again, for every zone, what it was not asked for. Absent in summaries of
   * scans before it was recorded.
   */
  declaredReads?: ZoneReads;
  /** Zones read in full tonight, zones read only where due (the rest carried forward), and why. */
  reads?: { incremental: boolean; why: string; base: number | null; zonesRead: number; zonesCarried: number; apiStartedAt: string | null };
  /**
   * How the DNS resolver was checked against names known to exist before the targets of CNAME, MX,
   * NS and SRV records were judged; absent when the scan resolved none (and in older summaries).
   */
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

const MAX_LISTED = 20;

/** How much was read tonight: summaries of scans before incremental reads have no `reads`. */
function readsLine(s: ScanSummary): string[] {
  const r = s.reads;
  if (!r) return [];
  if (!r.incremental) return [`read in full: ${r.zonesRead} zones (${r.why})`];
  // The parenthesis speaks of the carried zones: with none (every account's log refused, say) it would say nothing true.
  const carried = r.zonesCarried > 0 ? `${r.zonesCarried} carried forward (only what can change unlogged read again)` : '0 carried forward';
  return [`read on from scan ${r.base}: ${r.zonesRead} zones read in full, ${carried}`];
}

function describePart(p: MissingPart): string {
  const where = p.kind === 'user' ? 'user' : `${p.kind} ${p.name ?? p.scopeId}`;
  return `${where}: ${p.endpoint} (${p.state}): ${p.reason}`;
}

/**
 * Retired parts by endpoint, one line each: at thousands of zones one line a zone would bury the
 * rest, and the reason is the same for all of them.
 */
function retiredLines(parts: readonly MissingPart[]): string[] {
  const byEndpoint = new Map<string, MissingPart[]>();
  for (const p of parts) byEndpoint.set(p.endpoint, [...(byEndpoint.get(p.endpoint) ?? []), p]);
  return [...byEndpoint].map(([endpoint, ps]) => {
    const zones = ps.filter((p) => p.kind === 'zone').length;
    const where = zones ? `${zones} zone${zones === 1 ? '' : 's'}` : 'the user';
    return `retired by the API (not missing; checks that need it say "unknown"): ${endpoint} of ${where}: ${ps[0]!.reason}`;
  });
}

export function summaryText(s: ScanSummary): string {
  const c = s.counts;
  const lines = [
    `scan ${s.scanId} ${s.status} in ${formatDuration(s.durationMs)}: ${s.accounts} accounts, ${s.zones} zones, ${c['dns_records'] ?? 0} DNS records, ${c['certificate_packs'] ?? 0} certificate packs, ${c['firewall_rules'] ?? 0} firewall rules, ${c['filters'] ?? 0} filters${(s.reads?.zonesCarried ?? 0) > 0 ? ' read in this scan' : ''}`,
    ...readsLine(s),
    `requests: ${s.requests.total} (${s.requests.retries} retries, ${s.requests.rateLimited} rate limited, ${(s.requests.bytes / 1e6).toFixed(1)} MB)`,
  ];
  // Summaries of scans before the repair pass have no repairs.
  if (s.repairs?.attempted) lines.push(`read again at the end of the scan: ${s.repairs.attempted}, of which ${s.repairs.recovered} answered`);
  if (s.missing.length) {
    lines.push(`missing (${s.missing.length}); checks that need these parts will say "unknown":`);
    for (const p of s.missing.slice(0, MAX_LISTED)) lines.push(`  - ${describePart(p)}`);
    if (s.missing.length > MAX_LISTED) lines.push(`  ... and ${s.missing.length - MAX_LISTED} more (--format json lists all)`);
  }
  // Once for the scan, not once a target: every target of it says "unknown" for this one reason.
  if (s.resolver && !s.resolver.trusted) lines.push(`DNS targets not judged (dns-dangling-target says "unknown" for each): ${s.resolver.reason}`);
  for (const p of s.notPermitted) lines.push(`not readable with these credentials: ${describePart(p)}`);
  lines.push(...retiredLines(s.retired ?? []));
  return `${lines.join('\n')}\n`;
}
