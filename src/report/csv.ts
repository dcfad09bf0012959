import { catalogue } from '../policy/catalogue.js';
import { controlLabels, controlsOfId } from '../policy/compliance.js';
import type { Finding } from '../policy/findings.js';
import { printableField } from '../common/printable.js';
import { remediationOf } from './remediation.js';

/**
 * Findings as CSV, for spreadsheets and other tools. Fields follow RFC 4180 (quotes doubled, CRLF
 * line breaks, no BOM) so any conforming reader gets the same cells back. Findings carry strings
 * read from the API (zone, record and rule names) that whoever controls the zone can choose, so a
 * string that a spreadsheet would run as a formula is neutralised with a leading `'` (OWASP "CSV
 * injection"). Bidirectional controls and invisible characters are written as visible escapes
 * (`\u202e`), as every report shows them: a spreadsheet would otherwise let an override reverse
 * the cell, so a domain reads as another one. Nothing else is altered: line breaks and tabs are
 * quoted, and the reader decides how to show them.
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

export function csvRow(values: ReadonlyArray<CsvValue>): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

export const FINDINGS_CSV_COLUMNS = [
  'rule',
  'category',
  'severity',
  'status',
  'account_id',
  'account_name',
  'zone_id',
  'zone_name',
  'resource_type',
  'resource_id',
  'resource_name',
  'message',
  'fingerprint',
  'waiver_reason',
  'waiver_owner',
  'waiver_expires',
  'remediation',
  'controls',
  'data_read_on',
] as const;

/** When a zone's data was last read in full (ISO time), for the data_read_on column; '' when unknown. */
export type ReadOn = (zoneId: string) => string;

function findingCells(f: Finding, readOn?: ReadOn): CsvValue[] {
  return [
    f.rule,
    f.category,
    f.severity,
    f.status,
    f.account?.id,
    f.account?.name,
    f.zone?.id,
    f.zone?.name,
    f.resource.type,
    f.resource.id,
    f.resource.name,
    f.message,
    f.fingerprint,
    f.waiver?.reason,
    f.waiver?.owner,
    f.waiver?.expires,
    // A passing finding needs nothing done.
    f.status === 'pass' ? '' : remediationOf(f.rule),
    // What the verdict is evidence for, passes included: `PCI DSS 4.2.1; NIST SP 800-53 SC-8`.
    controlLabels(controlsOfId(f.rule, catalogue())),
    f.zone && readOn ? readOn(f.zone.id) : '',
  ];
}

/** One finding's row: for rows written after those of writeFindingsCsv (the passes judged again, report --passes). */
export function findingCsvRow(f: Finding, readOn?: ReadOn): string {
  return csvRow(findingCells(f, readOn));
}

/**
 * Writes the header and one row per finding, one `write` call per row: an organisation's scan can
 * hold hundreds of thousands of findings, so the file is never built in memory. Returns the number
 * of findings written.
 */
export function writeFindingsCsv(findings: Iterable<Finding>, write: (chunk: string) => void, readOn?: ReadOn): number {
  write(csvRow(FINDINGS_CSV_COLUMNS));
  let count = 0;
  for (const finding of findings) {
    write(findingCsvRow(finding, readOn));
    count++;
  }
  return count;
}
