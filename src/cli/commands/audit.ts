import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { catalogue, loadRules, rulesFor } from '../../policy/catalogue.js';
import { recordAudit, runAudit, type AuditResult } from '../../audit/audit.js';
import { complianceFilter, keptFindings, keptFindingsJson, narrowAudit } from '../../audit/compliance-filter.js';
import type { Finding } from '../../policy/findings.js';
import type { Severity } from '../../policy/rule.js';
import { auditFindings, auditFindingsJson, auditHeader, saveAudit } from '../../audit/store.js';
import { demotionNote, trialNote, type AuditIdentity, type StoredAs } from '../../audit/audit-identity.js';
import { auditView, failingAtOrAbove } from '../../audit/audit-view.js';
import { sideBySideOf } from '../../report/vendor-insights-data.js';
import { judgementOf } from '../../policy/judgement.js';
import { inFilter, resolveFilter } from '../../snapshot/scan-filter.js';
import { scanForView } from '../../snapshot/scan-choice.js';
import { auditWithinLimits, heldWaiverWarnings, loadWaivers } from '../../policy/waivers.js';
import { EXIT } from '../../common/errors.js';
import { openSnapshot, SnapshotError, type Db } from '../../snapshot/db.js';
import { SCHEMA_VERSION } from '../../snapshot/migrations.js';
import { SnapshotReader } from '../../snapshot/reader.js';
import { defineCommand } from '../command.js';
import { closing, commonOptions, configFrom, configScope, viewOptions } from '../common.js';
import { writeAuditJson } from '../../report/findings-json.js';
import { junitRules, writeJunit } from '../../report/junit.js';
import { writeOcsf } from '../../report/ocsf.js';
import { writeAuditText } from '../output/audit-text.js';

/** An existing database; `readonly` for commands that write nothing (they then work for users who may only read it). */
export function openExisting(path: string, options: { readonly?: boolean } = {}): Db {
  if (!existsSync(path)) throw new SnapshotError('ZW_DB_MISSING', `no database at ${path}: run zonewarden scan first, or point --db at one`);
  if (options.readonly) {
    const db = openSnapshot(path, { readonly: true });
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version === SCHEMA_VERSION) return db;
    // An older schema is brought up to date first, and that writes: a user who may only read is
    // told so, since a read command works for them on a database already up to date.
    db.close();
    try {
      return openSnapshot(path);
    } catch (err) {
      if (!(err instanceof SnapshotError) || err.code !== 'ZW_DB_NOT_WRITABLE') throw err;
      throw new SnapshotError(
        err.code,
        `${path} was written by an earlier zonewarden (schema ${version}; this one reads ${SCHEMA_VERSION}) and must be brought up to date first, which writes to it: ${err.message.replace(/( is not writable by user [^:]+):.*$/, '$1')}; run any command that writes (zonewarden audit) once as the database's owner, then read it as any user`,
      );
    }
  }
  return openSnapshot(path);
}

export const auditCommand = defineCommand({
  name: 'audit',
  summary: 'evaluate the rules on a scan, store the findings with it and print them',
  description: `
Runs every enabled rule (zonewarden rules lists them) on a scan: by default the latest complete
scan of the whole organisation; --scan names another. Each check gives each zone or resource a
verdict: fail, pass, unknown (the data it needs was not read, so it is neither passed nor failed)
or waived (a failure covered by a waiver that has not expired).

--zone and --account (else the config file's) show only the findings of those zones and accounts,
with their counts, and set the exit code from those alone; they pick findings out of the scan, as
they are, whatever scope it had (on scan they limit what is read). --zone takes zone names, ids
or globs (* and ?), --account account ids, names or globs, each repeatable or comma-separated;
both: those zones within those accounts. Without --scan the scan is the newest complete one
holding them: the whole organisation's, or a newer scan of just those zones. A name that matches
nothing in the scan is an error naming the closest names. The audit stored is still the whole one.

The audit is stored with the scan. A scan's first audit, and the one the nightly job (run,
schedule) makes, is its official audit: reports, diff, notifications and zonewarden scans use it.
Auditing again with the same rules, settings, waivers and zonewarden version refreshes that audit.
An audit with other rules, settings or waivers is a trial: its results are printed and stored as
an audit of its own (a note on stderr gives its id, as does "audit" in --format json; report
--audit ID and diff --to-audit ID show it), and the official audit stays as it was. --official
makes this audit the scan's official one instead (the one it replaces stays, as a trial, and a
note on stderr names it).

Every audit judges every zone with every rule. --no-reuse is still accepted, and does nothing
(audits kept earlier verdicts of unchanged zones before zonewarden judged every zone every time).

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

--framework pci|nist and --control ID (e.g. "PCI DSS 4.2.1", SC-8; zonewarden rules shows each
rule's controls) show only the findings of the rules mapped to them, with their counts, and set
the exit code from those alone; the audit stored with the scan is still the whole one. A
framework and controls that select no rule together are refused.

--passes lists the passing verdicts too (each a Compliance Finding with compliance status Pass in
--format ocsf): the evidence, resource by resource, that a check passed. --format junit counts
test cases, a rule on one zone, not findings: a zone with three failing records of a rule is one
failing case; the XML states the audit's counts beside its own (a comment, and each suite's
properties).

Exit 1: a failure (not waived) at or above --fail-on. Otherwise exit 3 when the scan is
incomplete or a rule could not run; else 0. Exit 2: a usage, configuration or database error.`,
  options: {
    scan: { type: 'integer', min: 1, value: 'ID', help: 'the scan to audit (default: the latest complete scan holding --zone and --account, else of the whole organisation)' },
    official: { type: 'boolean', help: "store this audit as the scan's official one even when its rules, settings or waivers differ from the official audit's (which stays, as a trial)" },
    format: {
      type: 'string',
      default: 'text',
      choices: ['text', 'json', 'ocsf', 'junit'],
      help: "output: a table, JSON (schema zonewarden.audit/1, with the stored audit's id and whether it is a trial), OCSF Compliance Findings as JSON lines (for a SIEM), or JUnit XML (for CI test reports)",
    },
    passes: { type: 'boolean', help: 'list passing verdicts too (text, JSON, and OCSF with compliance status Pass): evidence that a check passed' },
    framework: { type: 'list', value: 'NAME', help: 'only the findings of rules mapped to this framework: pci (PCI DSS 4.0) or nist (NIST SP 800-53 r5); repeatable' },
    control: { type: 'list', value: 'ID', help: 'only the findings of rules mapped to this control, e.g. "PCI DSS 4.2.1" or SC-8 (zonewarden rules shows them); repeatable' },
    'no-reuse': { type: 'boolean', help: 'does nothing: every audit judges every zone (accepted for scripts written when audits kept earlier verdicts)' },
    limit: { type: 'integer', default: 1000, min: 0, value: 'N', help: 'list at most N findings in the text table, worst first (0: all); JSON lists all' },
    ...commonOptions('failOn', 'waivers', 'waiverMaxDays', 'waiverMaxMatches', 'rulesDir', 'db', 'config', 'quiet', 'verbose'),
    ...viewOptions(),
  },
  examples: [
    'zonewarden audit',
    'zonewarden audit --zone shop.example.com --fail-on high',
    'zonewarden audit --scan 6 --account "Contoso Ltd" --format json',
    'zonewarden audit --waivers trial-waivers.yaml',
    'zonewarden audit --fail-on high --waivers waivers.yaml',
    'zonewarden audit --scan 12 --format json > findings.json',
    'zonewarden audit --format ocsf > findings.ocsf.jsonl',
    'zonewarden audit --framework pci --passes --format ocsf > pci-evidence.ocsf.jsonl',
    'zonewarden audit --control "PCI DSS 4.2.1" --fail-on medium',
    'zonewarden audit --fail-on high --format junit > junit.xml',
  ],
  async run(o, io) {
    const config = configFrom(o, io);
    // Scripts written when audits kept earlier verdicts pass it: it still parses, and says why it does nothing.
    if (o['no-reuse']) io.stderr('--no-reuse does nothing: every audit now judges every zone\n');
    await loadRules(config, io.cwd, (line) => io.stderr(`${line}\n`));
    const rules = rulesFor(config);
    // Checked before the audit runs: a mistyped control is a usage error, not an empty result.
    const compliance = complianceFilter({ frameworks: o.framework, controls: o.control }, catalogue());
    const waivers = config.waivers ? loadWaivers(resolve(io.cwd, config.waivers), [...catalogue().keys()], { maxDays: config.waiverMaxDays }) : [];
    const path = resolve(io.cwd, config.db);
    return closing(openExisting(path), (db) => {
      const filter = configScope(config);
      const reader = new SnapshotReader(db, scanForView(db, path, o.scan, filter));
      // A mistyped --zone stops here, before anything is judged or stored.
      const view = resolveFilter([reader], filter);
      // Same judgement as the scan's stored audit: it is refreshed; another: a trial beside it (audit-identity.ts).
      const identity: AuditIdentity = { judgement: judgementOf(rules, waivers, config.waiverMaxMatches), madeBy: 'audit', official: o.official };
      // Streamed into the database by default; --passes needs every verdict, so that audit is kept in memory.
      let result: AuditResult;
      let stored: StoredAs;
      let findings: () => Iterable<Finding>;
      // The JSON output of a stored audit comes out of SQLite already as JSON text.
      let findingsJson: () => Iterable<Finding | string>;
      if (o.passes) {
        const inMemory = auditWithinLimits(waivers, config.waiverMaxMatches, (w) => runAudit(reader, rules, w, { keepPasses: true }));
        stored = saveAudit(db, inMemory, new Date(), identity);
        result = inMemory;
        findings = findingsJson = () => (view ? inMemory.findings.filter((f) => inFilter(view, f.zone?.id ?? null, f.account?.id ?? null)) : inMemory.findings);
      } else {
        result = auditWithinLimits(waivers, config.waiverMaxMatches, (w) => recordAudit(db, reader, rules, w, { identity }));
        stored = result.stored!;
        const { auditId } = stored;
        findings = () => auditFindings(db, auditId);
        findingsJson = () => auditFindingsJson(db, auditId);
      }
      for (const note of [trialNote(stored), demotionNote(stored)]) if (note && !config.quiet) io.stderr(`${note}\n`);
      if (view) {
        // What is shown, counted and exited on: the view's zones and accounts only.
        const narrowed = auditView(db, auditHeader(db, stored.auditId)!, reader, view);
        result = { ...result, counts: narrowed.header.counts, errors: narrowed.header.errors, zones: view.zones.length, failingAtOrAbove: failingAtOrAbove(narrowed.header.counts) };
        if (!o.passes) {
          findings = narrowed.findings;
          findingsJson = narrowed.findingsJson;
        }
        if (!config.quiet) io.stderr(`showing ${view.description} of scan ${reader.scan.id} (${view.zones.length} zone${view.zones.length === 1 ? '' : 's'})\n`);
      }
      if (compliance) {
        // What is shown, counted and exited on: the kept rules' findings only.
        result = narrowAudit(result, compliance, findings());
        const all = findings;
        const allJson = findingsJson;
        findings = () => keptFindings(all(), compliance);
        findingsJson = () => keptFindingsJson(allJson(), compliance);
        if (!config.quiet) io.stderr(`showing the findings of the ${result.rules.length} rule(s) mapped to ${compliance.description}\n`);
      }
      for (const line of heldWaiverWarnings(result.waivers, resolve(io.cwd, config.waivers ?? ''))) io.stderr(`${line}\n`);
      const failOn = config.failOn;
      const failing = failOn === 'none' ? 0 : result.failingAtOrAbove[failOn as Severity];
      const incomplete = result.scan.status !== 'complete' || result.errors.length > 0;
      const exitCode = failing ? EXIT.findings : incomplete ? EXIT.incomplete : EXIT.ok;
      if (o.format === 'json') {
        // The vendor's own scanner side by side with this audit, for the zones shown (none when the scan did not read it).
        const header = auditHeader(db, stored.auditId)!;
        const vendorInsights = sideBySideOf(db, reader, { audit: header, view: auditView(db, header, reader, view ?? null) });
        writeAuditJson(result, findingsJson(), { failOn, exitCode, audit: stored, vendorInsights }, io.stdout);
      }
      else if (o.format === 'ocsf') writeOcsf(findings(), result.scan, catalogue(), io.stdout);
      else if (o.format === 'junit') {
        const ran = junitRules(result.rules.map((r) => ({ id: r.rule.meta.id, severity: r.severity })), catalogue());
        writeJunit({ scan: result.scan, zones: view ? view.zones : reader.zones(), rules: ran, findings: findings(), errors: result.errors }, io.stdout);
      } else {
        // Stored findings are the failing, unknown and waived ones; --passes lists the passes too.
        const { fail, unknown, waived, pass } = result.counts.byStatus;
        writeAuditText(result, findings, { failOn, limit: o.limit, total: fail + unknown + waived + (o.passes ? pass : 0) }, io.stdout);
      }
      if (!config.quiet && failing) io.stderr(`${failing} failing finding(s) at or above ${failOn}\n`);
      if (!config.quiet && result.scan.status !== 'complete') io.stderr(`scan ${result.scan.id} is ${result.scan.status}: checks of what it could not read are unknown\n`);
      return exitCode;
    });
  },
});
