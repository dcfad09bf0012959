import { configurationRows, configurationSummary, FINDING_LABEL, partitionLabel } from '../drift/words.js';
import type { FindingChange } from '../drift/result.js';
import { resourceText, type Finding } from '../policy/findings.js';
import { SEVERITIES } from '../policy/rule.js';
import { markdownText as md } from '../common/markdown.js';
import { shorten } from '../common/printable.js';
import { catalogue } from '../policy/catalogue.js';
import { controlLabel, controlsOfId } from '../policy/compliance.js';
import { controlRows } from './compliance-view.js';
import { fixesInOrder } from './remediation.js';
import { RISK_WEIGHTS_TEXT, riskReason, type ReportRisk, type ZoneRisk } from './risk.js';
import type { ReportData } from './report-data.js';
import type { Templates } from './templates.js';
import { zoneSettingLines } from './zone-settings.js';
import type { SideBySide } from './vendor-insights.js';
import { vendorSection } from './vendor-insights-view.js';

/**
 * The Markdown digest for pull requests and chat. A pull-request comment holds 65,536 characters, so
 * the digest keeps under MAX_DIGEST_CHARS by halving its lists until it fits, and says so. Every piece
 * of API text is escaped here, in code; the template only lays the rows out.
 */
export const MAX_DIGEST_CHARS = 60_000;
const FIRST_LIMIT = 100;

type DigestRow = { cells: string[] };

/** A zone's name, and for a zone carried forward, when its data was read (as report.html marks it). */
function zoneCell(name: string, zoneId: string, lastReadOf: (zoneId: string) => string): string {
  const readOn = lastReadOf(zoneId);
  return md(readOn ? `${name} (data of ${readOn.slice(0, 10)})` : name);
}

function riskRow(f: Finding, lastReadOf: (zoneId: string) => string): DigestRow {
  const where = f.zone ? zoneCell(f.zone.name ?? f.zone.id, f.zone.id, lastReadOf) : md(f.account?.name ?? '-');
  return { cells: [f.severity, `\`${f.rule}\``, where, md(shorten(resourceText(f.resource), 80)), md(shorten(f.message, 300))] };
}

function changeRow(c: FindingChange, lastReadOf: (zoneId: string) => string): DigestRow {
  const where = c.zone ? zoneCell(c.zone.name ?? c.zone.id, c.zone.id, lastReadOf) : md(c.account?.name ?? '-');
  return { cells: [FINDING_LABEL[c.change], c.severity, `\`${c.rule}\``, where, md(shorten(resourceText(c.resource), 80))] };
}

/** Pairings of the vendor's scanner listed at most: report.html and vendor-insights.csv list more. */
const VENDOR_ROWS = 30;

/** Zones listed by risk: enough for the morning's work; report.html lists them all. */
const WORST_ZONES = 10;

function zoneRow(z: ZoneRisk, lastReadOf: (zoneId: string) => string): DigestRow {
  return { cells: [zoneCell(shorten(z.name, 80), z.id, lastReadOf), String(z.score), md(riskReason(z, 3))] };
}

function listOf<T>(items: readonly T[], limit: number, row: (item: T) => DigestRow) {
  return { rows: items.slice(0, limit).map(row), shown: Math.min(limit, items.length), total: items.length, cut: items.length > limit };
}

/** The digest's view: every string in it is Markdown-safe. */
export function digestView(data: ReportData, limit: number, risk: ReportRisk, vendor: SideBySide | null = null) {
  const { audit, scan, drift, health } = data;
  const moved = drift?.findings.changes.filter((c) => c.change === 'new' || c.change === 'fixed' || c.change === 'unwaived') ?? [];
  const unread = listOf(health.unread, limit, (u) => ({
    cells: [md(u.zone?.name ?? (u.scope || 'user')), md(partitionLabel(u.endpoint)), u.state, md(shorten(u.reason, 200))],
  }));
  const risks = listOf(data.topRisks, limit, (f) => riskRow(f, data.lastReadOf));
  const changes = listOf(moved, limit, (c) => changeRow(c, data.lastReadOf));
  return {
    scan: { id: scan.id, startedAt: scan.startedAt, status: scan.status },
    scope: md(data.freshness ? `${data.scope.statement} ${data.freshness}.` : data.scope.statement),
    counts: audit.counts.byStatus,
    bySeverity: SEVERITIES.map((severity) => ({ severity, count: audit.counts.failBySeverity[severity] })),
    categories: data.categories.map((c) => ({ ...c })),
    risks,
    zones: listOf(
      risk.zones.filter((z) => z.failing > 0),
      Math.min(WORST_ZONES, limit),
      (z) => zoneRow(z, data.lastReadOf),
    ),
    weights: RISK_WEIGHTS_TEXT,
    // What to do, once per failing rule: the rows above name the rule.
    // In the order to fix them: the most severe failure first, then the widest reach.
    remediations: fixesInOrder(risk.rules).map((r) => ({ rule: r.rule, worst: r.worst, failing: r.failing, zones: r.zones, remediation: md(r.remediation), controls: md(controlsOfId(r.rule, catalogue()).map(controlLabel).join(', ')) })),
    // The verdicts by control of PCI DSS and NIST SP 800-53 that the audit's rules map to.
    controls: controlRows(audit.counts.byRule).map((c) => ({ label: md(c.label), title: md(c.control.title), rules: c.rules.length, ...c.counts })),
    drift: drift && {
      from: drift.from.id,
      baseline: drift.baseline !== null,
      counts: drift.findings.counts,
      changes,
      configuration: configurationRows(drift, md),
      configurationSummary: md(configurationSummary(drift)),
    },
    health: {
      complete: health.complete,
      unread,
      retired: health.retired.map((r) => ({ count: r.count, what: md(partitionLabel(r.endpoint)), reason: md(shorten(r.reason, 200)) })),
      ruleErrors: health.ruleErrors.map((e) => ({ rule: e.rule, zone: md(e.zone?.name ?? '-'), message: md(shorten(e.message, 200)) })),
      resolver: health.resolver === null ? null : md(health.resolver),
    },
    waivers: { active: audit.waivers.active.length, expiring: audit.waivers.expiring.length, expired: audit.waivers.expired.length },
    zoneSettings: zoneSettingLines(audit).map((z) => ({ rule: z.rule, where: md(z.where), setting: z.setting })),
    // The vendor's scanner beside the findings: the differences first, fewer rows than report.html.
    vendor: vendor && vendorSection(vendor, Math.min(limit, VENDOR_ROWS), (s) => md(shorten(s, 200))),
    cut: [risks, changes, unread].some((l) => l.cut),
  };
}

export function renderDigest(templates: Templates, data: ReportData, risk: ReportRisk, vendor: SideBySide | null = null): string {
  for (let limit = FIRST_LIMIT; ; limit = Math.floor(limit / 2)) {
    const text = templates.render('report.md', digestView(data, limit, risk, vendor));
    if (text.length <= MAX_DIGEST_CHARS || limit === 0) return text.length <= MAX_DIGEST_CHARS ? text : `${text.slice(0, MAX_DIGEST_CHARS - 80)}\n\n_Cut at ${MAX_DIGEST_CHARS} characters._\n`;
  }
}
