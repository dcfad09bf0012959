import { PACKAGE } from '../common/package-info.js';
import { ZonewardenError } from '../common/errors.js';
import type { Db } from '../snapshot/db.js';
import type { SnapshotReader } from '../snapshot/reader.js';
import type { AuditCounts } from './audit.js';
import { evaluate, type FindingSink } from '../policy/engine.js';
import type { Finding } from '../policy/findings.js';
import { parseJudgement, rulesJudgement } from '../policy/judgement.js';
import type { ActiveRule } from '../policy/registry.js';
import { overridesOf } from '../policy/zone-overrides.js';

/**
 * The passing verdicts of a stored audit, for `report --passes`. An audit stores passes as counts
 * only, so they are judged again on its scan with its rule settings. The verdicts must be the same:
 * checked before (settings and version) and after (as many passes), any difference an error.
 */

export class PassEvidenceError extends ZonewardenError {
  constructor(message: string) {
    super('ZW_PASSES_DIFFER', message);
  }
}

/** What of a stored audit the passes are checked against. */
export interface AuditOfPasses {
  scanId: number;
  toolVersion: string;
  rules: ReadonlyArray<{ id: string; severity: string | null; options: unknown; overrides?: unknown[] }>;
  counts: Pick<AuditCounts, 'byStatus'>;
}

/** JSON with object keys sorted: settings compared by value, not by the order they were written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** A rule's settings as an audit records them (src/audit/store.ts); the rules an audit records are those that ran. */
function recorded(rules: readonly ActiveRule[]): Map<string, string> {
  return new Map(
    rules
      .filter((r) => r.enabled || r.overrides.some((o) => o.enabled === true))
      .map((r) => [r.rule.meta.id, canonical({ id: r.rule.meta.id, severity: r.severity, options: r.options, ...overridesOf(r) })]),
  );
}

/**
 * An audit of the scan judged with these rules by this version, whose passes can be reported: the
 * official one, else the newest trial, else null. Waivers do not count: they never make a pass.
 */
export function auditForPasses(db: Db, scanId: number, rules: readonly ActiveRule[]): number | null {
  const now = rulesJudgement(rules);
  const audits = db.prepare('SELECT id, judgement FROM audits WHERE scan_id = ? ORDER BY trial IS NOT NULL, id DESC').all(scanId) as Array<{ id: number; judgement: string | null }>;
  for (const audit of audits) {
    const judged = parseJudgement(audit.judgement);
    if (judged && judged.tool === PACKAGE.version && judged.rules === now) return audit.id;
  }
  return null;
}

/** The fix a refusal names when no audit of the scan was judged with these settings: make one, which auditForPasses finds. */
export function auditThenReport(scanId: number): string {
  return `audit the scan with these settings (zonewarden audit --scan ${scanId}), then run report --passes again: it reports the audit judged with them`;
}

/** Refuses rules that would not judge as the audit did (other rules, settings or version); `fix`: what to do instead. */
export function checkSameJudgement(audit: AuditOfPasses, rules: readonly ActiveRule[], fix = auditThenReport(audit.scanId)): void {
  if (audit.toolVersion !== PACKAGE.version) {
    throw new PassEvidenceError(`--passes: scan ${audit.scanId} was audited by zonewarden ${audit.toolVersion}, whose rules may judge otherwise than those of ${PACKAGE.version}; ${fix}`);
  }
  const now = recorded(rules);
  const then = new Map(audit.rules.map((r) => [r.id, canonical({ ...r, ...(r.overrides?.length ? {} : { overrides: undefined }) })]));
  const instead = `${fix}; or use the settings it ran with`;
  for (const [id, settings] of then) {
    if (!now.has(id)) throw new PassEvidenceError(`--passes: the audit of scan ${audit.scanId} ran rule ${id}, which is not enabled or not loaded now (--config, --rules-dir); ${instead}`);
    if (now.get(id) !== settings) throw new PassEvidenceError(`--passes: rule ${id} is set otherwise in the config than when scan ${audit.scanId} was audited; ${instead}`);
  }
  for (const id of now.keys()) {
    if (!then.has(id)) throw new PassEvidenceError(`--passes: rule ${id} is enabled now but did not run in the audit of scan ${audit.scanId}; ${instead}`);
  }
}

/** Hands on the passes of each unit (a rule on a zone) once it stands; the other verdicts are the audit's, stored. */
class PassSink implements FindingSink {
  private unit: Finding[] = [];
  count = 0;

  constructor(private readonly visit: (pass: Finding) => void) {}

  add(finding: Finding): void {
    if (finding.status === 'pass') this.unit.push(finding);
  }

  commit(): void {
    for (const f of this.unit) this.visit(f);
    this.count += this.unit.length;
    this.unit = [];
  }

  rollback(): void {
    this.unit = [];
  }
}

/** Judges the audit's scan again and hands on every pass, even to a caller that wants some (the count is checked); returns how many. */
export function forEachPass(reader: SnapshotReader, audit: AuditOfPasses, rules: readonly ActiveRule[], visit: (pass: Finding) => void): number {
  checkSameJudgement(audit, rules);
  const sink = new PassSink(visit);
  evaluate(reader, rules, { keepPasses: true, sink });
  if (sink.count !== audit.counts.byStatus.pass) {
    throw new PassEvidenceError(
      `--passes: judged again, scan ${audit.scanId} gives ${sink.count} passing verdicts where its audit counted ${audit.counts.byStatus.pass} (a custom rule changed since?); ${auditThenReport(audit.scanId)}`,
    );
  }
  return sink.count;
}
