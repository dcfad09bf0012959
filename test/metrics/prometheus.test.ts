import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GENERATED_RULE_SETTINGS } from '../../bench/dataset-config.js';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { SEVERITIES } from '../../src/policy/rule.js';
import { TOKEN } from '../support/http.js';
import { exited, startCli } from '../support/cli.js';
import { runInProcess } from '../support/in-process.js';
import { checkMetrics, parseExposition, prometheusDescribe, promtool, sampleKey, startNodeExporter, type NodeExporter, type ParsedSample } from '../support/prometheus.js';

/**
 * Issue 53: the nightly job in the team's monitoring. The metrics of the demo and of a generated
 * organisation of 300 zones pass `promtool check metrics` (Debian's prometheus package: the
 * format's parser and the naming lint), a node exporter's textfile collector (Debian's
 * prometheus-node-exporter) serves them back unchanged, hostile strings from the API stay inside
 * their labels, no credential appears, a failed run still says so, and the documented alert rules
 * pass `promtool check rules` and fire on the cases they are written for (`promtool test rules`).
 * Expected values come from the dataset, the run log (`status --format json`) and the reports,
 * never from the metrics code.
 */

const DAY = 86_400;
const CANARY = 'zw-canary-5b1f0e9c7a3d4e28b6';
const FORGED = 'zonewarden_forged';
/** Hostile text where the API gives free strings: a quote, a backslash and a line feed that would end a label, then a forged sample. */
const HOSTILE = `evil"} 1\n${FORGED}{x="\\"} 1\n# TYPE ${FORGED} counter\\`;

/**
 * Certificates whose answers the vendor documents (certificate renewal: renewal starts 30 days
 * before expiry for a 90-day certificate; custom certificates are never renewed by the vendor).
 */
function monitoredDataset(): DatasetFile {
  const universal = (zone: string, createdDaysAgo: number, extra: object = {}) => ({ type: 'universal', hosts: [zone, `*.${zone}`], validity_days: 90, created_on: `now-${createdDaysAgo}d`, ...extra });
  return {
    version: 1,
    accounts: [
      {
        name: 'Monitored Ltd',
        zones: [
          // Inside its renewal window (5 days left of 90), and an advanced pack with 80 days left covers its hosts: renewed.
          { name: 'renewed.example', certificate_packs: [universal('renewed.example', 85), { type: 'advanced', hosts: ['renewed.example', '*.renewed.example'], validity_days: 90, created_on: 'now-10d' }] },
          // Inside its renewal window and alone: not renewed (the alert's case).
          { name: 'stuck.example', certificate_packs: [universal('stuck.example', 85)] },
          // A pack of seven names: the hosts label names five and counts the rest.
          { name: 'many.example', certificate_packs: [{ type: 'advanced', hosts: ['many.example', ...[1, 2, 3, 4, 5, 6].map((i) => `h${i}.many.example`)], validity_days: 90, created_on: 'now-10d' }] },
          // An uploaded certificate with hostile strings in every free field, and a credential echoed in an id.
          {
            name: 'hostile.example',
            certificate_packs: [
              universal('hostile.example', 10),
              {
                type: `sni_custom${HOSTILE}`,
                hosts: [`${HOSTILE}.hostile.example`, 'www.hostile.example'],
                validity_days: 365,
                created_on: 'now-300d',
                certificates: [{ id: `cert-${CANARY}`, expires_on: 'now+65d' }],
              },
            ],
          },
        ],
      },
    ],
  };
}

const series = (samples: ParsedSample[], name: string) => samples.filter((s) => s.name === name);
const valueOf = (samples: ParsedSample[], name: string, labels: Record<string, string> = {}) => {
  const found = series(samples, name).filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  expect(found, `${name} ${JSON.stringify(labels)}`).toHaveLength(1);
  return found[0]!.value;
};

/** promtool check metrics: the parser's errors and the naming lint's complaints both fail it. */
function expectValid(text: string) {
  const checked = checkMetrics(text);
  expect(checked.output).toBe('');
  expect(checked.code).toBe(0);
}

prometheusDescribe('metrics for Prometheus, checked with promtool and served by node_exporter', 'test/metrics/prometheus.test.ts', () => {
  const emulators: RunningEmulator[] = [];
  // One collector directory per database: two files with the same series would collide in one exporter.
  const exporters: Record<'org300' | 'hostile', NodeExporter> = {} as never;
  const textfiles = { org300: mkdtempSync(join(tmpdir(), 'zw-textfile-')), hostile: mkdtempSync(join(tmpdir(), 'zw-textfile-')) };
  let demo: { text: string; file: string; status: Record<string, any>; counts: { byStatus: Record<string, number>; failBySeverity: Record<string, number> } };
  let org300: { text: string; emu: RunningEmulator; stderr: string };
  let monitored: { text: string; stdout: string; stderr: string; checkedAt: number };

  async function job(emu: RunningEmulator, dir: string, env: NodeJS.ProcessEnv, ...args: string[]) {
    return runInProcess(['run', '--base-url', emu.url, '--budget', '1000000', '--db', join(dir, 'zonewarden.db'), '--out', join(dir, 'reports'), '--quiet', ...args], env, dir);
  }

  beforeAll(async () => {
    // The demo, as a user tries it, then `zonewarden metrics` on its database.
    const cwd = mkdtempSync(join(tmpdir(), 'zw-metrics-demo-'));
    const ran = await runInProcess(['demo', '--out', 'd', '--quiet'], {}, cwd);
    expect(ran.code, ran.stderr).toBe(0);
    const printed = await runInProcess(['metrics', '--db', 'd/zonewarden-demo.db'], {}, cwd);
    expect(printed.code, printed.stderr).toBe(0);
    const status = await runInProcess(['status', '--db', 'd/zonewarden-demo.db', '--format', 'json'], {}, cwd);
    const findings = JSON.parse(readFileSync(join(ran.stdout.split('\n')[0]!, '..', 'findings.json'), 'utf8'));
    demo = { text: printed.stdout, status: JSON.parse(status.stdout), counts: findings.counts, file: '' };
    const written = await runInProcess(['metrics', '--db', 'd/zonewarden-demo.db', '--metrics-file', 'demo.prom'], {}, cwd);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toBe('');
    demo.file = readFileSync(join(cwd, 'demo.prom'), 'utf8');

    // An organisation of 300 zones, its nightly job writing the file into the collector's directory.
    const generated = await startEmulator({ dataset: 'generated', generated: { seed: 32, accounts: 12, zones: 300, records: 6000 }, now: new Date(), rateLimit: 0, ipRateLimit: 0 });
    emulators.push(generated);
    const dir300 = mkdtempSync(join(tmpdir(), 'zw-metrics-300-'));
    writeFileSync(join(dir300, 'zonewarden.config.json'), JSON.stringify({ rules: GENERATED_RULE_SETTINGS }));
    const run300 = await job(generated, dir300, { ZONEWARDEN_API_TOKEN: TOKEN }, '--metrics-file', join(textfiles.org300, 'zonewarden.prom'));
    expect(run300.code, run300.stderr).toBe(0);
    org300 = { text: readFileSync(join(textfiles.org300, 'zonewarden.prom'), 'utf8'), emu: generated, stderr: run300.stderr };

    // The hostile organisation, read with the canary as the token, the file named by the environment.
    const hostile = await startEmulator({ dataset: monitoredDataset(), token: CANARY, now: new Date(), rateLimit: 0, ipRateLimit: 0 });
    emulators.push(hostile);
    const dirHostile = mkdtempSync(join(tmpdir(), 'zw-metrics-hostile-'));
    const runHostile = await job(hostile, dirHostile, { ZONEWARDEN_API_TOKEN: CANARY, ZONEWARDEN_METRICS_FILE: join(textfiles.hostile, 'zonewarden.prom') }, '--verbose');
    expect(runHostile.code, runHostile.stderr).toBe(0);
    monitored = { text: readFileSync(join(textfiles.hostile, 'zonewarden.prom'), 'utf8'), stdout: runHostile.stdout, stderr: runHostile.stderr, checkedAt: Date.now() / 1000 };

    exporters.org300 = await startNodeExporter(textfiles.org300);
    exporters.hostile = await startNodeExporter(textfiles.hostile);
  }, 600_000);

  afterAll(async () => {
    for (const exporter of Object.values(exporters)) await exporter.close();
    for (const emu of emulators) await emu.close();
  });

  it('passes promtool check metrics on the demo, with the run, the audit and the freshness that status and the report give', () => {
    expectValid(demo.text);
    const samples = parseExposition(demo.text);
    // --metrics-file writes what is printed; only the time the metrics were taken, and the age then, differ.
    const taken = (text: string) => text.split('\n').filter((l) => !/^zonewarden_(metrics_timestamp|last_complete_scan_age)_seconds /.test(l));
    expect(taken(demo.file)).toEqual(taken(demo.text));
    const run = demo.status['lastRun'];
    expect(valueOf(samples, 'zonewarden_last_run_outcome', { outcome: run.outcome })).toBe(1);
    expect(series(samples, 'zonewarden_last_run_outcome').filter((s) => s.value === 1)).toHaveLength(1);
    expect(valueOf(samples, 'zonewarden_last_run_start_timestamp_seconds')).toBe(Date.parse(run.startedAt) / 1000);
    expect(valueOf(samples, 'zonewarden_last_run_end_timestamp_seconds')).toBe(Date.parse(run.finishedAt) / 1000);
    expect(valueOf(samples, 'zonewarden_last_run_exit_code')).toBe(run.exitCode);
    expect(valueOf(samples, 'zonewarden_last_complete_scan_end_timestamp_seconds')).toBe(Date.parse(demo.status['lastCompleteScan'].finishedAt) / 1000);
    expect(valueOf(samples, 'zonewarden_stale')).toBe(demo.status['stale'] ? 1 : 0);
    expect(valueOf(samples, 'zonewarden_max_age_seconds')).toBe(demo.status['maxAgeSeconds']);
    for (const severity of SEVERITIES) expect(valueOf(samples, 'zonewarden_audit_failing_findings', { severity })).toBe(demo.counts.failBySeverity[severity]);
    for (const [status, n] of Object.entries(demo.counts.byStatus)) expect(valueOf(samples, 'zonewarden_audit_verdicts', { status })).toBe(n);
    // By rule, severity and status: they add up to the audit's counts, waived apart.
    for (const status of ['fail', 'waived', 'unknown']) {
      const sum = series(samples, 'zonewarden_audit_findings').filter((s) => s.labels['status'] === status).reduce((n, s) => n + s.value, 0);
      expect(sum, status).toBe(demo.counts.byStatus[status]);
    }
  });

  it('passes promtool check metrics on the nightly job of 300 zones: one series set per served certificate, findings by rule rather than by zone', () => {
    expectValid(org300.text);
    const samples = parseExposition(org300.text);
    const zones = org300.emu.org.state.zones;
    expect(zones.length).toBe(300);
    // Served: the pack and the certificate active (or expired and still in place), with an expiry (vendor docs, certificate packs).
    const served = zones.flatMap((z) => z.certificatePacks.filter((p) => ['active', 'expired'].includes(p.status)).flatMap((p) => p.certificates.filter((c) => ['active', 'expired'].includes(c.status) && c.expires_on)));
    for (const name of ['zonewarden_certificate_expiry_timestamp_seconds', 'zonewarden_certificate_renewal_window_seconds', 'zonewarden_certificate_has_successor']) {
      expect(series(samples, name).map((s) => s.labels['certificate']).sort(), name).toEqual(served.map((c) => c.id).sort());
    }
    const expiry = new Map(served.map((c) => [c.id, Date.parse(c.expires_on!) / 1000]));
    for (const s of series(samples, 'zonewarden_certificate_expiry_timestamp_seconds')) expect(s.value).toBe(expiry.get(s.labels['certificate']!));
    // Zones read in full and carried forward add up to the organisation; a first night reads all in full.
    expect(valueOf(samples, 'zonewarden_last_run_scan_zones', { read: 'full' })).toBe(300);
    expect(valueOf(samples, 'zonewarden_last_run_scan_zones', { read: 'carried_forward' })).toBe(0);
    expect(valueOf(samples, 'zonewarden_last_run_scan_complete')).toBe(1);
    expect(valueOf(samples, 'zonewarden_last_run_scan_api_requests')).toBe(org300.emu.stats().requests.total);
    // No zone label outside the certificate series: the findings' cardinality does not grow with zones.
    const zoneLabelled = new Set(samples.filter((s) => 'zone' in s.labels).map((s) => s.name));
    expect([...zoneLabelled].sort()).toEqual(['zonewarden_certificate_expiry_timestamp_seconds', 'zonewarden_certificate_has_successor', 'zonewarden_certificate_renewal_window_seconds']);
  });

  it('keeps hostile API strings inside their labels, and never writes the credential', () => {
    expectValid(monitored.text);
    const samples = parseExposition(monitored.text);
    expect(samples.filter((s) => s.name === FORGED)).toEqual([]);
    const custom = series(samples, 'zonewarden_certificate_expiry_timestamp_seconds').filter((s) => s.labels['zone'] === 'hostile.example' && s.labels['pack_type'] !== 'universal');
    expect(custom).toHaveLength(1);
    expect(custom[0]!.labels['pack_type']).toBe(`sni_custom${HOSTILE}`);
    expect(custom[0]!.labels['hosts']).toBe(`${HOSTILE}.hostile.example,www.hostile.example`);
    // The id the server echoed the credential into is there, redacted as everywhere else.
    expect(custom[0]!.labels['certificate']).toBe('cert-[redacted]');
    for (const text of [monitored.text, monitored.stdout, monitored.stderr]) expect(text).not.toContain(CANARY);
  });

  it('says for each certificate when it expires, its renewal window, and whether a newer one covers its hosts', () => {
    const samples = parseExposition(monitored.text);
    const cert = (zone: string, type: string) => {
      const found = series(samples, 'zonewarden_certificate_expiry_timestamp_seconds').find((s) => s.labels['zone'] === zone && s.labels['pack_type'] === type);
      expect(found, `${zone} ${type}`).toBeDefined();
      return found!.labels;
    };
    const stuck = cert('stuck.example', 'universal');
    const renewed = cert('renewed.example', 'universal');
    const advanced = cert('renewed.example', 'advanced');
    const custom = cert('hostile.example', `sni_custom${HOSTILE}`);
    // 90 days from 85 days ago: 5 days from the emulator's start (a few seconds before the run).
    expect(Math.abs(valueOf(samples, 'zonewarden_certificate_expiry_timestamp_seconds', stuck) - (monitored.checkedAt + 5 * DAY))).toBeLessThan(600);
    // vendor docs, certificate renewal: a 90-day certificate is renewed from 30 days before it expires.
    expect(valueOf(samples, 'zonewarden_certificate_renewal_window_seconds', stuck)).toBe(30 * DAY);
    // An uploaded certificate is never renewed by the vendor: 30 days, the rule's default lowest tier (docs/monitoring.md).
    expect(valueOf(samples, 'zonewarden_certificate_renewal_window_seconds', custom)).toBe(30 * DAY);
    expect(valueOf(samples, 'zonewarden_certificate_has_successor', stuck)).toBe(0);
    expect(valueOf(samples, 'zonewarden_certificate_has_successor', renewed)).toBe(1);
    expect(cert('many.example', 'advanced')['hosts']).toBe('many.example,h1.many.example,h2.many.example,h3.many.example,h4.many.example,+2 more');
    // The advanced pack itself has nothing newer.
    expect(valueOf(samples, 'zonewarden_certificate_has_successor', advanced)).toBe(0);
  });

  it.each(['org300', 'hostile'] as const)("is served by node_exporter's textfile collector and read back over HTTP unchanged (%s)", async (name) => {
    const scraped = parseExposition(await exporters[name].scrape());
    expect(valueOf(scraped, 'node_textfile_scrape_error')).toBe(0);
    expect(series(scraped, 'node_textfile_mtime_seconds').map((s) => s.labels['file'])).toEqual([join(textfiles[name], 'zonewarden.prom')]);
    // Every sample of the file, and nothing else of ours: node_exporter sorts labels and writes numbers its own way.
    const written = parseExposition(name === 'org300' ? org300.text : monitored.text).map(sampleKey).sort();
    const served = scraped.filter((s) => s.name.startsWith('zonewarden_')).map(sampleKey).sort();
    expect(served).toEqual(written);
    if (name === 'hostile') expect(scraped.filter((s) => s.labels['pack_type'] === `sni_custom${HOSTILE}`)).toHaveLength(3);
  });

  it('writes the metrics of a failed run: the outcome, its exit code, and no success', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-metrics-failed-'));
    const file = join(dir, 'textfile', 'zonewarden.prom');
    mkdirSync(join(dir, 'textfile'));
    // A token the API refuses: the scan cannot start, exit 2.
    const failed = await job(org300.emu, dir, { ZONEWARDEN_API_TOKEN: 'refused-token-0123456789' }, '--metrics-file', file);
    expect(failed.code).toBe(2);
    const text = readFileSync(file, 'utf8');
    expectValid(text);
    const samples = parseExposition(text);
    expect(valueOf(samples, 'zonewarden_last_run_outcome', { outcome: 'failed' })).toBe(1);
    expect(valueOf(samples, 'zonewarden_last_run_exit_code')).toBe(2);
    expect(series(samples, 'zonewarden_last_success_timestamp_seconds')).toEqual([]);
    // The scan it started was cut short, and nothing has completed: no completion time to give.
    expect(valueOf(samples, 'zonewarden_last_run_scan_complete')).toBe(0);
    expect(series(samples, 'zonewarden_last_complete_scan_end_timestamp_seconds')).toEqual([]);
    expect(text).not.toContain('refused-token');
  });

  it('has the scheduler write the file when it starts, before its first run, saying nothing has run', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'zw-metrics-schedule-'));
    const file = join(cwd, 'zonewarden.prom');
    // Once a year: no run comes during the test, so the file is the start's.
    const { child, output } = await startCli(['schedule', '--base-url', org300.emu.url, '--cron', '0 0 1 1 *', '--tz', 'UTC', '--out', 'reports', '--quiet', '--metrics-file', file], { env: { ZONEWARDEN_API_TOKEN: TOKEN }, cwd });
    try {
      for (let i = 0; !existsSync(file) && i < 600; i++) await new Promise((r) => setTimeout(r, 100));
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited(child), output().stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expectValid(text);
    const samples = parseExposition(text);
    expect(series(samples, 'zonewarden_last_run_outcome')).toEqual([]);
    expect(valueOf(samples, 'zonewarden_stale')).toBe(1);
    expect(samples.map((s) => s.name)).toContain('zonewarden_build_info');
  });

  it('refuses a metrics file in a directory that does not exist before the job starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-metrics-nodir-'));
    const r = await job(org300.emu, dir, { ZONEWARDEN_API_TOKEN: TOKEN }, '--metrics-file', join(dir, 'missing', 'zonewarden.prom'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--metrics-file .*missing.*does not exist/);
    expect(existsSync(join(dir, 'zonewarden.db'))).toBe(false);
  });

  it('documents alert rules that promtool accepts and that fire on a stale or failed run and on a certificate nobody renews', () => {
    const doc = readFileSync(new URL('../../docs/monitoring.md', import.meta.url), 'utf8');
    const rules = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.startsWith('groups:'));
    expect(rules).toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'zw-alert-rules-'));
    writeFileSync(join(dir, 'rules.yml'), rules!);
    const checked = promtool('check', 'rules', join(dir, 'rules.yml'));
    expect(checked.code, checked.output).toBe(0);
    // Series as the metrics give them, one a minute from time 0 (promtool's clock): a job that last
    // succeeded at 0 with a max age of an hour; then a failed run. A certificate 10 days from expiry
    // in a 30-day window, without and with a successor.
    const inst = 'instance="host:9100",job="node"';
    const certLabels = 'zone="stuck.example",certificate="c1",pack_type="universal",hosts="stuck.example"';
    const otherLabels = 'zone="renewed.example",certificate="c2",pack_type="universal",hosts="renewed.example"';
    const staleAnnotations = {
      summary: "zonewarden's nightly audit is stale or failed",
      description: "Run `zonewarden status` on host:9100; it names the reason, and `journalctl -u zonewarden` has the run's log.",
    };
    const tests = {
      rule_files: ['rules.yml'],
      evaluation_interval: '1m',
      tests: [
        {
          interval: '1m',
          input_series: [
            { series: `zonewarden_last_success_timestamp_seconds{${inst}}`, values: '0x180' },
            { series: `zonewarden_max_age_seconds{${inst}}`, values: '3600x180' },
            { series: `zonewarden_last_run_outcome{${inst},outcome="ok"}`, values: '1x180' },
            { series: `zonewarden_last_run_outcome{${inst},outcome="failed"}`, values: '0x180' },
            { series: `zonewarden_certificate_expiry_timestamp_seconds{${inst},${certLabels}}`, values: `${10 * DAY}x180` },
            { series: `zonewarden_certificate_renewal_window_seconds{${inst},${certLabels}}`, values: `${30 * DAY}x180` },
            { series: `zonewarden_certificate_has_successor{${inst},${certLabels}}`, values: '0x180' },
            { series: `zonewarden_certificate_expiry_timestamp_seconds{${inst},${otherLabels}}`, values: `${10 * DAY}x180` },
            { series: `zonewarden_certificate_renewal_window_seconds{${inst},${otherLabels}}`, values: `${30 * DAY}x180` },
            { series: `zonewarden_certificate_has_successor{${inst},${otherLabels}}`, values: '1x180' },
          ],
          alert_rule_test: [
            { eval_time: '50m', alertname: 'ZonewardenNightlyRunStaleOrFailed', exp_alerts: [] },
            { eval_time: '90m', alertname: 'ZonewardenNightlyRunStaleOrFailed', exp_alerts: [{ exp_labels: { severity: 'warning', instance: 'host:9100', job: 'node' }, exp_annotations: staleAnnotations }] },
            {
              eval_time: '90m',
              alertname: 'ZonewardenCertificateNotRenewed',
              exp_alerts: [
                {
                  exp_labels: { severity: 'critical', instance: 'host:9100', job: 'node', zone: 'stuck.example', certificate: 'c1', pack_type: 'universal', hosts: 'stuck.example' },
                  // 10 days after time 0, seen at 90 minutes.
                  exp_annotations: {
                    summary: 'The certificate for stuck.example (stuck.example) expires within its renewal window and has no successor',
                    description: 'Certificate c1 (universal) expires in 9d 22h 30m 0s; see the certificate-expiry findings of the latest report.',
                  },
                },
              ],
            },
          ],
        },
        {
          interval: '1m',
          input_series: [
            { series: `zonewarden_last_success_timestamp_seconds{${inst}}`, values: '0x60' },
            { series: `zonewarden_max_age_seconds{${inst}}`, values: '86400x60' },
            { series: `zonewarden_last_run_outcome{${inst},outcome="failed"}`, values: '1x60' },
          ],
          alert_rule_test: [{ eval_time: '30m', alertname: 'ZonewardenNightlyRunStaleOrFailed', exp_alerts: [{ exp_labels: { severity: 'warning', instance: 'host:9100', job: 'node', outcome: 'failed' }, exp_annotations: staleAnnotations }] }],
        },
      ],
    };
    writeFileSync(join(dir, 'tests.yml'), JSON.stringify(tests));
    const tested = promtool('test', 'rules', join(dir, 'tests.yml'));
    expect(tested.output).toContain('SUCCESS');
    expect(tested.code, tested.output).toBe(0);
  });
});
