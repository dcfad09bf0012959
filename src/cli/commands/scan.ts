import { summaryText } from '../output/scan-summary.js';
import { EXIT } from '../../common/errors.js';
import { defineCommand } from '../command.js';
import { commonOptions, configFrom } from '../common.js';
import { scanStep } from '../../jobs/job.js';

export const scanCommand = defineCommand({
  name: 'scan',
  summary: 'crawl the API into a new scan in the database and print its id',
  description: `
Reads accounts, zones, and for every zone its DNS records, certificate packs (every status),
firewall rules, filters, WAF-migration status, check and config, the previous managed rules
(packages, groups, rules, URI-based overrides) until the zone has migrated, and its managed-rules
entry point once it has; the zone security reads the rules declare (settings one by one, DNSSEC,
universal SSL, the custom-rules entry point: up to 12 calls per zone with every built-in rule on,
listed by \`zonewarden rules\`); and the user's invites. Everything goes into the SQLite database
as a new scan; unchanged resources are stored once across scans.

Requests stay inside --budget in any --budget-window (and inside what the server's quota headers
leave), as fast as --concurrency allows. A read that still fails after --retries with a 5xx, a
timeout or a malformed answer is read again at the end of the scan, after a 30-second pause.

Prints the scan id on stdout (or the summary as JSON with --format json) and a summary on stderr.
--zone and --account (repeated or comma-separated) limit the scan: zone names compare as DNS does
(case and a final dot aside), account ids exactly. The scan records its scope; audit, report, diff
and status use a scoped scan only when named with --scan or given the same scope.

Exit 0: the scan is complete. Exit 3: some parts could not be read, or some --zone/--account names
matched nothing; what was read is kept and the summary names what is missing. Exit 2: a usage,
configuration or fatal error (the scan, if it started, is marked aborted), such as a --zone/--account
scope that matches nothing these credentials see (the closest names are listed), credentials the
API refuses (all of them, with a credential per account), or an API that cannot be reached on the
first calls.

A credential per account: the config file's "credentials" section maps accounts to the variables
holding their own tokens or key pairs (docs/credentials.md). Each credential has its own budget and
pacer and its accounts are read side by side; one the API refuses loses its accounts' parts (denied,
its variable named), not the scan.

Later refusals (401, 403) are parts "denied" to these credentials; an account-owned token, which
cannot list accounts, reads the zones of --account or every zone it sees; endpoints the API
answers as retired (410 Gone) are recorded as such and are not missing; a Free zone's previous
managed rules are never asked for (it has none); a setting the plan does not offer is stored as
not offered (not applicable), never missing.`,
  options: {
    format: { type: 'string', default: 'text', choices: ['text', 'json'], help: 'output: the scan id, or the summary as JSON' },
    ...commonOptions('baseUrl', 'db', 'config', 'account', 'zone', 'concurrency', 'budget', 'budgetWindow', 'perSecond', 'timeout', 'retries', 'retryWait', 'resolver', 'quiet', 'verbose'),
  },
  examples: ['zonewarden scan', 'zonewarden scan --zone example.com,example.org --format json', 'zonewarden scan --account 023e105f4ecef8ad9ca31a8372d0c353 --budget 600'],
  async run(o, io) {
    const config = configFrom(o, io);
    const { scanId, status, summary } = await scanStep(config, io);
    if (o.format === 'json') io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
    else {
      io.stdout(`${scanId}\n`);
      if (!config.quiet) io.stderr(summaryText(summary));
    }
    return status === 'complete' ? EXIT.ok : EXIT.incomplete;
  },
});
