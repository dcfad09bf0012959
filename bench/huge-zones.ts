import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli-process.js';
import { LATENCY_MS, zonewardenScan } from './compare.js';
import { startEmulatorProcess } from './emulator-process.js';
import { generatedConfigArgs } from './dataset-config.js';

/**
 * The other shape of organisation: a few zones of hundreds of thousands of records each, where the
 * scales' many small zones never put a large list in front of the writer. A first scan, an
 * unchanged rescan (every record compared with its stored version) and the audit, each in its own
 * process with the default concurrency, their peak RSS against the 300 MB target.
 */
export interface HugeZonesResult {
  zones: number;
  records: number;
  scan: { seconds: number; peakRssMiB: number };
  rescan: { seconds: number; peakRssMiB: number };
  audit: { seconds: number; peakRssMiB: number };
}

export async function hugeZonesBench(zones: number, records: number): Promise<HugeZonesResult> {
  const emulator = await startEmulatorProcess([
    '--dataset',
    'generated',
    '--accounts',
    '1',
    '--zones',
    String(zones),
    '--records',
    String(records),
    '--latency',
    String(LATENCY_MS),
    '--rate-limit',
    '0',
    '--ip-rate-limit',
    '0',
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'zw-bench-huge-'));
  const db = join(dir, 'bench.db');
  try {
    const first = await zonewardenScan(emulator.base, db, null);
    if (!first.completed) throw new Error(`zonewarden scan failed: ${first.failure}`);
    const second = await zonewardenScan(emulator.base, db, null);
    if (!second.completed) throw new Error(`zonewarden rescan failed: ${second.failure}`);
    emulator.stop();
    const audit = await runCli(['audit', '--db', db, '--scan', '1', '--format', 'json', '--quiet', ...generatedConfigArgs(db)], {});
    if (audit.code !== 0 && audit.code !== 3) throw new Error(`audit exited with ${audit.code}`);
    return {
      zones: first.summary.zones,
      records: first.summary.counts['dns_records'] ?? 0,
      scan: { seconds: first.seconds, peakRssMiB: first.peakRssMiB },
      rescan: { seconds: second.seconds, peakRssMiB: second.peakRssMiB },
      audit: { seconds: audit.ms / 1000, peakRssMiB: audit.peakKiB / 1024 },
    };
  } finally {
    emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function hugeZonesMarkdown(r: HugeZonesResult): string {
  const row = (step: string, m: { seconds: number; peakRssMiB: number }) =>
    `| ${step} | ${m.seconds.toFixed(1)} s | ${m.peakRssMiB.toFixed(0)} MiB (${((m.peakRssMiB * 2 ** 20) / 1e6).toFixed(0)} MB) | ${m.peakRssMiB * 2 ** 20 <= 300e6 ? 'met' : 'missed'} |`;
  return [
    `## Few huge zones: ${r.zones} zones, ${r.records} DNS records`,
    '',
    `One account whose zones hold ${Math.round(r.records / r.zones)} records each, the emulator at ${LATENCY_MS} ms latency, each step in its own process`,
    'with the default concurrency (8). Target: peak RSS at most 300 MB whatever the shape of the organisation.',
    '',
    '| step | time | peak RSS | 300 MB target |',
    '|---|---|---|---|',
    row('first scan', r.scan),
    row('unchanged rescan', r.rescan),
    row('audit of the first scan', r.audit),
    '',
  ].join('\n');
}
