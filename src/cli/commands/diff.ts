import { resolve } from 'node:path';
import { chooseScans, diffScans, ignoreListFrom } from '../../drift/index.js';
import { officialAuditId } from '../../audit/audit-identity.js';
import { judgementOf } from '../../policy/judgement.js';
import type { Db } from '../../snapshot/db.js';
import { recordAudit } from '../../audit/audit.js';
import { catalogue, loadRules, rulesFor } from '../../policy/catalogue.js';
import { auditWithinLimits, heldWaiverWarnings, loadWaivers } from '../../policy/waivers.js';
import { EXIT } from '../../common/errors.js';
import { defineCommand } from '../command.js';
import { closing, commonOptions, configFrom, configScope, viewOptions } from '../common.js';
import { diffJson } from '../output/diff-json.js';
import { diffMarkdown } from '../output/diff-markdown.js';
import { writeDiffText } from '../output/diff-text.js';
import { openExisting } from './audit.js';

export const diffCommand = defineCommand({
  name: 'diff',
  summary: 'what changed between two scans, or since the accepted baseline: findings and configuration',
  description: `
Compares two scans: by default the latest complete scan of the whole organisation with the
complete scan before it; with --baseline, the accepted baseline (zonewarden baseline accept) with
that latest scan. Scans of different scopes (named with --from and --to) are compared on what both
covered only, and the output says so.

--zone and --account (else the config file's) compare only those zones and accounts: their
findings and configuration, whatever scope the scans had. --zone takes zone names, ids or globs
(* and ?), --account account ids, names or globs; both: those zones within those accounts. The
scans compared are then the newest complete scan holding them (a scan of the whole organisation,
or a newer scan of just those zones) and the complete scan holding them before it. A name that
matches nothing in the scans is an error naming the closest names.

Each scan is compared by its official audit: the nightly run's, or its first. A trial audit (one
made with other rules, settings or waivers: see zonewarden audit) is compared only when named with
--from-audit or --to-audit, which also name its scan; both naming audits of one scan show what the
trial changes against the official audit (zonewarden scans lists the audits).

Findings are matched by fingerprint (rule and resource): new, fixed, severity changed, newly
waived, no longer waived, newly unknown (the later scan could not read what the check needs: never
shown as fixed) and known again; still failing, still waived and still unknown are counted. A scan
that has not been audited is audited first, with the current rules and --waivers, and stored as its
official audit.

Configuration drift lists accounts, zones, DNS records, certificate packs and certificates,
firewall rules, filters, migration state, the legacy WAF and invites that were added, removed or
changed, with each changed field's old and new value. Fields that move without anyone changing
anything (modified_on, counters the service keeps) are ignored by a default list that the config
file's "drift": {"ignore": [...]} replaces. Data one scan could not read is reported as not
compared (unknown), never as removed; zones outside a scoped scan (--zone, --account) are not
compared.

Exit 1 with --fail-on-drift when anything was added, removed, fixed or changed. Otherwise exit 3
when something could not be compared (an incomplete scan, unread data, newly unknown findings, or
rules that ran in only one audit); else 0. Exit 2: a usage, configuration or database error.`,
  options: {
    from: { type: 'integer', min: 1, value: 'ID', help: 'the earlier scan (default: the latest complete scan before --to holding what it holds)' },
    to: { type: 'integer', min: 1, value: 'ID', help: 'the later scan (default: the latest complete scan holding --zone and --account)' },
    'from-audit': { type: 'integer', min: 1, value: 'ID', help: "compare this audit (and its scan) as the earlier one, instead of the scan's official audit" },
    'to-audit': { type: 'integer', min: 1, value: 'ID', help: "compare this audit (and its scan) as the later one, instead of the scan's official audit" },
    baseline: { type: 'boolean', help: 'compare from the accepted baseline instead of --from' },
    format: { type: 'string', default: 'text', choices: ['text', 'json', 'md'], help: 'output: text, JSON (schema zonewarden.diff/1) or Markdown' },
    'fail-on-drift': { type: 'boolean', help: 'exit 1 when anything changed' },
    limit: { type: 'integer', default: 500, min: 0, value: 'N', help: 'list at most N entries per section in text and Markdown (0: all); JSON lists all' },
    ...commonOptions('waivers', 'waiverMaxDays', 'waiverMaxMatches', 'rulesDir', 'db', 'config', 'quiet', 'verbose'),
    ...viewOptions(),
  },
  examples: [
    'zonewarden diff',
    'zonewarden diff --baseline --fail-on-drift',
    'zonewarden diff --from 12 --to 15 --format md > drift.md',
    'zonewarden diff --zone shop.example.com',
    'zonewarden diff --from-audit 9 --to-audit 12',
  ],
  async run(o, io) {
    const config = configFrom(o, io);
    const ignore = ignoreListFrom(config.drift, `config file ${config.configFile ?? ''}: drift`);
    await loadRules(config, io.cwd, (line) => io.stderr(`${line}\n`));
    const rules = rulesFor(config);
    const waivers = config.waivers ? loadWaivers(resolve(io.cwd, config.waivers), [...catalogue().keys()], { maxDays: config.waiverMaxDays }) : [];
    const asked = { from: o.from, to: o.to, fromAudit: o['from-audit'], toAudit: o['to-audit'], baseline: o.baseline, filter: configScope(config) };
    return closing(openForDiff(resolve(io.cwd, config.db), asked), (db) => {
      const identity = { judgement: judgementOf(rules, waivers, config.waiverMaxMatches), madeBy: 'diff' as const };
      const result = diffScans(db, {
        ...asked,
        ignore,
        audit: (reader) => {
          if (!config.quiet) io.stderr(`scan ${reader.scan.id} has not been audited: auditing it now\n`);
          const audited = auditWithinLimits(waivers, config.waiverMaxMatches, (w) => recordAudit(db, reader, rules, w, { identity }));
          for (const line of heldWaiverWarnings(audited.waivers, resolve(io.cwd, config.waivers ?? ''))) io.stderr(`${line}\n`);
        },
      });
      const exitCode = o['fail-on-drift'] && result.changed ? EXIT.findings : result.partial ? EXIT.incomplete : EXIT.ok;
      if (o.format === 'json') io.stdout(diffJson(result, exitCode));
      else if (o.format === 'md') io.stdout(diffMarkdown(result, { limit: o.limit }));
      else writeDiffText(result, { limit: o.limit }, io.stdout);
      if (!config.quiet && exitCode === EXIT.findings) io.stderr(`drift between scan ${result.from.id} and scan ${result.to.id}\n`);
      return exitCode;
    });
  },
});

/**
 * Comparing audited scans only reads, and works for a user who may only read the database; a scan
 * not audited yet is audited first, which writes, so then the database is opened for writing.
 */
function openForDiff(path: string, asked: Parameters<typeof chooseScans>[1]): Db {
  const reader = openExisting(path, { readonly: true });
  let audited: boolean;
  try {
    const pair = chooseScans(reader, asked);
    audited = officialAuditId(reader, pair.from) !== null && officialAuditId(reader, pair.to) !== null;
  } catch {
    // The choice fails again, with its message, where diffScans makes it.
    audited = false;
  }
  if (audited) return reader;
  reader.close();
  return openExisting(path);
}
