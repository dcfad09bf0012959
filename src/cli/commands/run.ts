import { resolve } from 'node:path';
import { defineCommand } from '../command.js';
import { commonOptions, configFrom } from '../common.js';
import { runJob } from '../job.js';
import { parseFormats, REPORT_OPTIONS } from './report.js';

export const runCommand = defineCommand({
  name: 'run',
  summary: 'the nightly job: scan, audit and report, with the exit code of the audit',
  description: `
Scans (as zonewarden scan), audits the new scan with the rules, config and --waivers (as zonewarden
audit) and writes its reports (as zonewarden report), printing the report paths.

Exit 1: a failure (not waived) at or above --fail-on. Otherwise exit 3 when the scan is incomplete
or a rule could not run; else 0. Exit 2: a usage, configuration or fatal error.`,
  options: {
    ...REPORT_OPTIONS,
    ...commonOptions('baseUrl', 'db', 'config', 'account', 'zone', 'concurrency', 'budget', 'budgetWindow', 'timeout', 'retries', 'retryWait', 'failOn', 'waivers', 'quiet', 'verbose'),
  },
  examples: ['zonewarden run --fail-on high', 'zonewarden run --out /srv/zonewarden/reports --waivers waivers.yaml --format html,md'],
  async run(o, io) {
    const formats = parseFormats(o.format);
    const config = configFrom(o, io);
    const outcome = await runJob(config, io, {
      out: resolve(io.cwd, o.out),
      formats,
      ...(o.templates === undefined ? {} : { templatesDir: resolve(io.cwd, o.templates) }),
    });
    return outcome.exitCode;
  },
});
