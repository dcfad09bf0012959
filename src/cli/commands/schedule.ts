import { resolve } from 'node:path';
import { checkCron, checkTimeZone } from '../../schedule/cron.js';
import { runScheduler } from '../../schedule/scheduler.js';
import { UsageError } from '../../common/errors.js';
import { openSnapshot } from '../../snapshot/db.js';
import { defineCommand } from '../command.js';
import { loadRules } from '../../policy/catalogue.js';
import { closing, commonOptions } from '../common.js';
import { nightlyRun, notifyIfStale, publishMetricsAtStart } from '../../jobs/nightly.js';
import { JOB_OPTIONS, jobSetup } from './run.js';

export const scheduleCommand = defineCommand({
  name: 'schedule',
  summary: 'run the nightly job on a cron schedule until SIGTERM or SIGINT (for a systemd service)',
  description: `
Runs the job of zonewarden run at every tick of --cron, in --tz, until SIGTERM or SIGINT. Runs
never overlap: a tick that comes while a run is going is skipped and logged. On SIGTERM or SIGINT
the current run ends cleanly (a scan that is cut is marked aborted; earlier scans are intact) and
the scheduler exits 0; another signal more than a second later kills it at once. If a tick was
missed while no scheduler was running, one run catches up at start; --run-now runs once at start
in any case. With --metrics-file, the metrics for Prometheus are written at start and after
every run (docs/monitoring.md).

stdout carries one JSON object per line, for journald or a log shipper: "started", "run" (one per
run: start, end, outcome, exit code, scan, counts, new failures, report directory, deleted scans,
notifications, error), "skipped", "catch-up", "notification" (a stale notice at start), "error"
(a run that could not even be recorded), "stopping", "stopped". The runs' progress, report paths
and warnings go to stderr. One scheduler per database: a second one on the same host is refused.`,
  options: {
    ...commonOptions('cron', 'timezone'),
    'run-now': { type: 'boolean', help: 'run once at start, then on the schedule' },
    ...JOB_OPTIONS,
  },
  examples: [
    'zonewarden schedule --cron "0 2 * * *" --tz Europe/Berlin --keep 30 --out /var/lib/zonewarden/reports',
    'zonewarden schedule --cron "30 1 * * 1-5" --run-now --waivers /etc/zonewarden/waivers.yaml',
  ],
  async run(o, io) {
    const { config, settings } = jobSetup(o, io);
    // A broken rule is a usage error now, not a failed run at 2 a.m.; each run loads them again.
    await loadRules(config, io.cwd, (line) => io.stderr(`${line}\n`));
    if (config.cron === undefined) throw new UsageError('schedule: --cron EXPR is required (or "cron" in the config file, or ZONEWARDEN_CRON), e.g. --cron "0 2 * * *"');
    const cron = checkCron(config.cron);
    const timezone = checkTimeZone(config.timezone);
    // stdout is the JSON log; what a run prints for people (progress, report paths) goes to stderr.
    const jobIo = { ...io, stdout: io.stderr };
    const log = (event: Record<string, unknown>) => io.stdout(`${JSON.stringify({ time: new Date().toISOString(), ...event })}\n`);
    return closing(openSnapshot(resolve(io.cwd, config.db)), async (db) => {
      await runScheduler({
        cron,
        timezone,
        runNow: o['run-now'],
        db,
        stopSignal: io.stopSignal,
        log,
        onStart: async () => {
          publishMetricsAtStart(config, jobIo, settings);
          for (const d of await notifyIfStale(config, jobIo, settings)) log({ ...d, event: 'notification', notice: d.event });
        },
        job: async (trigger) => ({ ...(await nightlyRun(config, jobIo, settings, trigger)).report }),
      });
      return 0;
    });
  },
});
