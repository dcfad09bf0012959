import { resolve } from 'node:path';
import { loadRules } from '../../policy/catalogue.js';
import { REPORT_FORMATS, writeReport, type ReportFormat } from '../../report/write-report.js';
import { loadTemplates } from '../../report/templates.js';
import { EXIT, UsageError } from '../../common/errors.js';
import { defineCommand, type OptionTable } from '../command.js';
import { commonOptions, configFrom, configScope, trendScope } from '../common.js';
import { chooseScan, openExisting } from './audit.js';

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
Writes the reports of a scan (default: the latest complete scan of the scope, --account and
--zone, else the config file's, else the whole organisation; it must have been audited) into
<out>/<scan time>-scan-<id>/: report.html (self-contained, works offline from file://: the scope
the scan covered, summary with pass rates, new and fixed since the previous audited scan, every
finding with its account, since when it fails and what to do, with filters, search, sorting and
paging, zones, certificate expiry and failure trend charts, configuration drift grouped by zone
and resource type, scan health, waivers; API text shows bidirectional and invisible characters as
escapes), report.md (a digest under 60,000 characters for pull requests and chat), findings.json
(schema zonewarden.audit/1, docs/audit-json.md) and findings.csv (one row per finding); on request
findings.ocsf.jsonl (OCSF 1.3.0 Compliance Findings, for SIEMs and security lakes) and junit.xml
(a test case per rule and zone, for CI test reports; docs/formats.md). Then refreshes
<out>/index.html, the list of all audited runs with the failure trend of the scope's scans (scans
of other scopes are listed apart). Every report states the scope its scan covered.

--templates DIR replaces any of the templates (report.html.hbs, report.md.hbs, index.html.hbs,
partials/*.hbs, report.js) with files of the same name.

Exit 3 when the scan is incomplete; else 0. Exit 2: a usage, template or database error.`,
  options: {
    scan: { type: 'integer', min: 1, value: 'ID', help: 'the scan to report (default: the latest complete scan of the scope)' },
    ...REPORT_OPTIONS,
    ...commonOptions('rulesDir', 'account', 'zone', 'db', 'config', 'quiet', 'verbose'),
  },
  examples: ['zonewarden report', 'zonewarden report --scan 12 --format md --out /tmp/reports', 'zonewarden report --templates ./my-templates'],
  async run(o, io) {
    const formats = parseFormats(o.format);
    const config = configFrom(o, io);
    // The report names each rule's category and remediation: custom rules' too.
    await loadRules(config, io.cwd);
    const templatesDir = o.templates === undefined ? undefined : resolve(io.cwd, o.templates);
    const templates = loadTemplates(templatesDir === undefined ? {} : { overrideDir: templatesDir });
    const path = resolve(io.cwd, config.db);
    const db = openExisting(path, { readonly: true });
    try {
      const scope = configScope(config);
      const scanId = chooseScan(db, path, o.scan, scope);
      const written = await writeReport(db, scanId, { out: resolve(io.cwd, o.out), formats, templates, trendScope: trendScope(o, io), ...(templatesDir === undefined ? {} : { templatesDir }) });
      for (const file of written.files) io.stdout(`${file}\n`);
      io.stdout(`${written.index}\n`);
      if (written.incomplete && !config.quiet) io.stderr(`scan ${scanId} is incomplete: its report says what could not be read\n`);
      return written.incomplete ? EXIT.incomplete : EXIT.ok;
    } finally {
      db.close();
    }
  },
});
