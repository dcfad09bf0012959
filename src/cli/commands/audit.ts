import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { catalogue, loadRules, rulesFor } from '../../policy/catalogue.js';
import { recordAudit, runAudit, type AuditResult } from '../../policy/audit.js';
import type { Finding } from '../../policy/findings.js';
import type { Severity } from '../../policy/rule.js';
import { saveAudit, storedFindings, storedFindingsJson } from '../../policy/store.js';
import { auditWithinLimits, heldWaiverWarnings, loadWaivers } from '../../policy/waivers.js';
import { EXIT } from '../../common/errors.js';
import { openSnapshot, SnapshotError, type Db } from '../../snapshot/db.js';
import { SCHEMA_VERSION } from '../../snapshot/migrations.js';
import { SnapshotReader } from '../../snapshot/reader.js';
import { describeScope, isFullScope, scopeFlags, type ScanScope } from '../../snapshot/scope.js';
import { defineCommand } from '../command.js';
import { commonOptions, configFrom, configScope } from '../common.js';
import { writeAuditJson } from '../../report/findings-json.js';
import { junitRules, writeJunit } from '../../report/junit.js';
import { writeOcsf } from '../../report/ocsf.js';
import { writeAuditText } from '../output/audit-text.js';

/**
 * The scan to use: the one asked for, else the latest complete scan of the scope (a one-zone
 * rescan is not the latest scan of the organisation). When there is none, the message names the
 * scans that exist instead.
 */
export function chooseScan(db: Db, path: string, asked: number | undefined, scope: ScanScope): number {
  if (asked !== undefined) return asked;
  const latest = SnapshotReader.latestScanId(db, ['complete'], scope);
  if (latest !== null) return latest;
  const incomplete = SnapshotReader.latestScanId(db, ['incomplete'], scope);
  const what = `scan of ${describeScope(scope)}`;
  if (incomplete !== null) {
    throw new SnapshotError('ZW_SCAN_MISSING', `no complete ${what} in ${path}: use the latest incomplete one with --scan ${incomplete}, or run zonewarden scan again`);
  }
  const other = SnapshotReader.latestScanId(db, ['complete', 'incomplete']);
  throw new SnapshotError(
    'ZW_SCAN_MISSING',
    other === null
      ? `no finished scan in ${path}: run zonewarden scan${isFullScope(scope) ? '' : ` ${scopeFlags(scope)}`} first`
      : `no ${what} in ${path}: run zonewarden scan${isFullScope(scope) ? '' : ` ${scopeFlags(scope)}`}, or name a scan with --scan (zonewarden scans lists them; the latest is scan ${other})`,
  );
}

/** An existing database; `readonly` for commands that write nothing (they then work for users who may only read it). */
export function openExisting(path: string, options: { readonly?: boolean } = {}): Db {
  if (!existsSync(path)) throw new SnapshotError('ZW_DB_MISSING', `no database at ${path}: run zonewarden scan first, or point --db at one`);
  if (options.readonly) {
    const db = openSnapshot(path, { readonly: true });
    if (db.pragma('user_version', { simple: true }) === SCHEMA_VERSION) return db;
    // An older schema is brought up to date first, and that writes.
    db.close();
  }
  return openSnapshot(path);
}

export const auditCommand = defineCommand({
  name: 'audit',
  summary: 'evaluate the rules on a scan, store the findings with it and print them',
  description: `
Runs every enabled rule (zonewarden rules lists them) on a scan: by default the latest complete
scan of the scope (--account and --zone, else the config file's, else the whole organisation); a
scan of another scope, such as the rescan of a write command, only when named with --scan. Each check gives each zone or resource a verdict: fail, pass, unknown (the data it needs was
not read, so it is neither passed nor failed) or waived (a failure covered by a waiver that has
not expired). The findings are stored with the scan, replacing those of an earlier audit of it.

Only what may have changed is judged again: a zone in which the scans recorded no change since
the latest audit with the same rules (and version), settings, waivers and scope keeps that
audit's verdicts, without its checks running or its findings being stored again. Rules that use
the time (certificate expiry, ages of migrations and DNSSEC states) and organisation rules run on
everything every time. The findings are the same as those of a full audit; --no-reuse judges
every zone again.

Rules are configured in the config file's "rules" section, per rule id: "enabled", "severity"
(replaces the severity of every finding of the rule), "options", and "overrides": a list of
{zones, accounts, enabled, severity} that turn the rule on or off, or re-grade it, for zones
matching a name or glob or in an account (id, name or glob), later ones winning. --rules-dir
adds rules of your own (docs/custom-rules.md).

Waivers come from a YAML or JSON file: a list of {rule, zone and/or resource, reason, owner,
expires, and acknowledge when needed}; rule, zone and resource take names, ids or globs (* and
?). An expired waiver no longer applies and is listed, as are waivers ending within 14 days and
waivers that match nothing. A waiver ending more than --waiver-max-days ahead, or covering every
rule or every zone without acknowledge: [all-rules] or [all-zones], is refused. One matching a
critical failure without [critical], or more than --waiver-max-matches failures without [many],
leaves those failures failing and is named on stderr.

Exit 1: a failure (not waived) at or above --fail-on. Otherwise exit 3 when the scan is
incomplete or a rule could not run; else 0. Exit 2: a usage, configuration or database error.`,
  options: {
    scan: { type: 'integer', min: 1, value: 'ID', help: 'the scan to audit (default: the latest complete scan of the scope)' },
    format: {
      type: 'string',
      default: 'text',
      choices: ['text', 'json', 'ocsf', 'junit'],
      help: 'output: a table, JSON (schema zonewarden.audit/1), OCSF Compliance Findings as JSON lines (for a SIEM), or JUnit XML (for CI test reports)',
    },
    passes: { type: 'boolean', help: 'list passing verdicts too' },
    'no-reuse': { type: 'boolean', help: 'judge every zone again rather than keep the verdicts of zones unchanged since the last audit' },
    limit: { type: 'integer', default: 1000, min: 0, value: 'N', help: 'list at most N findings in the text table, worst first (0: all); JSON lists all' },
    ...commonOptions('failOn', 'waivers', 'waiverMaxDays', 'waiverMaxMatches', 'rulesDir', 'account', 'zone', 'db', 'config', 'quiet', 'verbose'),
  },
  examples: [
    'zonewarden audit',
    'zonewarden audit --fail-on high --waivers waivers.yaml',
    'zonewarden audit --scan 12 --format json > findings.json',
    'zonewarden audit --format ocsf > findings.ocsf.jsonl',
    'zonewarden audit --fail-on high --format junit > junit.xml',
  ],
  async run(o, io) {
    const config = configFrom(o, io);
    await loadRules(config, io.cwd);
    const rules = rulesFor(config);
    const waivers = config.waivers ? loadWaivers(resolve(io.cwd, config.waivers), [...catalogue().keys()], { maxDays: config.waiverMaxDays }) : [];
    const path = resolve(io.cwd, config.db);
    const db = openExisting(path);
    try {
      const reader = new SnapshotReader(db, chooseScan(db, path, o.scan, configScope(config)));
      // Streamed into the database by default; --passes needs every verdict, so that audit is held in memory.
      let result: AuditResult;
      let findings: () => Iterable<Finding>;
      // The JSON output of a stored audit comes out of SQLite already as JSON text.
      let findingsJson: () => Iterable<Finding | string>;
      if (o.passes) {
        const held = auditWithinLimits(waivers, config.waiverMaxMatches, (w) => runAudit(reader, rules, w, { keepPasses: true }));
        saveAudit(db, held);
        result = held;
        findings = findingsJson = () => held.findings;
      } else {
        result = auditWithinLimits(waivers, config.waiverMaxMatches, (w) => recordAudit(db, reader, rules, w, { reuse: o['no-reuse'] !== true }));
        if (config.verbose && result.reused) io.stderr(`kept the verdicts of ${result.reused.zones} unchanged zone(s) from the audit of scan ${result.reused.fromScan}\n`);
        findings = () => storedFindings(db, reader.scan.id);
        findingsJson = () => storedFindingsJson(db, reader.scan.id);
      }
      for (const line of heldWaiverWarnings(result.waivers, resolve(io.cwd, config.waivers ?? ''))) io.stderr(`${line}\n`);
      const failOn = config.failOn;
      const failing = failOn === 'none' ? 0 : result.failingAtOrAbove[failOn as Severity];
      const incomplete = result.scan.status !== 'complete' || result.errors.length > 0;
      const exitCode = failing ? EXIT.findings : incomplete ? EXIT.incomplete : EXIT.ok;
      if (o.format === 'json') writeAuditJson(result, findingsJson(), { failOn, exitCode }, io.stdout);
      else if (o.format === 'ocsf') writeOcsf(findings(), result.scan, catalogue(), io.stdout);
      else if (o.format === 'junit') {
        const ran = junitRules(result.rules.map((r) => ({ id: r.rule.meta.id, severity: r.severity })), catalogue());
        writeJunit({ scan: result.scan, zones: reader.zones(), rules: ran, findings: findings(), errors: result.errors }, io.stdout);
      } else {
        // Stored findings are the failing, unknown and waived ones; --passes lists the passes too.
        const { fail, unknown, waived, pass } = result.counts.byStatus;
        writeAuditText(result, findings, { failOn, limit: o.limit, total: fail + unknown + waived + (o.passes ? pass : 0) }, io.stdout);
      }
      if (!config.quiet && failing) io.stderr(`${failing} failing finding(s) at or above ${failOn}\n`);
      if (!config.quiet && result.scan.status !== 'complete') io.stderr(`scan ${result.scan.id} is ${result.scan.status}: checks of what it could not read are unknown\n`);
      return exitCode;
    } finally {
      db.close();
    }
  },
});
