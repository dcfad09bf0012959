import type { Status } from '../policy/findings.js';
import { auditRows, type RowCondition } from '../audit/reuse-rows.js';
import { SEVERITIES, severityRank, type Severity } from '../policy/rule.js';
import type { Db } from '../snapshot/db.js';

/**
 * Where an audit's risk sits, for "what do I fix first": each rule's reach and each zone's score.
 * Counting findings put forty medium DNS records above an expired certificate; severity comes first.
 * A zone's score weighs each failing rule once, by its worst failure there (fifty failing records
 * are one thing to fix); waived and unknown findings count for nothing.
 */

/** Points per failing rule in a zone, by its worst severity there. */
export const RISK_WEIGHTS: Readonly<Record<Severity, number>> = Object.freeze({ critical: 10, high: 5, medium: 2, low: 1, info: 0 });

/** The weights as a reader sees them: "critical 10, high 5, medium 2, low 1, info 0". */
export const RISK_WEIGHTS_TEXT = SEVERITIES.map((s) => `${s} ${RISK_WEIGHTS[s]}`).join(', ');

type Stored = Exclude<Status, 'pass'>;

/** One stored finding, as far as risk needs it. */
export interface RiskRow {
  rule: string;
  severity: Severity;
  status: Stored;
  zoneId: string | null;
  zoneName: string | null;
  accountName: string | null;
}

interface Tally {
  /** Failing findings by severity. */
  bySeverity: Record<Severity, number>;
  failing: number;
  waived: number;
  unknown: number;
}

export interface RuleReach extends Tally {
  rule: string;
  /** The most severe of its failures; null when nothing of it fails (only waived or unknown findings). */
  worst: Severity | null;
  /** Zones with at least one failure of the rule. */
  zones: number;
}

export interface ZoneRisk extends Tally {
  id: string;
  name: string;
  account: string;
  score: number;
  /** The failing rules behind the score, worst first: each once, at its worst severity in the zone. */
  rules: Array<{ rule: string; severity: Severity }>;
}

export interface ReportRisk {
  /** Every rule with a stored finding: failing ones by severity, then reach (zones, then findings); then the others. */
  rules: RuleReach[];
  /** Every zone with a stored finding, by score, then worst severity, failures and name. */
  zones: ZoneRisk[];
  /** Findings outside any zone (accounts, the user). */
  outside: Tally;
}

const tally = (): Tally => ({ bySeverity: Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>, failing: 0, waived: 0, unknown: 0 });

function count(t: Tally, row: RiskRow): void {
  if (row.status === 'fail') {
    t.failing++;
    t.bySeverity[row.severity]++;
  } else t[row.status]++;
}

const worse = (a: Severity | null, b: Severity): Severity => (a === null || severityRank(b) > severityRank(a) ? b : a);
const rankOf = (s: Severity | null) => (s === null ? 0 : severityRank(s));
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The order of fixes: the most severe failure first, then the rule that reaches most zones, then most findings. */
function compareReach(a: RuleReach, b: RuleReach): number {
  return rankOf(b.worst) - rankOf(a.worst) || b.zones - a.zones || b.failing - a.failing || b.waived + b.unknown - (a.waived + a.unknown) || byName(a.rule, b.rule);
}

/** `keep`: only these rules (--framework, --control). */
export function riskOf(rows: Iterable<RiskRow>, keep: (rule: string) => boolean = () => true): ReportRisk {
  const rules = new Map<string, RuleReach & { zoneIds: Set<string> }>();
  const zones = new Map<string, { zone: ZoneRisk; worst: Map<string, Severity> }>();
  const outside = tally();
  for (const row of rows) {
    if (!keep(row.rule)) continue;
    let rule = rules.get(row.rule);
    if (!rule) rules.set(row.rule, (rule = { rule: row.rule, worst: null, zones: 0, zoneIds: new Set(), ...tally() }));
    count(rule, row);
    if (row.zoneId === null) {
      count(outside, row);
      if (row.status === 'fail') rule.worst = worse(rule.worst, row.severity);
      continue;
    }
    let entry = zones.get(row.zoneId);
    if (!entry) zones.set(row.zoneId, (entry = { zone: { id: row.zoneId, name: row.zoneName ?? row.zoneId, account: row.accountName ?? '', score: 0, rules: [], ...tally() }, worst: new Map() }));
    count(entry.zone, row);
    if (row.status !== 'fail') continue;
    rule.worst = worse(rule.worst, row.severity);
    rule.zoneIds.add(row.zoneId);
    entry.worst.set(row.rule, worse(entry.worst.get(row.rule) ?? null, row.severity));
  }
  const zoneList = [...zones.values()].map(({ zone, worst }) => {
    zone.rules = [...worst].map(([rule, severity]) => ({ rule, severity })).sort((a, b) => severityRank(b.severity) - severityRank(a.severity) || byName(a.rule, b.rule));
    zone.score = zone.rules.reduce((sum, r) => sum + RISK_WEIGHTS[r.severity], 0);
    return zone;
  });
  zoneList.sort(
    (a, b) =>
      b.score - a.score || rankOf(b.rules[0]?.severity ?? null) - rankOf(a.rules[0]?.severity ?? null) || b.failing - a.failing || byName(a.name, b.name) || byName(a.id, b.id),
  );
  const ruleList = [...rules.values()].map(({ zoneIds, ...rule }) => ({ ...rule, zones: zoneIds.size })).sort(compareReach);
  return { rules: ruleList, zones: zoneList, outside };
}

/** The risk of a stored audit, in one pass over its findings; `where`: only these rows (a view of some zones: src/audit/audit-view.ts). */
export function reportRisk(db: Db, auditId: number, keep?: (rule: string) => boolean, where?: RowCondition): ReportRisk {
  const rows = auditRows(db, auditId, 'rule, severity, status, zone_id AS zoneId, zone_name AS zoneName, account_name AS accountName', where) as Iterable<RiskRow>;
  return riskOf(rows, keep);
}

/** Why a zone scores what it does, in a few words: its worst rules, then how many more. */
export function riskReason(zone: Pick<ZoneRisk, 'rules'>, shown = 2): string {
  const named = zone.rules.slice(0, shown).map((r) => `${r.rule} (${r.severity})`);
  const rest = zone.rules.length - named.length;
  return rest > 0 ? `${named.join(', ')} and ${rest} more ${rest === 1 ? 'rule' : 'rules'}` : named.join(', ');
}
