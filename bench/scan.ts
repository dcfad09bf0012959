import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli-process.js';
import { CONCURRENCY, LATENCY_MS, sdkRuns, zonewardenScan, type Budget, type ToolRun } from './compare.js';
import { driftBench, type DriftBenchResult } from './drift.js';
import { minimumRequests, type Minimum } from './minimum.js';
import { reportBench, type ReportBenchResult } from './report.js';
import { startEmulatorProcess } from './emulator-process.js';
import type { Scale, ScaleName } from './scales.js';
import { generatedConfigArgs } from './dataset-config.js';

/**
 * `zonewarden scan` as users run it (its own process) against the emulator at 20 ms latency:
 * wall time, requests, rows ingested per second, peak RSS, database size, and the growth of an
 * unchanged rescan.
 */
export interface ScanBenchResult {
  scale: ScaleName;
  zones: number;
  records: number;
  seconds: number;
  requests: number;
  rows: number;
  peakRssMiB: number;
  dbMiB: number;
  rescanSeconds: number;
  rescanGrowthPercent: number;
  /** `zonewarden audit` of the first scan, as its own process (start-up included). */
  auditSeconds: number;
  auditPeakRssMiB: number;
  /** Findings that are not passes (failing, unknown, waived), and all verdicts. */
  auditFindings: number;
  auditVerdicts: number;
  drift: DriftBenchResult;
  report: ReportBenchResult;
  minimum: Minimum;
  /** The scan and the SDK scripts with latency the only limit. */
  latency: ToolRun[];
  /** The same under a budget tighter than the work; filled in by the caller. */
  budget: { budget: Budget; runs: ToolRun[] } | null;
}

function fileSize(path: string): number {
  let size = 0;
  for (const p of [path, `${path}-wal`]) {
    try {
      size += statSync(p).size;
    } catch {
      // no WAL left after the checkpoint
    }
  }
  return size;
}

async function runAudit(db: string): Promise<{ seconds: number; peakKiB: number; findings: number; verdicts: number }> {
  const r = await runCli(['audit', '--db', db, '--scan', '1', '--format', 'json', '--quiet', ...generatedConfigArgs(db)], {});
  if (r.code !== 0 && r.code !== 3) throw new Error(`audit exited with ${r.code}: ${r.out.slice(0, 500)}`);
  const { counts } = JSON.parse(r.out) as { counts: { byStatus: Record<string, number> } };
  const verdicts = Object.values(counts.byStatus).reduce((a, b) => a + b, 0);
  return { seconds: r.ms / 1000, peakKiB: r.peakKiB, findings: verdicts - (counts.byStatus['pass'] ?? 0), verdicts };
}

/**
 * The whole pipeline on one scale: zonewarden's scan, the SDK scripts against the same emulator,
 * the minimum the scan could have made, an unchanged rescan, the audit, the next night's drift and
 * the reports.
 */
export async function scanBench(scale: Scale): Promise<ScanBenchResult> {
  // A fixed clock, so that the next night's emulator (driftBench) serves the same times.
  const now = ['--now', new Date().toISOString()];
  const emulatorArgs = [...scale.dataset, ...now, '--latency', String(LATENCY_MS), '--rate-limit', '0', '--ip-rate-limit', '0'];
  const emulator = await startEmulatorProcess(emulatorArgs);
  const dir = mkdtempSync(join(tmpdir(), 'zw-bench-scan-'));
  const db = join(dir, 'bench.db');
  try {
    const first = await zonewardenScan(emulator.base, db, null);
    if (!first.completed) throw new Error(`zonewarden scan failed: ${first.failure}`);
    const sizeAfterFirst = fileSize(db);
    const minimum = minimumRequests(db, 1);
    const sdk = await sdkRuns(emulator.base);
    const second = await zonewardenScan(emulator.base, db, null);
    const sizeAfterSecond = fileSize(db);
    const audit = await runAudit(db);
    emulator.stop();
    const drift = await driftBench([...scale.dataset, ...now, ...scale.nextNight, '--latency', String(LATENCY_MS), '--rate-limit', '0', '--ip-rate-limit', '0'], db, CONCURRENCY);
    const report = await reportBench(db, 3, audit.findings);
    const { summary } = first;
    const rows = Object.values(summary.counts).reduce((a, b) => a + b, 0);
    return {
      scale: scale.name,
      zones: summary.zones,
      records: summary.counts['dns_records'] ?? 0,
      seconds: summary.durationMs / 1000,
      requests: summary.requests.total,
      rows,
      peakRssMiB: Math.max(first.peakRssMiB, second.peakRssMiB),
      dbMiB: sizeAfterFirst / 2 ** 20,
      rescanSeconds: second.summary.durationMs / 1000,
      rescanGrowthPercent: ((sizeAfterSecond - sizeAfterFirst) / sizeAfterFirst) * 100,
      auditSeconds: audit.seconds,
      auditPeakRssMiB: audit.peakKiB / 1024,
      auditFindings: audit.findings,
      auditVerdicts: audit.verdicts,
      drift,
      report,
      minimum,
      latency: [first, ...sdk],
      budget: null,
    };
  } finally {
    emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function scanMarkdown(results: ScanBenchResult[]): string {
  return [
    '## Scan: `zonewarden scan` against the emulator at 20 ms latency',
    '',
    'A generated organisation, the scan in its own process with the default concurrency (8) and a budget',
    'above the work (the rate limit is measured separately); then an unchanged rescan into the same database.',
    'Targets: peak RSS at most 300 MB at 10,000 zones and 1,000,000 records; rescan growth at most 2%.',
    '',
    '| zones | records | scan time | requests | rows ingested | rows/s | peak RSS | database | rescan time | rescan growth |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.zones} | ${r.records} | ${r.seconds.toFixed(1)} s | ${r.requests} | ${r.rows} | ${Math.round(r.rows / r.seconds)} | ${r.peakRssMiB.toFixed(0)} MiB | ${r.dbMiB.toFixed(1)} MiB | ${r.rescanSeconds.toFixed(1)} s | ${r.rescanGrowthPercent.toFixed(2)}% |`,
    ),
    '',
    '## Audit: `zonewarden audit` of those scans',
    '',
    'Every rule of the catalogue on the first scan, in its own process (start-up included), JSON output.',
    '',
    '| zones | records | audit time | peak RSS | verdicts | findings (not passing) |',
    '|---|---|---|---|---|---|',
    ...results.map(
      (r) => `| ${r.zones} | ${r.records} | ${r.auditSeconds.toFixed(1)} s | ${r.auditPeakRssMiB.toFixed(0)} MiB | ${r.auditVerdicts} | ${r.auditFindings} |`,
    ),
    '',
  ].join('\n');
}
