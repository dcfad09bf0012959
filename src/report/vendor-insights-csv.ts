import { csvRow } from './csv.js';
import type { SideBySide, VendorIssue } from './vendor-insights.js';
import { rowsInOrder } from './vendor-insights-view.js';

/**
 * vendor-insights.csv, beside findings.csv: a line per pairing of a vendor insight with zonewarden's
 * verdict (or a zonewarden failure the vendor does not flag), then the insights no rule judges
 * (`agreement` not-judged). The CSV writer neutralises formulas in the vendor's text as in zonewarden's.
 */
export const VENDOR_INSIGHTS_CSV_COLUMNS = [
  'account_id', 'zone_id', 'zone_name', 'insight_id', 'issue_class', 'insight', 'issue_type', 'severity', 'subject',
  'resolve_text', 'resolve_link', 'since', 'timestamp', 'rules', 'zonewarden', 'agreement', 'why',
] as const;

export const VENDOR_INSIGHTS_CSV = 'vendor-insights.csv';

function insightCells(i: VendorIssue | null) {
  return [i?.id, i?.issueClass, null, i?.issueType, i?.severity, i?.subject, i?.resolveText, i?.resolveLink, i?.since, i?.timestamp];
}

export function writeVendorInsightsCsv(side: SideBySide, write: (chunk: string) => void): void {
  write(csvRow(VENDOR_INSIGHTS_CSV_COLUMNS));
  for (const r of rowsInOrder(side)) {
    const cells = insightCells(r.insight);
    cells[1] = r.insight?.issueClass ?? r.type.issueClass;
    cells[2] = r.type.name;
    write(csvRow([r.insight?.accountId ?? null, r.zone.id, r.zone.name, ...cells, r.rules.join(' '), r.verdict, r.agreement, r.why]));
  }
  for (const v of side.vendorOnly) {
    const cells = insightCells(v.insight);
    cells[2] = v.name;
    write(csvRow([v.insight.accountId, v.zone?.id ?? v.insight.zoneId, v.zone?.name ?? null, ...cells, '', '', 'not-judged', v.reason]));
  }
}
