import { runCli } from './cli-process.js';
import { startEmulatorProcess } from './emulator-process.js';
import { generatedConfigArgs } from './dataset-config.js';

/**
 * `zonewarden diff` between two full scans of the same organisation a night apart (the generated
 * dataset at --revision 1: about 1% of DNS records edited), both audited beforehand, as its own
 * process: wall time (start-up included) and peak RSS.
 */
export interface DriftBenchResult {
  seconds: number;
  peakRssMiB: number;
  resourcesChanged: number;
  findingChanges: number;
}

const env = { ZONEWARDEN_API_TOKEN: 'emulator-token' };

async function cli(args: string[]): Promise<{ out: string; peakKiB: number; ms: number }> {
  const r = await runCli(args, env);
  if (r.code !== 0 && r.code !== 3) throw new Error(`zonewarden ${args[0]} exited with ${r.code}: ${r.out.slice(0, 500)}`);
  return r;
}

/** `db` holds scans 1 and 2 of the organisation (with a fixed --now); this adds scan 3, of the next night's emulator. */
export async function driftBench(nextNightArgs: string[], db: string, concurrency: number): Promise<DriftBenchResult> {
  const emulator = await startEmulatorProcess(nextNightArgs);
  try {
    await cli(['scan', '--db', db, '--base-url', emulator.base, '--budget', '1000000', '--per-second', '0', '--concurrency', String(concurrency), '--quiet']);
  } finally {
    emulator.stop();
  }
  for (const scan of ['2', '3']) await cli(['audit', '--db', db, '--scan', scan, '--format', 'json', '--quiet', ...generatedConfigArgs(db)]);
  const r = await cli(['diff', '--db', db, '--from', '2', '--to', '3', '--format', 'json', '--quiet']);
  const result = JSON.parse(r.out) as { configuration: { changes: unknown[] }; findings: { changes: unknown[] } };
  return { seconds: r.ms / 1000, peakRssMiB: r.peakKiB / 1024, resourcesChanged: result.configuration.changes.length, findingChanges: result.findings.changes.length };
}

export function driftMarkdown(results: Array<{ zones: number; records: number; drift: DriftBenchResult }>): string {
  return [
    '## Drift: `zonewarden diff` between two full scans a night apart',
    '',
    'The generated organisation, then the same at `--revision 1` (about 1% of DNS records edited), each',
    'scanned in full and audited; the diff runs as its own process, start-up included. Target: at most',
    '5 s between two scans of 1,000,000 records.',
    '',
    '| zones | records | diff time | peak RSS | resources changed | findings changed |',
    '|---|---|---|---|---|---|',
    ...results.map((r) => `| ${r.zones} | ${r.records} | ${r.drift.seconds.toFixed(2)} s | ${r.drift.peakRssMiB.toFixed(0)} MiB | ${r.drift.resourcesChanged} | ${r.drift.findingChanges} |`),
    '',
  ].join('\n');
}
