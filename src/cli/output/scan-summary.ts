import type { MissingPart } from '../../crawler/outcome.js';
import type { ScanSummary } from '../../crawler/summary.js';
import { formatDuration } from './scan-progress.js';

/** A scan's summary for people, on stderr after `scan` and `run`. */

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

/** Retired parts by endpoint, one line each: at thousands of zones a line a zone would bury the rest, for one reason. */
function retiredLines(parts: readonly MissingPart[]): string[] {
  const byPartition = new Map<string, MissingPart[]>();
  for (const p of parts) byPartition.set(p.endpoint, [...(byPartition.get(p.endpoint) ?? []), p]);
  return [...byPartition].map(([endpoint, ps]) => {
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
