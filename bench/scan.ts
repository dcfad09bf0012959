import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli-process.js';
import { driftBench, type DriftBenchResult } from './drift.js';
import { reportBench, type ReportBenchResult } from './report.js';
import { startEmulatorProcess } from './emulator-process.js';

/**
 * `zonewarden scan` as users run it (its own process) against the emulator at 20 ms latency:
 * wall time, requests, rows ingested per second, peak RSS, database size, and the growth of an
 * unchanged rescan.
 */
export interface ScanBenchResult {
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

interface ScanSummary {
  durationMs: number;
  requests: { total: number };
  counts: Record<string, number>;
  status: string;
}

async function runScan(base: string, db: string, concurrency: number): Promise<{ summary: ScanSummary; peakKiB: number }> {
  const r = await runCli(['scan', '--db', db, '--budget', '1000000', '--concurrency', String(concurrency), '--format', 'json', '--quiet'], {
    ZONEWARDEN_BASE_URL: base,
    ZONEWARDEN_API_TOKEN: 'emulator-token',
  });
  if (r.code !== 0) throw new Error(`scan exited with ${r.code}: ${r.out.slice(0, 500)}`);
  return { summary: JSON.parse(r.out) as ScanSummary, peakKiB: r.peakKiB };
}

async function runAudit(db: string): Promise<{ seconds: number; peakKiB: number; findings: number; verdicts: number }> {
  const r = await runCli(['audit', '--db', db, '--scan', '1', '--format', 'json', '--quiet'], {});
  if (r.code !== 0 && r.code !== 3) throw new Error(`audit exited with ${r.code}: ${r.out.slice(0, 500)}`);
  const { counts } = JSON.parse(r.out) as { counts: { byStatus: Record<string, number> } };
  const verdicts = Object.values(counts.byStatus).reduce((a, b) => a + b, 0);
  return { seconds: r.ms / 1000, peakKiB: r.peakKiB, findings: verdicts - (counts.byStatus['pass'] ?? 0), verdicts };
}

export async function scanBench(zones: number, records: number, concurrency = 8): Promise<ScanBenchResult> {
  // A fixed clock, so that the next night's emulator (driftBench) serves the same times.
  const emulatorArgs = ['--dataset', 'generated', '--zones', String(zones), '--records', String(records), '--latency', '20', '--rate-limit', '0', '--ip-rate-limit', '0', '--now', new Date().toISOString()];
  const emulator = await startEmulatorProcess(emulatorArgs);
  const dir = mkdtempSync(join(tmpdir(), 'zw-bench-scan-'));
  const db = join(dir, 'bench.db');
  try {
    const first = await runScan(emulator.base, db, concurrency);
    const sizeAfterFirst = fileSize(db);
    const second = await runScan(emulator.base, db, concurrency);
    const sizeAfterSecond = fileSize(db);
    const audit = await runAudit(db);
    emulator.stop();
    const drift = await driftBench(emulatorArgs, db, concurrency);
    const report = await reportBench(db, 3, audit.findings);
    const rows = Object.values(first.summary.counts).reduce((a, b) => a + b, 0);
    return {
      zones,
      records,
      seconds: first.summary.durationMs / 1000,
      requests: first.summary.requests.total,
      rows,
      peakRssMiB: Math.max(first.peakKiB, second.peakKiB) / 1024,
      dbMiB: sizeAfterFirst / 2 ** 20,
      rescanSeconds: second.summary.durationMs / 1000,
      rescanGrowthPercent: ((sizeAfterSecond - sizeAfterFirst) / sizeAfterFirst) * 100,
      auditSeconds: audit.seconds,
      auditPeakRssMiB: audit.peakKiB / 1024,
      auditFindings: audit.findings,
      auditVerdicts: audit.verdicts,
      drift,
      report,
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
