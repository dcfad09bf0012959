import type { Finding } from '../policy/findings.js';
import { severityRank } from '../policy/rule.js';
import { findingByKey, type AuditHeader } from '../audit/store.js';
import type { Db } from '../snapshot/db.js';
import { mergeByFingerprint } from '../audit/audit-pair.js';
import type { ScanCoverage, ZoneInfo } from './coverage-pair.js';
import type { ScanFilter } from '../snapshot/scan-filter.js';
import { FINDING_CHANGES, FINDING_STEADY, noFindingCounts, STEADY_OF } from './result.js';
import type { FindingChange, FindingChangeKind, FindingDrift, FindingState, FindingSteadyKind } from './result.js';

/**
 * Finding drift between two stored audits, by fingerprint. Passes are stored as counts only, so a
 * failure missing from the later audit is fixed only when that audit could have seen it: the rule ran
 * there without error or unknown for that rule and zone, and the zone was read (or is known gone);
 * otherwise it is newly unknown. `view`: only a filter's zones and accounts (diff --zone, --account).
 */
export function findingDrift(
  db: Db,
  audits: { from: AuditHeader; to: AuditHeader },
  coverage: { from: ScanCoverage; to: ScanCoverage },
  zones: ReadonlyMap<string, ZoneInfo>,
  view: ScanFilter | null = null,
): FindingDrift {
  const [from, to] = [audits.from.auditId, audits.to.auditId];
  const rulesFrom = new Set(audits.from.rules.map((r) => r.id));
  const rulesTo = new Set(audits.to.rules.map((r) => r.id));
  const compared = new Set([...rulesTo].filter((r) => rulesFrom.has(r)));
  const rulesNotCompared = [...new Set([...rulesFrom, ...rulesTo])].filter((r) => !compared.has(r)).sort();

  const key = (rule: string, zoneId: string | null) => `${rule}\u0000${zoneId ?? ''}`;
  const merged = mergeByFingerprint(db, from, to, key, view);
  const { unknownInFrom, unknownInTo } = merged;
  const erroredInTo = new Set(audits.to.errors.map((e) => key(e.rule, e.zone?.id ?? null)));
  // A zone outside either scan's scope is not compared: a --zone rescan says nothing of the others.
  const inBothScopes = (zoneId: string | null): boolean => {
    if (zoneId === null) return true;
    const zone = zones.get(zoneId);
    return !zone || (coverage.from.presence(zone) !== 'outside' && coverage.to.presence(zone) !== 'outside');
  };
  const unjudgedInFrom = (f: Finding): boolean => {
    const zone = f.zone ? zones.get(f.zone.id) : undefined;
    return unknownInFrom.has(key(f.rule, f.zone?.id ?? null)) || (zone !== undefined && coverage.from.presence(zone) === 'unread');
  };
  const seenByTo = (f: Finding): boolean => {
    const zoneId = f.zone?.id ?? null;
    if (unknownInTo.has(key(f.rule, zoneId)) || erroredInTo.has(key(f.rule, zoneId)) || erroredInTo.has(key(f.rule, null))) return false;
    if (zoneId === null) return true;
    const zone = zones.get(zoneId);
    const presence = zone ? coverage.to.presence(zone) : 'unread';
    return presence === 'present' || presence === 'absent';
  };

  const counts = noFindingCounts();
  const changes: FindingChange[] = [];
  const record = (kind: FindingChangeKind | FindingSteadyKind, f: Finding, before: FindingState, after: FindingState, earlier: string | null) => {
    counts[kind]++;
    if ((FINDING_STEADY as readonly string[]).includes(kind)) return;
    const previousSeverity = earlier !== null && earlier !== f.severity ? (earlier as Finding['severity']) : null;
    // Keys in the order diff --format json documents.
    const { fingerprint, rule, category, severity, account, zone, resource, message } = f;
    const change = kind as FindingChangeKind;
    changes.push({ change, fingerprint, rule, category, severity, previousSeverity, before, after, account, zone, resource, message });
  };

  for (const [status, n] of merged.steady) counts[STEADY_OF[status as keyof typeof STEADY_OF]] += n;
  const load = findingByKey(db);

  for (const moved of merged.later) {
    const f = load(moved.pk);
    if (!compared.has(f.rule) || !inBothScopes(f.zone?.id ?? null)) continue;
    // No earlier finding, but the earlier audit could not judge this rule there: it was unknown, not passing.
    const before = moved.before ?? (unjudgedInFrom(f) ? 'unknown' : null);
    const after = f.status as Exclude<FindingState, null>;
    record(transition(before, after, moved.beforeSeverity !== null && moved.beforeSeverity !== f.severity), f, before, after, moved.beforeSeverity);
  }

  for (const pk of merged.gone) {
    const f = load(pk);
    if (!compared.has(f.rule) || !inBothScopes(f.zone?.id ?? null)) continue;
    const before = f.status as Exclude<FindingState, null>;
    const seen = seenByTo(f);
    if (before === 'unknown') record(seen ? 'known-again' : 'still-unknown', f, before, seen ? null : 'unknown', null);
    else record(seen ? 'fixed' : 'newly-unknown', f, before, seen ? null : 'unknown', null);
  }

  const rank = (k: FindingChangeKind) => FINDING_CHANGES.indexOf(k);
  changes.sort(
    (a, b) =>
      rank(a.change) - rank(b.change) ||
      severityRank(b.severity) - severityRank(a.severity) ||
      a.rule.localeCompare(b.rule) ||
      (a.zone?.name ?? '').localeCompare(b.zone?.name ?? '') ||
      (a.resource.name ?? a.resource.id).localeCompare(b.resource.name ?? b.resource.id) ||
      a.fingerprint.localeCompare(b.fingerprint),
  );
  return { counts, changes, rulesNotCompared };
}

/** How a finding present in the later audit moved from its earlier state. */
function transition(before: FindingState, after: Exclude<FindingState, null>, severityMoved: boolean): FindingChangeKind | FindingSteadyKind {
  if (after === 'unknown') return before === 'unknown' ? 'still-unknown' : 'newly-unknown';
  if (before === null || before === 'unknown') return 'new';
  if (before === after) return severityMoved ? 'severity-changed' : after === 'fail' ? 'still-failing' : 'still-waived';
  return after === 'waived' ? 'newly-waived' : 'unwaived';
}
