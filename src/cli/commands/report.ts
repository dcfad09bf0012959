import { resolve } from 'node:path';
import { catalogue, loadRules, rulesFor } from '../../policy/catalogue.js';
import { complianceFilter } from '../../audit/compliance-filter.js';
import { REPORT_FORMATS, writeReport, type ReportFormat } from '../../report/write-report.js';
import { loadTemplates } from '../../report/templates.js';
import { EXIT, UsageError } from '../../common/errors.js';
import { defineCommand, type OptionTable } from '../command.js';
import { closing, commonOptions, configFrom, configScope, trendScope, viewOptions } from '../common.js';
import { openExisting } from './audit.js';
import { scanForView, scanOfNamedAudit } from '../../snapshot/scan-choice.js';
import { officialAuditId } from '../../audit/audit-identity.js';
import { auditForPasses, auditThenReport, checkSameJudgement } from '../../audit/pass-verdicts.js';
import type { ActiveRule } from '../../policy/registry.js';
import { auditHeader } from '../../audit/store.js';
import type { Db } from '../../snapshot/db.js';

/**
 * The audit whose passes `report --passes` lists: the one named, else the scan's official audit if
 * it was judged with the current rule settings, else a trial that was (auditForPasses; `note`
 * says so). Refused, before anything is written, when the rules would judge otherwise than that
 * audit did: the error names an audit of the scan that was judged with them, or how to make one.
 */
function auditOfPasses(db: Db, scanId: number, named: number | undefined, rules: readonly ActiveRule[], note: (line: string) => void): number | undefined {
  const official = officialAuditId(db, scanId);
  const judged = auditForPasses(db, scanId, rules);
  if (named === undefined && judged !== null && judged !== official) {
    note(`--passes: the official audit of scan ${scanId} (audit ${official}) was judged with other rule settings; reporting audit ${judged}, judged with these`);
    return judged;
  }
  const chosen = named ?? official;
  const header = chosen === null ? null : auditHeader(db, chosen);
  // No audit: reportData refuses, naming the fix.
  if (header === null) return named;
  const fix = judged !== null && judged !== chosen ? `audit ${judged} of scan ${scanId} was judged with these settings: zonewarden report --audit ${judged} --passes` : auditThenReport(scanId);
  checkSameJudgement(header, rules, fix);
  return named;
}

export function parseFormats(text: string): ReportFormat[] {
  const formats = [...new Set(text.split(',').map((f) => f.trim().toLowerCase()).filter(Boolean))];
  const unknown = formats.filter((f) => !(REPORT_FORMATS as readonly string[]).includes(f));
  if (unknown.length || formats.length === 0) {
    throw new UsageError(`--format takes a comma-separated list of ${REPORT_FORMATS.join(', ')}; got "${text.slice(0, 60)}"`);
  }
  return formats as ReportFormat[];
}

/** The options of the reports, which `run` takes too. */
export const REPORT_OPTIONS = {
  out: { type: 'string', default: 'reports', value: 'DIR', help: 'where to write the reports' },
  format: { type: 'string', default: 'html,md,json,csv', value: 'LIST', help: 'which reports, comma-separated: html, md, json, csv, ocsf (OCSF Compliance Findings, JSON lines), junit (JUnit XML)' },
  templates: { type: 'string', value: 'DIR', help: 'a directory of templates that replace the built-in ones by name' },
} as const satisfies OptionTable;

export const reportCommand = defineCommand({
  name: 'report',
  summary: 'write the reports of an audited scan (HTML, Markdown, JSON, CSV; OCSF and JUnit on request) and the index of all runs',
  description: `
Writes the reports of a scan's official audit (default: the latest complete scan of the whole
organisation; it must have been audited) into <out>/<scan time>-scan-<id>/: report.html (self-contained, works offline from file://: the scope
the scan covered; a first screen with the pass rate and failures by severity, better or worse
than the previous audited scan, what changed since it, the worst zones by risk (each failing rule
once per zone, by its worst severity: critical 10, high 5, medium 2, low 1, info 0) and the fixes
to make first (most severe, then widest reach); every finding grouped by rule or by zone, in
collapsed groups with an anchor each (#rule-..., #zone-...), or in one table, with filters and a
search that also matches the rules' compliance controls, since when each fails and what to do;
new and fixed findings, zones by risk, pass rates, certificate expiry and failure trend charts,
configuration drift grouped by zone and resource type, scan health, waivers; API text shows
bidirectional and invisible characters as escapes), report.md (a digest under 60,000 characters
for pull requests and chat, with the worst zones and the fixes in the same order), findings.json
(schema zonewarden.audit/1, docs/audit-json.md) and findings.csv (one row per finding); on request
findings.ocsf.jsonl (OCSF 1.3.0 Compliance Findings, for SIEMs and security lakes) and junit.xml
(a test case per rule and zone, for CI test reports; docs/formats.md). Then refreshes
<out>/index.html, the list of all audited runs with the failure trend of the scope's scans (scans
of other scopes are listed apart). Every report states the scope its scan covered.

When the scan read the vendor's own scanner (Security Insights; permission Account · Security
Center Insights · Read), report.html, report.md and findings.json set its open insights beside
zonewarden's verdicts on the same zone and resource: where they agree, where the vendor flags what
zonewarden passes and why (a managed ruleset deployed at the account level, which the vendor's
scanner does not see; a change after the vendor's last scan), and where zonewarden fails what the
vendor does not flag (a managed ruleset in log mode); insights no rule judges are listed apart.
The CSV format also writes vendor-insights.csv (docs/from-vendor-insights.md, docs/reports.md).

--audit ID reports another audit of a scan, such as a trial made with other waivers (zonewarden
scans lists each scan's audits), into <scan time>-scan-<id>-audit-<ID>/; the official audit's
report is left as it is. --zone and --account (else the config file's) report only those zones and
accounts: their findings, counts, drift, charts and scan health, into a directory named after them
(…-scan-<id>-zone-<name>/). --zone takes zone names, ids or globs (* and ?), --account account
ids, names or globs; both: those zones within those accounts. Without --scan the scan is the
newest complete one holding them: the whole organisation's, or a newer scan of just those zones.
A name that matches nothing in the scan is an error naming the closest names.

--passes adds the passing verdicts to findings.csv and findings.ocsf.jsonl (compliance status
Pass): evidence, resource by resource, that a check passed. An audit stores passes as counts
only, so they are judged again: the rules run on the stored scan with the config's rule settings,
which must be those the audit was judged with (and the same zonewarden version). Without --audit,
that is the scan's official audit, or else a trial audit of the scan judged with those settings
(a note says which); with none, and whenever the passes found differ from the audit's count, the
report is refused with the fix: audit the scan with those settings, then report again.

--framework pci|nist and --control ID (e.g. "PCI DSS 4.2.1", SC-8; zonewarden rules shows each
rule's controls) narrow every report to the findings and counts of the rules mapped to them, into
a directory named after them (…-scan-<id>-framework-pci/, …-control-pci-4.2.1/) that index.html
does not link; each report's scope line says what it is narrowed to. A framework and controls
that select no rule together are refused. Each rule's controls show in report.md (a table by
control), findings.csv (controls column), findings.json (rules[].controls), OCSF
(compliance.standards, compliance.requirements) and junit.xml (suite properties). junit.xml counts test cases, a rule on one zone, not findings; it
states the audit's counts of findings beside its own.

--templates DIR replaces any of the templates (report.html.hbs, report.md.hbs, index.html.hbs,
partials/*.hbs, report.js) with files of the same name.

Exit 3 when the scan is incomplete; else 0. Exit 2: a usage, template or database error.`,
  options: {
    scan: { type: 'integer', min: 1, value: 'ID', help: 'the scan to report (default: the latest complete scan holding --zone and --account, else of the whole organisation)' },
    audit: { type: 'integer', min: 1, value: 'ID', help: "the audit to report, such as a trial (default: the scan's official audit); names its scan" },
    ...REPORT_OPTIONS,
    passes: { type: 'boolean', help: 'list passing verdicts too in findings.csv and findings.ocsf.jsonl, judged again on the stored scan with the settings of the audit reported (see above)' },
    framework: { type: 'list', value: 'NAME', help: 'only the findings of rules mapped to this framework: pci (PCI DSS 4.0) or nist (NIST SP 800-53 r5); repeatable' },
    control: { type: 'list', value: 'ID', help: 'only the findings of rules mapped to this control, e.g. "PCI DSS 4.2.1" or SC-8; repeatable' },
    ...commonOptions('rulesDir', 'db', 'config', 'quiet', 'verbose'),
    ...viewOptions(),
  },
  examples: [
    'zonewarden report',
    'zonewarden report --scan 12 --format md --out /tmp/reports',
    'zonewarden report --templates ./my-templates',
    'zonewarden report --zone shop.example.com --format html,md',
    'zonewarden report --audit 12',
    'zonewarden report --framework pci --passes --format csv,ocsf,md',
  ],
  async run(o, io) {
    const formats = parseFormats(o.format);
    const config = configFrom(o, io);
    // The report names each rule's category and remediation: custom rules' too.
    await loadRules(config, io.cwd, (line) => io.stderr(`${line}\n`));
    const compliance = complianceFilter({ frameworks: o.framework, controls: o.control }, catalogue());
    const templatesDir = o.templates === undefined ? undefined : resolve(io.cwd, o.templates);
    const templates = loadTemplates(templatesDir === undefined ? {} : { overrideDir: templatesDir });
    const path = resolve(io.cwd, config.db);
    return closing(openExisting(path, { readonly: true }), async (db) => {
      const filter = configScope(config);
      const scanId = o.audit === undefined ? scanForView(db, path, o.scan, filter) : scanOfNamedAudit(db, o.audit, o.scan);
      const passes = o.passes ? rulesFor(config) : undefined;
      const note = (line: string) => {
        if (!config.quiet) io.stderr(`${line}\n`);
      };
      const auditId = passes ? auditOfPasses(db, scanId, o.audit, passes, note) : o.audit;
      const named = auditId === undefined ? {} : { auditId };
      const written = await writeReport(db, scanId, { ...named, view: filter, out: resolve(io.cwd, o.out), formats, templates, trendScope: trendScope(o, io), compliance, ...(passes ? { passes } : {}), ...(templatesDir === undefined ? {} : { templatesDir }) });
      const trial = auditId === undefined ? null : auditHeader(db, auditId)?.trial ?? null;
      if (trial !== null) note(`audit ${auditId} of scan ${scanId} is a trial (${trial}): its reports are apart from the official audit's`);
      for (const file of written.files) io.stdout(`${file}\n`);
      io.stdout(`${written.index}\n`);
      if (written.incomplete && !config.quiet) io.stderr(`scan ${scanId} is incomplete: its report says what could not be read\n`);
      return written.incomplete ? EXIT.incomplete : EXIT.ok;
    });
  },
});
