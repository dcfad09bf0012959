import type { AuditResult } from '../audit/audit.js';
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

export interface JsonOptions {
  failOn: string;
  exitCode: number;
  /** Which stored audit the document is of: its id, and why it is a trial (null: the scan's official audit). */
  audit: Pick<AuditHeader, 'auditId' | 'trial'>;
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
  writeJson({ ...head(result.scan, result.zones, options, rules), ...tail(result, options.vendorInsights) }, findings, write);
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
  writeJson({ ...head(scan, zones, { ...options, audit }, rules), ...tail(audit, options.vendorInsights) }, findings, write);
}

/** The side-by-side as docs/audit-json.md documents it; undefined (no key) when the scan did not read the vendor's insights. */
function vendorJson(side: SideBySide | null | undefined) {
  if (!side) return undefined;
  return {
    accounts: side.accounts,
    counts: side.counts,
    pairs: side.rows.map((r) => ({ ...r, findings: r.findings.map((f) => ({ rule: f.rule, status: f.status, severity: f.severity, message: f.message })) })),
    notJudged: side.vendorOnly,
  };
}


/** Parts the scan could not read, as its summary counts them (names in the scope that matched nothing included). */
function missingParts(scan: ScanRow): number {
  const missing = (scan.summary as { missing?: unknown[] } | null)?.missing;
  return Array.isArray(missing) ? missing.length : 0;
}

/** Keys in the documented order: schema, scan, audit, zones, dataRead (reports only), rules, failOn, exitCode; then tail's. */
function head(scan: ScanRow, zones: number, options: JsonOptions, rules: unknown[]) {
  return {
    schema: AUDIT_JSON_SCHEMA,
    scan: { id: scan.id, startedAt: scan.startedAt, finishedAt: scan.finishedAt, status: scan.status, scope: scan.scope, missing: missingParts(scan) },
    // What CI reads to report this audit (report --audit ID), trial or not, without parsing stderr.
    audit: { id: options.audit.auditId, trial: options.audit.trial !== null, reason: options.audit.trial },
    zones,
    ...(options.dataRead ? { dataRead: options.dataRead } : {}),
    rules,
    failOn: options.failOn,
    exitCode: options.exitCode,
  };
}

/** The counts (the per-zone ones, a line per zone, stay with the reports), waivers, errors, and vendorInsights when read. */
function tail(audit: Pick<AuditHeader, 'counts' | 'waivers' | 'errors'>, vendor: SideBySide | null | undefined) {
  const { byZone: _byZone, ...counts } = audit.counts;
  return { counts, waivers: audit.waivers, errors: audit.errors, vendorInsights: vendorJson(vendor) };
}

/** The document, then the findings one per line, in chunks (100,000s never become one string); texts already JSON or objects. */
function writeJson(document: object, findings: Iterable<Finding | string>, write: (text: string) => void): void {
  const text = JSON.stringify(document, null, 2);
  write(`${text.slice(0, -2)},\n  "findings": [`);
  let n = 0;
  const out = chunkedWriter(write);
  for (const f of findings) out.push(`${n++ === 0 ? '' : ','}\n    ${typeof f === 'string' ? f : JSON.stringify(f)}`);
  out.flush();
  write(`${n ? '\n  ' : ''}]\n}\n`);
}
