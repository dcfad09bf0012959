import type { AuditCounts, AuditResult } from '../audit/audit.js';
import { catalogue } from '../policy/catalogue.js';
import { controlsOfId, controlsOfRule } from '../policy/compliance.js';
import { overridesOf } from '../policy/zone-overrides.js';
import type { Finding } from '../policy/findings.js';
import type { AuditHeader } from '../audit/store.js';
import type { ScanRow } from '../snapshot/reader.js';
import { chunkedWriter } from '../common/chunked-write.js';
import { remediationOf } from './remediation.js';
import type { SideBySide } from './vendor-insights.js';

/** The audit as JSON for other tools; `schema` changes only with a new version number. */
export const AUDIT_JSON_SCHEMA = 'zonewarden.audit/1';

/**
 * Writes the audit as one JSON document, the findings last and one per line: written in chunks,
 * so that 100,000s of findings never become one string in memory, and easy to grep or diff.
 */
/** Which stored audit a document is of: its id, and why it is a trial (null: the scan's official audit). */
export interface AuditRef {
  auditId: number;
  trial: string | null;
}

export interface JsonOptions {
  failOn: string;
  exitCode: number;
  audit: AuditRef;
  /** The report's: which zones of the view this scan carried forward, and when their data was read in full. */
  dataRead?: DataRead;
  /** The vendor's own scanner side by side with the audit (vendor-insights.ts); absent when the scan did not read it. */
  vendorInsights?: SideBySide | null;
}

/** Zones carried forward by an incremental scan (by id: when their data was last read in full); every other zone was read in full by the scan. */
export interface DataRead {
  readInFull: number;
  carried: number;
  carriedZones: Record<string, string>;
}

export function writeAuditJson(result: AuditResult, findings: Iterable<Finding | string>, options: JsonOptions, write: (text: string) => void): void {
  const rules = result.rules.map((r) => ({
    id: r.rule.meta.id,
    severity: r.severity ?? r.rule.meta.severity,
    options: r.options,
    remediation: r.rule.meta.remediation,
    controls: controlsOfRule(r.rule.meta),
    ...overridesOf(r),
  }));
  writeJson({ ...head(result.scan, result.zones, options), rules, counts: publicCounts(result.counts), waivers: result.waivers, errors: result.errors, vendorInsights: vendorJson(options.vendorInsights) }, findings, write);
}

/** The same document from an audit stored with its scan (the report's findings.json). */
export function writeStoredAuditJson(
  audit: AuditHeader,
  scan: ScanRow,
  zones: number,
  findings: Iterable<Finding | string>,
  options: Omit<JsonOptions, 'audit'>,
  write: (text: string) => void,
): void {
  const rules = audit.rules.map((r) => ({ ...r, remediation: remediationOf(r.id), controls: controlsOfId(r.id, catalogue()) }));
  writeJson({ ...head(scan, zones, { ...options, audit }), rules, counts: publicCounts(audit.counts), waivers: audit.waivers, errors: audit.errors, vendorInsights: vendorJson(options.vendorInsights) }, findings, write);
}

/**
 * The side-by-side as docs/audit-json.md documents it: the accounts' views, the counts, each pairing
 * (zonewarden's findings reduced to rule, status, severity and message) and the insights no rule
 * judges; undefined (no key) when the scan did not read the vendor's insights.
 */
function vendorJson(side: SideBySide | null | undefined) {
  if (!side) return undefined;
  return {
    accounts: side.accounts,
    counts: side.counts,
    pairs: side.rows.map((r) => ({ ...r, findings: r.findings.map((f) => ({ rule: f.rule, status: f.status, severity: f.severity, message: f.message })) })),
    notJudged: side.vendorOnly,
  };
}

/** The counts the JSON documents: the per-zone ones (a line per zone, 10,000 at scale) stay with the reports. */
function publicCounts(counts: AuditCounts): Omit<AuditCounts, 'byZone'> {
  const { byZone: _byZone, ...documented } = counts;
  return documented;
}

/** Parts the scan could not read, as its summary counts them (names in the scope that matched nothing included). */
function missingParts(scan: ScanRow): number {
  const missing = (scan.summary as { missing?: unknown[] } | null)?.missing;
  return Array.isArray(missing) ? missing.length : 0;
}

function head(scan: ScanRow, zones: number, options: JsonOptions) {
  return {
    schema: AUDIT_JSON_SCHEMA,
    scan: { id: scan.id, startedAt: scan.startedAt, finishedAt: scan.finishedAt, status: scan.status, scope: scan.scope, missing: missingParts(scan) },
    // What CI reads to report this audit (report --audit ID), trial or not, without parsing stderr.
    audit: { id: options.audit.auditId, trial: options.audit.trial !== null, reason: options.audit.trial },
    zones,
    ...(options.dataRead ? { dataRead: options.dataRead } : {}),
    failOn: options.failOn,
    exitCode: options.exitCode,
  };
}

/** `findings`: objects, or texts already in JSON (auditFindingsJson). */
function writeJson(document: ReturnType<typeof head> & Record<string, unknown>, findings: Iterable<Finding | string>, write: (text: string) => void): void {
  // Keys in the documented order: schema, scan, audit, zones, dataRead (reports only), rules, failOn, exitCode, counts, waivers, errors, vendorInsights (when read).
  const { schema, scan, audit, zones, dataRead, rules, failOn, exitCode, counts, waivers, errors, vendorInsights } = document as ReturnType<typeof head> & Record<string, unknown> & { dataRead?: DataRead };
  const text = JSON.stringify({ schema, scan, audit, zones, dataRead, rules, failOn, exitCode, counts, waivers, errors, vendorInsights }, null, 2);
  write(`${text.slice(0, -2)},\n  "findings": [`);
  let n = 0;
  const out = chunkedWriter(write);
  for (const f of findings) out.push(`${n++ === 0 ? '' : ','}\n    ${typeof f === 'string' ? f : JSON.stringify(f)}`);
  out.flush();
  write(`${n ? '\n  ' : ''}]\n}\n`);
}
