import { label } from '../drift/words.js';
import type { DriftResult, FindingChange } from '../drift/result.js';
import { catalogue } from '../policy/catalogue.js';
import { resourceText } from '../policy/findings.js';
import { severityRank } from '../policy/rule.js';
import { sparkline, type TrendPoint } from './charts.js';
import { ruleAnchor, zoneAnchor } from './finding-groups.js';
import { NO_ZONE } from './group-rows.js';
import { signed, type Posture } from './posture.js';
import { RISK_WEIGHTS_TEXT, riskReason, type ReportRisk } from './risk.js';

/**
 * The report's first screen: how are we and is it getting better, what changed since the previous
 * scan, the worst zones and the fixes to make first. Each list is short (GLANCE_ITEMS) and links to
 * its full section below, so the screen answers all four at any size of organisation.
 */

export const GLANCE_ITEMS = 5;

/** Which groups exist, so that a link is only made to a group the page has. */
type Links = { zones: ReadonlySet<string>; rules: ReadonlySet<string> };

/** Changes of one kind, rule and zone as one line with a count, leaving room for the other changes. */
function changeItems(changes: readonly FindingChange[], kind: 'new' | 'fixed', links: Links) {
  const lines = new Map<string, { first: FindingChange; count: number }>();
  for (const c of changes) {
    const key = `${c.rule}\u0000${c.zone?.id ?? c.account?.id ?? ''}`;
    const line = lines.get(key);
    if (line) line.count++;
    else lines.set(key, { first: c, count: 1 });
  }
  return [...lines.values()]
    .sort((a, b) => severityRank(b.first.severity) - severityRank(a.first.severity) || b.count - a.count)
    .map(({ first: c, count }) => {
      const zoneId = c.zone?.id ?? NO_ZONE;
      return {
        kind,
        count,
        severity: c.severity,
        rule: c.rule,
        ruleAnchor: links.rules.has(c.rule) ? ruleAnchor(c.rule) : '',
        zone: c.zone ? (c.zone.name ?? c.zone.id) : (c.account?.name ?? ''),
        // A fixed finding's zone may have nothing left to show: then it is named, not linked.
        zoneAnchor: c.zone && links.zones.has(zoneId) ? zoneAnchor(zoneId) : '',
        zoneId: c.zone?.id ?? '',
        what: `${resourceText(c.resource, label)}: ${c.message}${count > 1 ? ` (and ${count - 1} more like it)` : ''}`,
      };
    });
}

function changes(drift: DriftResult | null, links: Links) {
  if (!drift) return null;
  const moved = drift.findings.changes;
  const added = moved.filter((c) => c.change === 'new' || c.change === 'unwaived');
  const fixed = moved.filter((c) => c.change === 'fixed');
  // New failures first; the room they leave goes to what was fixed.
  const shownNew = changeItems(added, 'new', links).slice(0, GLANCE_ITEMS);
  const shownFixed = changeItems(fixed, 'fixed', links).slice(0, Math.max(0, GLANCE_ITEMS - shownNew.length));
  return {
    from: drift.from.id,
    fromAt: drift.from.startedAt,
    added: added.length,
    fixed: fixed.length,
    severityChanged: drift.findings.counts['severity-changed'],
    configuration: drift.configuration.changes.length,
    items: [...shownNew, ...shownFixed],
  };
}

export function glanceView(posture: Posture, trend: readonly TrendPoint[], drift: DriftResult | null, risk: ReportRisk, zoneLinks: ReadonlySet<string>) {
  const failingZones = risk.zones.filter((z) => z.failing > 0);
  const fixes = risk.rules.filter((r) => r.worst !== null);
  const rules = catalogue();
  return {
    posture: {
      ...posture,
      bySeverity: posture.bySeverity.map((s) => ({ ...s, shownDelta: s.delta ? signed(s.delta) : '' })),
      passRateDelta: posture.passRateDelta === null ? '' : `${signed(posture.passRateDelta)} pt`,
      failingDelta: posture.failingDelta === null ? '' : signed(posture.failingDelta),
      spark: sparkline(trend.map((p) => p.failing)),
      scans: trend.length,
      trendFirst: trend[0]?.startedAt ?? '',
    },
    changes: changes(drift, { zones: zoneLinks, rules: new Set(risk.rules.map((r) => r.rule)) }),
    zones: failingZones.slice(0, GLANCE_ITEMS).map((z) => ({ name: z.name, id: z.id, anchor: zoneLinks.has(z.id) ? zoneAnchor(z.id) : '', account: z.account, score: z.score, worst: z.rules[0]!.severity, reason: riskReason(z) })),
    zoneCount: failingZones.length,
    fixes: fixes.slice(0, GLANCE_ITEMS).map((r) => ({ rule: r.rule, title: rules.get(r.rule)?.meta.title ?? r.rule, anchor: ruleAnchor(r.rule), worst: r.worst!, zones: r.zones, failing: r.failing })),
    fixCount: fixes.length,
    weights: RISK_WEIGHTS_TEXT,
  };
}
