import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { callsMarkdown, clientCalls } from './client-calls.js';
import { budgetFor, budgetRuns } from './compare.js';
import { comparisonMarkdown, targetsMarkdown } from './compare-markdown.js';
import { driftMarkdown } from './drift.js';
import { emulatorThroughput, generatedStartup, startupMarkdown, throughputMarkdown } from './emulator-throughput.js';
import { hugeZonesBench, hugeZonesMarkdown } from './huge-zones.js';
import { incrementalBench, incrementalMarkdown } from './incremental-nights.js';
import { nightlyAuditBench, nightlyAuditMarkdown } from './nightly-audit.js';
import { budgetIsTheLimit, defaultsAgainstUnthrottled, faultStorm, MEDIUM_MINIMUM_REQUESTS, MEDIUM_ORG, pacingMarkdown, SMALL_ORG } from './pacing.js';
import { reportBench, reportMarkdown } from './report.js';
import { scanBench, scanMarkdown } from './scan.js';
import { SCALE_NAMES, SCALES, type ScaleName } from './scales.js';
import { replaceSection } from './sections.js';

/**
 * `npm run bench [-- --scale small|medium|large]`: measures zonewarden against scripts on the
 * official SDK and the whole pipeline on one organisation (or several, comma-separated), prints
 * the tables and writes them into BENCHMARKS.md with the machine and date. Each scale has its own
 * section there, replaced when that scale is measured again; the rest of the file is kept.
 * Figures come from this run only; nothing is carried over.
 */
const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: 'medium' },
    // Seconds of load per route for the emulator's own throughput (medium and large only).
    seconds: { type: 'string', default: '5' },
    'no-write': { type: 'boolean', default: false },
    // FILE:SCAN: only the report benchmark, on an audited scan of an existing database.
    'report-db': { type: 'string' },
    // ZONES:RECORDS: only the few-huge-zones shape (scan, unchanged rescan, audit), e.g. 5:1000000.
    'huge-zones': { type: 'string' },
    // ZONES:RECORDS:SHARE: only the nightly audit (an audit, a night, the audit of the scan after it: each judges every zone), e.g. 10000:1000000:0.02.
    'nightly-audit': { type: 'string' },
    // ZONES:SHARE:NIGHTS: only the incremental nights (requests of a full scan and of nights that read on), e.g. 1000:0.02:5.
    'incremental-nights': { type: 'string' },
    // Only the pacing and storm section (it is also measured after the medium scale).
    pacing: { type: 'boolean', default: false },
    'storm-scans': { type: 'string', default: '100' },
  },
});
const fail = (message: string): never => {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
};
if (values['report-db']) {
  const [file, scan] = values['report-db'].split(':');
  const findings = (new Database(file!, { readonly: true }).prepare('SELECT count(*) AS n FROM findings f JOIN audits a ON a.id = f.audit_id WHERE a.scan_id = ? AND a.trial IS NULL').get(Number(scan)) as { n: number }).n;
  process.stdout.write(reportMarkdown([await reportBench(file!, Number(scan), findings)]));
  process.exit(0);
}
const stormScans = Number(values['storm-scans']);
if (!Number.isInteger(stormScans) || stormScans <= 0) fail('--storm-scans must be a positive whole number');
const scales = values.pacing ? [] : (values.scale.split(',').map((s) => s.trim()) as ScaleName[]);
for (const s of scales) if (!SCALE_NAMES.includes(s)) fail(`--scale takes ${SCALE_NAMES.join(', ')} (or a comma-separated list), got "${s}"`);
const seconds = Number(values.seconds);
if (!Number.isFinite(seconds) || seconds <= 0) fail('--seconds must be a positive number');

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const stamp = `Measured by \`npm run bench -- --scale NAME\` on ${new Date().toISOString().slice(0, 10)}; machine: ${machine}.`;
const output = new URL('../../BENCHMARKS.md', import.meta.url);
let doc = existsSync(output) ? readFileSync(output, 'utf8') : '# Benchmarks\n';
if (values['huge-zones']) await hugeZonesOnly(values['huge-zones']);
if (values['nightly-audit']) await nightlyAuditOnly(values['nightly-audit']);
if (values['incremental-nights']) await incrementalNightsOnly(values['incremental-nights']);

for (const name of scales) {
  const scale = SCALES[name];
  process.stderr.write(`bench: ${name} (${scale.description}): zonewarden, the SDK scripts, the rescan, audit, drift and reports...\n`);
  const result = await scanBench(scale);
  const budget = budgetFor(result.minimum.minimum);
  process.stderr.write(`bench: ${name}: the three under a budget of ${budget.limit} requests per ${budget.windowSeconds} s...\n`);
  result.budget = { budget, runs: await budgetRuns(scale.dataset, budget) };
  const sections = [
    `## Scale ${name}: ${scale.description}`,
    '',
    stamp,
    '',
    comparisonMarkdown(result),
    targetsMarkdown(result),
    scanMarkdown([result]).replace(/^## /gm, '### '),
    driftMarkdown([result]).replace(/^## /gm, '### '),
    reportMarkdown([result.report]).replace(/^## /gm, '### '),
  ];
  if (name !== 'small') {
    // The emulator's own figures, which the comparison relies on: its throughput and start-up, and the client's calls.
    process.stderr.write('bench: emulator throughput, start-up, and the client against the minimum...\n');
    sections.push(
      throughputMarkdown(await emulatorThroughput(seconds)).replace(/^## /gm, '### '),
      startupMarkdown(await generatedStartup()).replace(/^## /gm, '### '),
      callsMarkdown(await clientCalls()).replace(/^## /gm, '### '),
    );
  }
  const section = sections.join('\n');
  process.stdout.write(`${section}\n`);
  doc = replaceSection(doc, name, section);
}
if (values.pacing || scales.includes('medium')) {
  process.stderr.write(`bench: pacing: default settings against the stated quota, the budget the limit, ${stormScans} scans through a storm...\n`);
  // The budget the comparison chooses for the medium organisation: about twice the latency bound.
  const medium = await budgetIsTheLimit(MEDIUM_ORG, budgetFor(MEDIUM_MINIMUM_REQUESTS));
  const section = [
    pacingMarkdown({ small: await defaultsAgainstUnthrottled(SMALL_ORG, 3), medium, storm: await faultStorm(stormScans, 0.2) }),
    '',
    stamp.replace('--scale NAME', '--pacing'),
  ].join('\n');
  process.stdout.write(`${section}\n`);
  doc = replaceSection(doc, 'pacing', section);
}
if (!values['no-write']) writeFileSync(output, doc);

async function incrementalNightsOnly(shape: string): Promise<never> {
  const [zones, share, nights] = shape.split(':').map(Number);
  if (!zones || !share || !nights || share <= 0 || share > 1 || nights < 1) fail(`--incremental-nights takes ZONES:SHARE:NIGHTS, e.g. 1000:0.02:5, got "${shape}"`);
  process.stderr.write(`bench: ${zones} zones: a first run, a full run, then ${nights} nights changing ${share} of the zones, each read on...\n`);
  const measured = `Measured by \`npm run bench -- --incremental-nights ${shape}\` on ${new Date().toISOString().slice(0, 10)}; machine: ${machine}.`;
  const section = [incrementalMarkdown(await incrementalBench(zones!, share!, nights!)), '', measured].join('\n');
  process.stdout.write(`${section}\n`);
  if (!values['no-write']) writeFileSync(output, replaceSection(doc, 'incremental-nights', section));
  process.exit(0);
}

async function nightlyAuditOnly(shape: string): Promise<never> {
  const [zones, records, share] = shape.split(':').map(Number);
  if (!zones || !records || !share || share <= 0 || share > 1) fail(`--nightly-audit takes ZONES:RECORDS:SHARE, e.g. 10000:1000000:0.02, got "${shape}"`);
  process.stderr.write(`bench: ${zones} zones, ${records} DNS records: scan, cold audit, a night (${share}), scan, nightly audit...\n`);
  const measured = `Measured by \`npm run bench -- --nightly-audit ${shape}\` on ${new Date().toISOString().slice(0, 10)}; machine: ${machine}.`;
  const section = [nightlyAuditMarkdown(await nightlyAuditBench(zones!, records!, share!)), measured].join('\n');
  process.stdout.write(`${section}\n`);
  if (!values['no-write']) writeFileSync(output, replaceSection(doc, 'nightly-audit', section));
  process.exit(0);
}

async function hugeZonesOnly(shape: string): Promise<never> {
  const [zones, records] = shape.split(':').map(Number);
  if (!zones || !records || zones < 1 || records < zones) fail(`--huge-zones takes ZONES:RECORDS, e.g. 5:1000000, got "${shape}"`);
  process.stderr.write(`bench: ${zones} zones, ${records} DNS records: scan, unchanged rescan, audit...\n`);
  const measured = `Measured by \`npm run bench -- --huge-zones ${shape}\` on ${new Date().toISOString().slice(0, 10)}; machine: ${machine}.`;
  const section = [hugeZonesMarkdown(await hugeZonesBench(zones!, records!)), measured].join('\n');
  process.stdout.write(`${section}\n`);
  if (!values['no-write']) writeFileSync(output, replaceSection(doc, 'huge-zones', section));
  process.exit(0);
}
