import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { callsMarkdown, clientCalls } from './client-calls.js';
import { driftMarkdown } from './drift.js';
import Database from 'better-sqlite3';
import { reportBench, reportMarkdown } from './report.js';
import { scanBench, scanMarkdown } from './scan.js';
import { emulatorThroughput, generatedStartup, startupMarkdown, throughputMarkdown } from './emulator-throughput.js';

/**
 * `npm run bench`: runs every benchmark, prints the tables and rewrites BENCHMARKS.md with the
 * machine and date. Figures come from this run only; nothing is carried over.
 */
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    'no-write': { type: 'boolean', default: false },
    // Organisations to scan, as zones:records pairs; the large one takes about twelve minutes.
    scans: { type: 'string', default: '1000:100000,10000:1000000' },
    // FILE:SCAN: only the report benchmark, on an audited scan of an existing database.
    'report-db': { type: 'string' },
  },
});
if (values['report-db']) {
  const [file, scan] = values['report-db'].split(':');
  const findings = (new Database(file!, { readonly: true }).prepare('SELECT count(*) AS n FROM findings WHERE scan_id = ?').get(Number(scan)) as { n: number }).n;
  process.stdout.write(reportMarkdown([await reportBench(file!, Number(scan), findings)]));
  process.exit(0);
}
const seconds = Number(values.seconds);
if (!Number.isFinite(seconds) || seconds <= 0) {
  process.stderr.write('bench: --seconds must be a positive number\n');
  process.exit(2);
}

const sections: string[] = [];
process.stderr.write('bench: emulator throughput...\n');
sections.push(throughputMarkdown(await emulatorThroughput(seconds)));
process.stderr.write('bench: emulator start-up with a million records...\n');
sections.push(startupMarkdown(await generatedStartup()));
process.stderr.write('bench: client calls against the minimum...\n');
sections.push(callsMarkdown(await clientCalls()));

const scans = [];
for (const pair of values.scans.split(',').filter(Boolean)) {
  const [zones, records] = pair.split(':').map(Number);
  if (!Number.isInteger(zones) || !Number.isInteger(records)) {
    process.stderr.write(`bench: --scans takes zones:records pairs, got "${pair}"\n`);
    process.exit(2);
  }
  process.stderr.write(`bench: scan of ${zones} zones and ${records} records at 20 ms latency, then a rescan...\n`);
  scans.push(await scanBench(zones!, records!));
}
if (scans.length) sections.push(scanMarkdown(scans), driftMarkdown(scans), reportMarkdown(scans.map((s) => s.report)));

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const doc = [
  '# Benchmarks',
  '',
  `Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}; machine: ${machine}.`,
  '',
  ...sections,
].join('\n');
process.stdout.write(`${doc}\n`);
if (!values['no-write']) writeFileSync(new URL('../../BENCHMARKS.md', import.meta.url), `${doc}\n`);
