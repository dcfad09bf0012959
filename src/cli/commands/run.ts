import { resolve } from 'node:path';
import type { Config } from '../../config/load.js';
import { defineCommand, type CommandIO } from '../command.js';
import { apiAccess, commonOptions, configFrom, trendScope } from '../common.js';
import { nightlyRun, nightlySettings, type NightlySettings } from '../../jobs/nightly.js';
import { parseFormats, REPORT_OPTIONS } from './report.js';

/** The options of the nightly job: every option of scan, audit and report, retention and staleness. */
export const JOB_OPTIONS = {
  ...REPORT_OPTIONS,
  ...commonOptions('baseUrl', 'db', 'config', 'account', 'zone', 'concurrency', 'budget', 'budgetWindow', 'perSecond', 'timeout', 'retries', 'retryWait', 'failOn', 'waivers', 'waiverMaxDays', 'waiverMaxMatches', 'rulesDir', 'keep', 'maxAge', 'metricsFile', 'full', 'fullEvery', 'resolver', 'quiet', 'verbose'),
};

/** The config and the job's settings from parsed options, checked before anything runs. */
export function jobSetup(o: { out: string; format: string; templates: string | undefined } & Record<string, unknown>, io: CommandIO): { config: Config; settings: NightlySettings } {
  const formats = parseFormats(o.format);
  const config = configFrom(o, io);
  // A typo in the URL or a missing token is a usage error now, not a failed run (and its alerts) later.
  apiAccess(config, io);
  const report = { out: resolve(io.cwd, o.out), formats, trendScope: trendScope(o, io), ...(o.templates === undefined ? {} : { templatesDir: resolve(io.cwd, o.templates) }) };
  return { config, settings: nightlySettings(config, io, report) };
}

export const runCommand = defineCommand({
  name: 'run',
  summary: 'the nightly job: scan, audit and report, with the exit code of the audit',
  description: `
Scans (as zonewarden scan, but incrementally: see below), audits the new scan with the rules, config and --waivers (as zonewarden
audit) and writes its reports (as zonewarden report), printing the report paths. The run is
recorded for zonewarden status. With --keep N, older scans and their reports are deleted
afterwards. Webhooks in the config file's "notifications" section are called for new failures,
a failed or incomplete run, and a last complete scan older than --max-age; a webhook that fails
is a warning, never the run's failure. With --metrics-file, the run's metrics for Prometheus are
written to that file after it, a failed run's included (zonewarden metrics --help, docs/monitoring.md).

Incremental nights: when the last scan of the same scope that read every zone it listed (complete,
or incomplete only for parts of its zones, such as one the token is refused) is one the account
audit logs can vouch for, only zones that changed are read in full: those the audit log names,
zones new to the zone list or whose list entry changed, zones that scan did not read (an
account hidden from the token that night), and each night a share of all zones, so that every
zone is read in full at least every --full-every nights (default 7). Other zones are
read only where a change can come unlogged (certificates in their renewal window, pending DNSSEC),
what the last scan could not read, and what rules switched on since need; the rest is carried
forward from the last scan without copying its rows. --full reads every zone in full. Without
permission to read an account's audit log (Account Settings Read), its zones are read in full,
and the run says so once per credential.

With the config file's "credentials" section, each account mapped there is read with its own
token or key pair, on that credential's own budget, side by side (docs/credentials.md).

Exit 1: a failure (not waived) at or above --fail-on. Otherwise exit 3 when the scan is incomplete
or a rule could not run; else 0. Exit 2: a usage, configuration or fatal error.`,
  options: JOB_OPTIONS,
  examples: ['zonewarden run --fail-on high', 'zonewarden run --out /srv/zonewarden/reports --waivers waivers.yaml --format html,md --keep 30'],
  async run(o, io) {
    const { config, settings } = jobSetup(o, io);
    const { report, error } = await nightlyRun(config, io, settings, 'manual');
    for (const d of report.notifications) if (!d.ok) io.stderr(`warning: notification ${d.event} failed: ${d.error}\n`);
    if (report.deletedScans.length && !config.quiet) io.stderr(`--keep ${config.keep}: deleted scans ${report.deletedScans.join(', ')} and their reports\n`);
    if (error !== null) throw error;
    return report.exitCode;
  },
});
