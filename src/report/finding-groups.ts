import { catalogue } from '../policy/catalogue.js';
import { controlLabel, controlsOfId } from '../policy/compliance.js';
import { SEVERITIES } from '../policy/rule.js';
import { GroupRows, NO_ZONE, allowances, type ShownRow } from './group-rows.js';
import { passRate } from './posture.js';
import { riskReason, type ReportRisk, type RuleReach, type ZoneRisk } from './risk.js';

/**
 * The HTML report's findings in groups, by rule (in the order of fixes) and by zone (by risk): each
 * collapsed, with an anchor (#rule-…, #zone-…) a link or bookmark can open, and its rows (group-rows.ts).
 */

/** Zones given a group of their own, riskiest first; the rest are one choice of the zone filter away. */
export const ZONE_GROUPS = 1_000;

/** An id attribute for any key: letters, digits and hyphens stay, anything else becomes `_<hex>_`, so distinct keys never share one. */
export const safeId = (key: string): string => key.replace(/[^A-Za-z0-9-]/gu, (c) => `_${c.codePointAt(0)!.toString(16)}_`);
export const ruleAnchor = (rule: string) => `rule-${safeId(rule)}`;
export const zoneAnchor = (zoneId: string) => (zoneId === NO_ZONE ? 'no-zone' : `zone-${safeId(zoneId)}`);

const total = (t: { failing: number; waived: number; unknown: number }) => t.failing + t.waived + t.unknown;

/** The zones that get a group: the riskiest ZONE_GROUPS (every rule gets one, and so do the findings outside zones). */
const groupedZones = (risk: ReportRisk): ZoneRisk[] => risk.zones.slice(0, ZONE_GROUPS);

/** How many rows each group writes (group-rows.ts), in the order the views list the groups. */
export function groupAllowances(risk: ReportRisk) {
  const zones = groupedZones(risk).map((z) => ({ key: z.id, size: total(z) }));
  if (total(risk.outside) > 0) zones.push({ key: NO_ZONE, size: total(risk.outside) });
  return { rules: allowances(risk.rules.map((r) => ({ key: r.rule, size: total(r) }))), zones: allowances(zones) };
}

export interface GroupContext {
  rows: GroupRows;
  /** When a carried zone's data was last read in full (ISO), '' for zones read by this scan. */
  readOn: (zoneId: string) => string;
  /** Passing and failing checks by zone id, when the audit counted them. */
  checks: Readonly<Record<string, { pass: number; fail: number }>> | undefined;
}

/** A row as a group shows it, with the anchors its zone and rule link to ('' for none). */
function shown(row: ShownRow, zoneLinks: ReadonlySet<string>) {
  return { ...row, verdict: verdictText(row), zoneAnchor: row.zoneId !== NO_ZONE && zoneLinks.has(row.zoneId) ? zoneAnchor(row.zoneId) : '', ruleAnchor: ruleAnchor(row.rule) };
}

/** The severity, and the status when it is not a failure: "high", "medium, waived". */
export const verdictText = (row: { severity: string; status: string }) => (row.status === 'fail' ? row.severity : `${row.severity}, ${row.status}`);

function ruleGroup(reach: RuleReach, context: GroupContext, zoneLinks: ReadonlySet<string>) {
  const meta = catalogue().get(reach.rule)?.meta;
  const controls = controlsOfId(reach.rule, catalogue());
  const rows = (context.rows.byRule.get(reach.rule) ?? []).map((r) => shown(r, zoneLinks));
  return {
    anchor: ruleAnchor(reach.rule),
    rule: reach.rule,
    title: meta?.title ?? '',
    remediation: meta?.remediation ?? '',
    why: meta?.description ?? '',
    worst: reach.worst ?? '',
    failing: reach.failing,
    waived: reach.waived,
    unknown: reach.unknown,
    zones: reach.zones,
    total: total(reach),
    controls: controls.map((c) => ({ label: controlLabel(c), title: c.title })),
    // What the search box matches in the group besides its findings' own text.
    search: [meta?.title ?? '', ...controls.map((c) => `${controlLabel(c)} ${c.title}`)].join(' '),
    rows,
    more: total(reach) - rows.length,
  };
}

function zoneGroup(zone: ZoneRisk, context: GroupContext, zoneLinks: ReadonlySet<string>) {
  const rows = (context.rows.byZone.get(zone.id) ?? []).map((r) => shown(r, zoneLinks));
  const checks = context.checks?.[zone.id];
  return {
    anchor: zoneAnchor(zone.id),
    id: zone.id,
    name: zone.name,
    account: zone.account,
    score: zone.score,
    reason: riskReason(zone),
    worst: zone.rules[0]?.severity ?? '',
    bySeverity: SEVERITIES.filter((s) => zone.bySeverity[s] > 0).map((severity) => ({ severity, count: zone.bySeverity[severity] })),
    failing: zone.failing,
    waived: zone.waived,
    unknown: zone.unknown,
    total: total(zone),
    passRate: checks ? passRate(checks) : null,
    readOn: context.readOn(zone.id).slice(0, 10),
    rows,
    more: total(zone) - rows.length,
  };
}

/** Both views' groups, and the zones that have one (a zone named anywhere else in the page links to its group). */
export function findingGroups(risk: ReportRisk, context: GroupContext) {
  const zones = groupedZones(risk);
  const zoneLinks = new Set(zones.map((z) => z.id));
  const outsideTotal = total(risk.outside);
  if (outsideTotal > 0) zoneLinks.add(NO_ZONE);
  const byZone = zones.map((z) => ({ ...zoneGroup(z, context, zoneLinks), outside: false }));
  if (outsideTotal > 0) {
    // Findings on accounts and the user: a group of their own at the end, with no risk score (it ranks zones).
    const outside: ZoneRisk = { id: NO_ZONE, name: 'Not in a zone: accounts and the user', account: '', score: 0, rules: [], ...risk.outside };
    byZone.push({ ...zoneGroup(outside, context, zoneLinks), outside: true });
  }
  return {
    zoneLinks,
    byRule: risk.rules.map((r) => ruleGroup(r, context, zoneLinks)),
    byZone,
    zonesWithoutGroup: Math.max(0, risk.zones.length - zones.length),
  };
}
