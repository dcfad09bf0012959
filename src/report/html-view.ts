import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { label } from '../drift/words.js';
import { kindOfEndpoint } from '../drift/resources.js';
import { resourceText } from '../policy/findings.js';
import { SEVERITIES } from '../policy/rule.js';
import { PACKAGE } from '../shared/package-info.js';
import { shorten } from '../shared/printable.js';
import type { Endpoint } from '../snapshot/tables.js';
import { CHART, type expiryTimeline, type failureTrend } from './charts.js';
import type { FindingsTable } from './findings-table.js';
import { failingRemediations } from './remediation.js';
import type { ReportData } from './report-data.js';
import { PACKAGE_TEMPLATES, TemplateError } from './templates.js';
import { zoneSettingLines } from './zone-settings.js';

/**
 * The HTML report's view: everything the template lays out, plus the findings as compact rows for
 * the page's script (templates/report.js), which filters, sorts and pages them in the browser.
 * Strings here are plain text: Handlebars escapes them, and the script sets them as textContent.
 */

/** Lists shown in full in the page before "and N more". */
const LIST_LIMIT = 200;

/** The page script (report.js of --templates, else the package's) and its Content-Security-Policy: only this exact script may run. */
export function pageScript(overrideDir?: string): { text: string; csp: string } {
  const dir = overrideDir !== undefined && existsSync(join(overrideDir, 'report.js')) ? overrideDir : PACKAGE_TEMPLATES;
  const text = readFileSync(join(dir, 'report.js'), 'utf8');
  // It is inlined raw into a <script> element, which this would end early.
  if (/<\/script/i.test(text)) throw new TemplateError(`${join(dir, 'report.js')}: the page script must not contain "</script"`);
  const hash = createHash('sha256').update(text).digest('base64');
  return { text, csp: `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'` };
}


const capped = <T, U>(items: readonly T[], map: (t: T) => U) => ({ items: items.slice(0, LIST_LIMIT).map(map), more: Math.max(0, items.length - LIST_LIMIT) });

export function htmlView(
  data: ReportData,
  table: FindingsTable,
  charts: { timeline: ReturnType<typeof expiryTimeline>; trend: ReturnType<typeof failureTrend> },
  script: { text: string; csp: string },
) {
  const { audit, scan, drift, health } = data;
  const moved = drift?.findings.changes ?? [];
  return {
    csp: script.csp,
    script: script.text,
    toolVersion: PACKAGE.version,
    scan: { id: scan.id, startedAt: scan.startedAt, finishedAt: scan.finishedAt ?? '', status: scan.status },
    scope: data.scope,
    counts: audit.counts.byStatus,
    bySeverity: SEVERITIES.map((severity) => ({ severity, count: audit.counts.failBySeverity[severity] })),
    categories: data.categories,
    remediations: failingRemediations(audit.counts.byRule),
    // The zones with most failures; the findings table's zone filter reaches every zone.
    zones: capped(
      [...table.zones].sort((a, b) => b.total - a.total || a.name.localeCompare(b.name)),
      (z) => ({ ...z, bySeverity: SEVERITIES.map((s) => z.counts[s]) }),
    ),
    severities: SEVERITIES,
    drift: drift && {
      from: drift.from.id,
      counts: drift.findings.counts,
      newFindings: capped(
        moved.filter((c) => c.change === 'new' || c.change === 'unwaived'),
        (c) => ({ severity: c.severity, rule: c.rule, zone: c.zone?.name ?? '', resource: resourceText(c.resource, label), message: c.message }),
      ),
      fixed: capped(
        moved.filter((c) => c.change === 'fixed'),
        (c) => ({ severity: c.severity, rule: c.rule, zone: c.zone?.name ?? '', resource: resourceText(c.resource, label), message: c.message }),
      ),
      configuration: Object.entries(drift.configuration.counts)
        .map(([type, c]) => ({ type: label(type), ...c }))
        .sort((a, b) => a.type.localeCompare(b.type)),
      changes: capped(drift.configuration.changes, (c) => ({
        change: c.change,
        what: `${label(c.type)} ${c.name ?? c.id}`,
        zone: c.zone?.name ?? '',
        fields: (c.fields ?? []).map((f) => ({ field: f.field, before: f.before === undefined ? '(absent)' : shorten(JSON.stringify(f.before), 120), after: f.after === undefined ? '(absent)' : shorten(JSON.stringify(f.after), 120) })),
      })),
      unknown: drift.configuration.unknown.length,
    },
    health: {
      complete: health.complete,
      unread: capped(health.unread, (u) => ({ where: u.zone?.name ?? (u.scope || 'user'), what: kindOfEndpoint(u.endpoint as Endpoint)?.label ?? u.endpoint, state: u.state, reason: u.reason })),
      retired: health.retired.map((r) => ({ ...r, what: kindOfEndpoint(r.endpoint as Endpoint)?.label ?? r.endpoint })),
      ruleErrors: health.ruleErrors.map((e) => ({ rule: e.rule, zone: e.zone?.name ?? '', message: e.message })),
    },
    waivers: {
      active: audit.waivers.active,
      expiring: audit.waivers.expiring,
      expired: audit.waivers.expired,
    },
    zoneSettings: zoneSettingLines(audit),
    chart: CHART,
    timeline: charts.timeline,
    trend: charts.trend,
    // Gzip and base64 (which the page script inflates): the JSON of 100,000 findings is 35 MB, this about 3.
    findingsBlob: table.blob,
  };
}
