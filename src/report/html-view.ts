import { createHash } from 'node:crypto';
import type { SideBySide } from './vendor-insights.js';
import { vendorSection } from './vendor-insights-view.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configurationRows, label, partitionLabel } from '../drift/words.js';
import { resourceText } from '../policy/findings.js';
import { SEVERITIES } from '../policy/rule.js';
import { PACKAGE } from '../common/package-info.js';
import { printable } from '../common/printable.js';
import { CHART, SPARK, type expiryTimeline, type failureTrend } from './charts.js';
import { driftGroups, type DriftGroup } from './drift-groups.js';
import { findingGroups, ruleAnchor, zoneAnchor } from './finding-groups.js';
import type { FindingsTable } from './findings-table.js';
import { glanceView } from './glance.js';
import type { GroupRows } from './group-rows.js';
import { passRate, posture, type PostureCounts } from './posture.js';
import { fixesInOrder } from './remediation.js';
import type { ReportData } from './report-data.js';
import { RISK_WEIGHTS_TEXT, riskReason, type ReportRisk } from './risk.js';
import { PACKAGE_TEMPLATES, TemplateError } from './templates.js';
import { zoneSettingLines } from './zone-settings.js';

/**
 * The HTML report's view: the first screen (glance.ts), the findings grouped by rule and by zone
 * (finding-groups.ts), the sections below, and the findings as compact rows for the page's script
 * (templates/report.js). Strings are plain text: Handlebars escapes them, the script sets textContent.
 * Every string from the API shows its bidirectional and invisible characters as visible escapes, as
 * the command line does: an override would otherwise reverse the text after it.
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

/** Zone ids: keys the page script matches against the findings' own ids (never shown), so they stay as the API gave them. */
const KEYS = new Set(['id', 'zoneId']);

/** Every string in `value` as the page shows it. */
function visible<T>(value: T): T {
  if (typeof value === 'string') return printable(value) as T;
  if (Array.isArray(value)) return value.map(visible) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, KEYS.has(k) ? v : visible(v)])) as T;
  return value;
}

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

const capped = <T, U>(items: readonly T[], map: (t: T) => U, limit = LIST_LIMIT) => ({ items: items.slice(0, limit).map(map), more: Math.max(0, items.length - limit) });

/** Zones in the "Zones by risk" table: the findings grouped by zone list every one. */
const ZONE_ROWS = 50;

type Charts = { timeline: ReturnType<typeof expiryTimeline>; trend: ReturnType<typeof failureTrend> };

/** What the HTML report needs beyond ReportData: where the risk is, the rows written into its groups, and the audit it compares with. */
export interface HtmlContext {
  risk: ReportRisk;
  rows: GroupRows;
  /** When a carried zone's data was last read in full (ISO), '' for zones this scan read. */
  readOn: (zoneId: string) => string;
  /** The counts of the audit of the scan compared with (drift's `from`), or null. */
  previous: PostureCounts | null;
  /** The vendor's own scanner side by side with the audit; null or absent: the scan did not read it. */
  vendor?: SideBySide | null;
}

export function htmlView(data: ReportData, table: FindingsTable, charts: Charts, script: { text: string; csp: string }, context: HtmlContext) {
  return {
    csp: script.csp,
    script: script.text,
    // Gzip and base64 (which the page script inflates): the JSON of 100,000 findings is 35 MB, this about 3.
    findingsBlob: table.blob,
    ...visible(shownView(data, charts, context)),
  };
}

/** What the page shows as text: every string of it passes through visible(). */
function shownView(data: ReportData, charts: Charts, context: HtmlContext) {
  const { audit, scan, drift, health } = data;
  const { risk } = context;
  const moved = drift?.findings.changes ?? [];
  const { zoneLinks, ...groups } = findingGroups(risk, { rows: context.rows, readOn: context.readOn, checks: audit.counts.byZone });
  const link = (zoneId: string | undefined) => (zoneId !== undefined && zoneLinks.has(zoneId) ? zoneAnchor(zoneId) : '');
  const changeRow = (c: (typeof moved)[number]) => ({
    severity: c.severity,
    rule: c.rule,
    zone: c.zone?.name ?? c.zone?.id ?? '',
    zoneId: c.zone?.id ?? '',
    zoneAnchor: link(c.zone?.id),
    resource: resourceText(c.resource, label),
    message: c.message,
  });
  const before = drift && context.previous ? { scanId: drift.from.id, startedAt: drift.from.startedAt, counts: context.previous } : null;
  return {
    toolVersion: PACKAGE.version,
    scan: { id: scan.id, startedAt: scan.startedAt, finishedAt: scan.finishedAt ?? '', status: scan.status },
    scope: data.scope,
    freshness: data.freshness,
    glance: glanceView(posture(audit.counts, before), charts.trend.points, drift, risk, zoneLinks),
    spark: SPARK,
    groups,
    counts: audit.counts.byStatus,
    categories: data.categories.map((c) => ({ ...c, passRate: passRate(c) })),
    remediations: fixesInOrder(risk.rules).map((r) => ({ ...r, anchor: ruleAnchor(r.rule) })),
    // The riskiest zones with failures; the findings grouped by zone list every one.
    zones: capped(
      risk.zones.filter((z) => z.failing > 0),
      (z) => {
        // Audits stored before zonewarden counted passes per zone have no rate to show.
        const checks = audit.counts.byZone?.[z.id];
        return { name: z.name, id: z.id, account: z.account, anchor: link(z.id), score: z.score, reason: riskReason(z, 3), bySeverity: SEVERITIES.map((s) => z.bySeverity[s]), total: z.failing, passRate: checks ? passRate(checks) : null };
      },
      ZONE_ROWS,
    ),
    weights: RISK_WEIGHTS_TEXT,
    severities: SEVERITIES,
    drift: drift && {
      from: drift.from.id,
      counts: drift.findings.counts,
      newFindings: capped(moved.filter((c) => c.change === 'new' || c.change === 'unwaived'), changeRow),
      fixed: capped(moved.filter((c) => c.change === 'fixed'), changeRow),
      configuration: configurationRows(drift),
      changes: groupList(driftGroups(drift.configuration.changes), drift.configuration.changes.length),
      unknown: drift.configuration.unknown.length,
    },
    health: {
      complete: health.complete,
      unread: capped(health.unread, (u) => ({ where: u.zone?.name ?? (u.scope || 'user'), what: partitionLabel(u.endpoint), state: u.state, reason: u.reason })),
      retired: health.retired.map((r) => ({ ...r, what: partitionLabel(r.endpoint) })),
      ruleErrors: health.ruleErrors.map((e) => ({ rule: e.rule, zone: e.zone?.name ?? '', message: e.message })),
      resolver: health.resolver,
    },
    waivers: { active: audit.waivers.active, expiring: audit.waivers.expiring, expired: audit.waivers.expired },
    zoneSettings: zoneSettingLines(audit),
    vendor: context.vendor ? vendorSection(context.vendor, LIST_LIMIT) : null,
    chart: CHART,
    timeline: charts.timeline,
    trend: charts.trend,
  };
}
