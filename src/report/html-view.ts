import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { label } from '../drift/words.js';
import { kindOfEndpoint } from '../drift/resources.js';
import { resourceText } from '../policy/findings.js';
import { SEVERITIES } from '../policy/rule.js';
import { PACKAGE } from '../common/package-info.js';
import { printable } from '../common/printable.js';
import type { Endpoint } from '../snapshot/tables.js';
import { CHART, type expiryTimeline, type failureTrend } from './charts.js';
import { driftGroups, type DriftGroup } from './drift-groups.js';
import type { FindingsTable } from './findings-table.js';
import { failingRemediations } from './remediation.js';
import type { ReportData } from './report-data.js';
import { PACKAGE_TEMPLATES, TemplateError } from './templates.js';
import { zoneSettingLines } from './zone-settings.js';

/**
 * The HTML report's view: everything the template lays out, plus the findings as compact rows for
 * the page's script (templates/report.js), which filters, sorts and pages them in the browser.
 * Strings here are plain text: Handlebars escapes them, and the script sets them as textContent.
 * Every string from the API is shown with its bidirectional and invisible characters as visible
 * escapes (as the command line shows them): an override would otherwise reverse the text after
 * it, and a domain would read as another one.
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


/** Every string in `value` as the page shows it. */
function visible<T>(value: T): T {
  if (typeof value === 'string') return printable(value) as T;
  if (Array.isArray(value)) return value.map(visible) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visible(v)])) as T;
  return value;
}

/**
 * A link that selects a zone in the findings table: its id is one value of the page's hash, which
 * the page script decodes with decodeURIComponent, so `&`, `#`, `=` and quotes in an id stay its own.
 */
export const zoneHref = (id: string) => `#zone=${encodeURIComponent(id)}`;

/** A category's pass rate: passing checks of those decided (pass or fail), null when none was. */
const passRate = (c: { pass: number; fail: number }) => (c.pass + c.fail > 0 ? Math.floor((c.pass / (c.pass + c.fail)) * 1000) / 10 : null);

/** Drift groups shown before the rest are folded into one "more groups" line. */
const FIRST_GROUPS = 10;

function groupList(groups: DriftGroup[], total: number) {
  const rest = groups.slice(FIRST_GROUPS, LIST_LIMIT);
  return {
    total,
    items: groups.slice(0, FIRST_GROUPS),
    rest,
    restChanges: rest.reduce((n, g) => n + g.total, 0),
    more: Math.max(0, groups.length - LIST_LIMIT),
  };
}

const capped = <T, U>(items: readonly T[], map: (t: T) => U) => ({ items: items.slice(0, LIST_LIMIT).map(map), more: Math.max(0, items.length - LIST_LIMIT) });

type Charts = { timeline: ReturnType<typeof expiryTimeline>; trend: ReturnType<typeof failureTrend> };

export function htmlView(data: ReportData, table: FindingsTable, charts: Charts, script: { text: string; csp: string }) {
  return {
    csp: script.csp,
    script: script.text,
    // Gzip and base64 (which the page script inflates): the JSON of 100,000 findings is 35 MB, this about 3.
    findingsBlob: table.blob,
    ...visible(shownView(data, table, charts)),
  };
}

/** What the page shows as text: every string of it passes through visible(). */
function shownView(data: ReportData, table: FindingsTable, charts: Charts) {
  const { audit, scan, drift, health } = data;
  const moved = drift?.findings.changes ?? [];
  return {
    toolVersion: PACKAGE.version,
    scan: { id: scan.id, startedAt: scan.startedAt, finishedAt: scan.finishedAt ?? '', status: scan.status },
    scope: data.scope,
    freshness: data.freshness,
    counts: audit.counts.byStatus,
    bySeverity: SEVERITIES.map((severity) => ({ severity, count: audit.counts.failBySeverity[severity] })),
    categories: data.categories.map((c) => ({ ...c, passRate: passRate(c) })),
    remediations: failingRemediations(audit.counts.byRule),
    // The zones with most failures; the findings table's zone filter reaches every zone.
    zones: capped(
      [...table.zones].sort((a, b) => b.total - a.total || a.name.localeCompare(b.name)),
      (z) => {
        // Audits stored before zonewarden counted passes per zone have no rate to show.
        const checks = audit.counts.byZone?.[z.id];
        return { ...z, href: zoneHref(z.id), bySeverity: SEVERITIES.map((s) => z.counts[s]), passRate: checks ? passRate(checks) : null };
      },
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
      changes: groupList(driftGroups(drift.configuration.changes), drift.configuration.changes.length),
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
  };
}
