import { resolve } from 'node:path';
import { CredentialsRejected } from '../../crawler/crawl.js';
import { createProgress } from '../../crawler/progress.js';
import { runScan, ScanFailed } from '../../crawler/run-scan.js';
import { summaryText } from '../../crawler/summary.js';
import { secretsFromEnv } from '../../config/credentials.js';
import { EXIT, ZonewardenError } from '../../shared/errors.js';
import { createRedactor } from '../../shared/redact.js';
import { openSnapshot } from '../../snapshot/db.js';
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
    const progress = createProgress({ tty: io.stderrIsTTY === true, quiet: config.quiet, write: io.stderr, stats: () => client.snapshotStats() });
    try {
      const { scanId, status, summary } = await runScan({
        db,
        client,
        scope: { accounts: [...config.account], zones: [...config.zone] },
        concurrency: config.concurrency,
        logger,
        redact: createRedactor([...secrets, ...identities]),
        signal: controller.signal,
        onProgress: (p) => progress.update(p),
      }).finally(() => progress.stop());
      if (o.format === 'json') io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
      else {
        io.stdout(`${scanId}\n`);
        if (!config.quiet) io.stderr(summaryText(summary));
      }
      return status === 'complete' ? EXIT.ok : EXIT.incomplete;
    } catch (err) {
      if (!(err instanceof ScanFailed)) throw err;
      if (stoppedBy && err.scanId !== null) throw new ScanAborted(err.scanId, stoppedBy);
      if (err.error instanceof CredentialsRejected) throw err.error.error;
      throw err.error;
    } finally {
      await client.close();
      db.close();
    }
  },
});
