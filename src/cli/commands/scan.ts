import { resolve } from 'node:path';
import { ApiError } from '../../api/errors.js';
import { crawl, CredentialsRejected, type CrawlResult } from '../../crawler/crawl.js';
import { createProgress } from '../../crawler/progress.js';
import { buildSummary, summaryText } from '../../crawler/summary.js';
import { secretsFromEnv } from '../../config/credentials.js';
import { EXIT, ZonewardenError } from '../../shared/errors.js';
import { createRedactor } from '../../shared/redact.js';
import { openSnapshot } from '../../snapshot/db.js';
import { ScanWriter } from '../../snapshot/writer.js';
import { defineCommand } from '../command.js';
import { clientFor, commonOptions, configFrom, loggerFor } from '../common.js';

/** Stopped by SIGINT or SIGTERM: the scan is marked aborted and earlier scans are untouched. */
class ScanAborted extends ZonewardenError {
  constructor(scanId: number, signal: string) {
    super('ZW_SCAN_ABORTED', `scan ${scanId} aborted by ${signal}; earlier scans are intact`);
  }
}

export const scanCommand = defineCommand({
  name: 'scan',
  summary: 'crawl the API into a new scan in the database and print its id',
  description: `
Reads accounts, zones, and for every zone its DNS records, certificate packs (every status),
firewall rules, filters, WAF-migration status, check and config, the previous managed rules
(packages, groups, rules, URI-based overrides) until the zone has migrated, and its managed-rules
entry point once it has; and the user's invites. Everything goes into the SQLite database as a
new scan; unchanged resources are stored once across scans.

Prints the scan id on stdout (or the summary as JSON with --format json) and a summary on stderr.
Exit 0: the scan is complete. Exit 3: some parts could not be read; what was read is kept and the
summary names what is missing. Exit 2: a usage, configuration or fatal error (the scan, if it
started, is marked aborted).`,
  options: {
    format: { type: 'string', default: 'text', choices: ['text', 'json'], help: 'output: the scan id, or the summary as JSON' },
    ...commonOptions('baseUrl', 'db', 'config', 'account', 'zone', 'concurrency', 'budget', 'budgetWindow', 'timeout', 'retries', 'retryWait', 'quiet', 'verbose'),
  },
  examples: ['zonewarden scan', 'zonewarden scan --zone example.com --zone example.org --format json', 'zonewarden scan --account 023e105f4ecef8ad9ca31a8372d0c353 --budget 600'],
  async run(o, io) {
    const config = configFrom(o, io);
    const logger = loggerFor(config, io);
    const client = clientFor(config, io, logger);
    const { secrets, identities } = secretsFromEnv(io.env);
    const db = openSnapshot(resolve(io.cwd, config.db));
    const controller = new AbortController();
    let stoppedBy: string | null = null;
    void io.stopSignal.then((signal) => {
      stoppedBy = signal;
      controller.abort(new Error(signal));
    });
    const started = new Date();
    let writer: ScanWriter | undefined;
    try {
      writer = ScanWriter.start(db, client.options.baseUrl, { accounts: [...config.account], zones: [...config.zone] }, createRedactor([...secrets, ...identities]));
      const w = writer;
      const progress = createProgress({ tty: io.stderrIsTTY === true, quiet: config.quiet, write: io.stderr, stats: () => client.snapshotStats() });
      let result: CrawlResult;
      try {
        result = await crawl({
          client,
          writer: w,
          scope: { accounts: [...config.account], zones: [...config.zone] },
          concurrency: config.concurrency,
          logger,
          signal: controller.signal,
          onProgress: (p) => progress.update(p),
        });
      } finally {
        progress.stop();
      }
      const status = result.missing.length ? 'incomplete' : 'complete';
      const summary = buildSummary(w.scanId, status, started, result, w.written, client.snapshotStats());
      w.finish(status, summary);
      if (o.format === 'json') io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
      else {
        io.stdout(`${w.scanId}\n`);
        if (!config.quiet) io.stderr(summaryText(summary));
      }
      return status === 'complete' ? EXIT.ok : EXIT.incomplete;
    } catch (err) {
      if (writer) writer.finish('aborted', { error: err instanceof Error ? err.message : String(err) });
      if (stoppedBy && writer) throw new ScanAborted(writer.scanId, stoppedBy);
      if (err instanceof CredentialsRejected) throw err.error;
      if (err instanceof ApiError || err instanceof ZonewardenError) throw err;
      throw err;
    } finally {
      await client.close();
      db.close();
    }
  },
});
