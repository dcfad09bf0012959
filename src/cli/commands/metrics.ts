import { resolve } from 'node:path';
import { EXIT, UsageError } from '../../common/errors.js';
import { metricsText } from '../../metrics/publish.js';
import { metricsPathProblem, writeMetricsFile } from '../../metrics/write-file.js';
import { redactorFor } from '../../config/credentials.js';
import { openSnapshot } from '../../snapshot/db.js';
import { defineCommand } from '../command.js';
import { closing, commonOptions, configFrom, configScope, maxAgeOf } from '../common.js';

export const metricsCommand = defineCommand({
  name: 'metrics',
  summary: 'Prometheus metrics of the last run and the latest audit: outcome, findings by severity, certificate expiry',
  description: `
Prints the database's state in the Prometheus text exposition format (version 0.0.4): the last run
of the nightly job (start, end, outcome, exit code; its scan: complete or not, API requests, zones
read in full and carried forward), the latest official audit of the scope (verdicts by status,
failing findings by severity, findings by rule, severity and status, waived apart), for each
served certificate of that audit's scan its expiry, renewal window and whether a newer certificate
covers its hosts, and when the newest complete scan finished. docs/monitoring.md lists every
metric with its labels, the number of series to expect, and example alert rules.

The nightly job writes the same text after each run with --metrics-file (run, schedule), for a
node exporter's textfile collector. With --metrics-file, metrics writes the file instead of
printing it, atomically (a temporary file renamed over it), e.g. from a timer between runs.
It only reads the database. No secret, URL or error text is ever part of a metric.

Exit 0; exit 2 with no database at --db, or a usage or database error.`,
  options: {
    // A flag only: the config file's or environment's metricsFile is the nightly job's, and must not turn printing into writing.
    'metrics-file': { type: 'string', value: 'FILE', help: 'write the metrics to FILE (atomically) instead of printing them, e.g. /var/lib/prometheus/node-exporter/zonewarden.prom' },
    ...commonOptions('db', 'config', 'account', 'zone', 'maxAge', 'verbose'),
  },
  examples: ['zonewarden metrics --db /var/lib/zonewarden/zonewarden.db', 'zonewarden metrics --metrics-file /var/lib/prometheus/node-exporter/zonewarden.prom'],
  async run(o, io) {
    const config = configFrom(o, io);
    const maxAgeMs = maxAgeOf(config);
    const file = o['metrics-file'] === undefined ? null : resolve(io.cwd, o['metrics-file']);
    const problem = file === null ? null : metricsPathProblem(file);
    if (problem) throw new UsageError(problem);
    return closing(openSnapshot(resolve(io.cwd, config.db), { readonly: true }), (db) => {
      const text = metricsText(db, configScope(config), maxAgeMs);
      if (file === null) io.stdout(text);
      // Printed text passes the CLI's redactor; the file is redacted here alike.
      else writeMetricsFile(file, redactorFor(io.env, config)(text));
      return EXIT.ok;
    });
  },
});
