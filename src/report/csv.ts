import { catalogue } from '../policy/catalogue.js';
import { controlLabels, controlsOfId } from '../policy/compliance.js';
import type { Finding } from '../policy/findings.js';
import { printableField } from '../common/printable.js';
import { remediationOf } from './remediation.js';

/**
 * Findings as CSV, RFC 4180 (quotes doubled, CRLF, no BOM). Strings from the API are chosen by whoever
 * controls the zone: one a spreadsheet would run as a formula gets a leading `'` (OWASP "CSV injection"),
 * and bidirectional and invisible characters are visible escapes (`\u202e`), or an override could make
 * a domain read as another. Line breaks and tabs are quoted, not altered.
 */

type CsvValue = string | number | boolean | null | undefined;

/** Leads that make a spreadsheet read a cell as a formula (TAB and CR are stripped by some first). */
const FORMULA_LEAD = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  // Numbers and booleans are ours, not the attacker's: a negative number must stay a number.
  if (typeof value !== 'string') return String(value);
  const visible = printableField(value);
  const text = FORMULA_LEAD.test(visible) ? `'${visible}` : visible;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvRow = (values: ReadonlyArray<CsvValue>): string => `${values.map(csvCell).join(',')}\r\n`;

export const FINDINGS_CSV_COLUMNS = [
  'rule', 'category', 'severity', 'status', 'account_id', 'account_name', 'zone_id', 'zone_name',
  'resource_type', 'resource_id', 'resource_name', 'message', 'fingerprint',
  'waiver_reason', 'waiver_owner', 'waiver_expires', 'remediation', 'controls', 'data_read_on',
] as const;

/** When a zone's data was last read in full (ISO time), for the data_read_on column; '' when unknown. */
export type ReadOn = (zoneId: string) => string;

/** One finding's row; also for rows written after those of writeFindingsCsv (the passes judged again, report --passes). */
export function findingCsvRow(f: Finding, readOn?: ReadOn): string {
  return csvRow([
    f.rule, f.category, f.severity, f.status, f.account?.id, f.account?.name, f.zone?.id, f.zone?.name,
    f.resource.type, f.resource.id, f.resource.name, f.message, f.fingerprint,
    f.waiver?.reason, f.waiver?.owner, f.waiver?.expires,
    // A passing finding needs nothing done.
    f.status === 'pass' ? '' : remediationOf(f.rule),
    // What the verdict is evidence for, passes included: `PCI DSS 4.2.1; NIST SP 800-53 SC-8`.
    controlLabels(controlsOfId(f.rule, catalogue())),
    f.zone && readOn ? readOn(f.zone.id) : '',
  ]);
}

/** Writes the header and a row per finding, a `write` each: 100,000s of findings are never one string. Returns how many. */
export function writeFindingsCsv(findings: Iterable<Finding>, write: (chunk: string) => void, readOn?: ReadOn): number {
  write(csvRow(FINDINGS_CSV_COLUMNS));
  let count = 0;
  for (const finding of findings) {
    write(findingCsvRow(finding, readOn));
    count++;
  }
  return count;
}
