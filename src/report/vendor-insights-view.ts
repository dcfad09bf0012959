import type { Agreement, SideBySide, SideBySideRow } from './vendor-insights.js';

/** The side-by-side of the vendor's scanner and zonewarden as the reports show it: plain text, escaped by each format. */

export const AGREEMENT_LABEL: Record<Agreement, string> = {
  agree: 'agree',
  'vendor-only': 'vendor flags, zonewarden passes',
  'vendor-older': "vendor's data is older",
  'zonewarden-only': 'zonewarden fails, vendor does not flag',
  unknown: 'zonewarden could not judge',
};

const VERDICT_LABEL = { fail: 'fail', waived: 'fail (waived)', unknown: 'unknown', pass: 'pass' } as const;

type VendorRowText = ReturnType<typeof vendorRowText>;

function vendorRowText(r: SideBySideRow) {
  return {
    zone: r.zone.name,
    insight: r.insight ? r.type.name : `(not flagged: ${r.type.name})`,
    issueClass: r.type.issueClass ?? '',
    severity: r.insight?.severity ?? '',
    subject: r.insight?.subject ?? '',
    resolve: r.insight?.resolveText ?? '',
    zonewarden: `${VERDICT_LABEL[r.verdict]}${r.findings[0] ? `: ${r.findings[0].message}` : ''}`,
    rules: r.rules.join(', '),
    agreement: r.agreement,
    agreementLabel: AGREEMENT_LABEL[r.agreement],
    why: r.why,
  };
}

/** Differences first (what needs a look), agreements last; in each, by zone. */
export function rowsInOrder(side: SideBySide): SideBySideRow[] {
  const rank: Record<Agreement, number> = { 'vendor-only': 0, 'zonewarden-only': 1, 'vendor-older': 2, unknown: 3, agree: 4 };
  return [...side.rows].sort((a, b) => rank[a.agreement] - rank[b.agreement] || a.zone.name.localeCompare(b.zone.name) || a.type.name.localeCompare(b.type.name));
}

/** A group of more rows than this is collapsed behind its count in report.html. */
const OPEN_GROUP = 10;

/** The section's view for the HTML and Markdown reports, `limit` rows of each list at most. */
export function vendorSection(side: SideBySide, limit: number, text: (s: string) => string = (s) => s) {
  const rows = rowsInOrder(side);
  const esc = (r: VendorRowText) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'agreement' ? v : text(v)])) as unknown as VendorRowText;
  const ofKind = (a: Agreement) => rows.filter((r) => r.agreement === a);
  return {
    // report.html: one group per kind, the differences first, a long group collapsed behind its count.
    groups: (['vendor-only', 'zonewarden-only', 'vendor-older', 'unknown', 'agree'] as const)
      .map((a) => ({ agreement: a, label: AGREEMENT_LABEL[a], all: ofKind(a) }))
      .filter((g) => g.all.length > 0)
      .map((g) => ({ agreement: g.agreement, label: g.label, count: g.all.length, open: g.all.length <= OPEN_GROUP, rows: g.all.slice(0, limit).map((r) => esc(vendorRowText(r))), more: Math.max(0, g.all.length - limit) })),
    counts: [
      ...(Object.entries(AGREEMENT_LABEL) as Array<[Agreement, string]>).map(([a, label]) => ({ label, count: side.counts[a] })),
      { label: 'not judged by zonewarden', count: side.counts.notJudged },
    ],
    // How many accounts' views were read, and why the others were not.
    accountsRead: side.accounts.filter((a) => a.state === 'read').length,
    notRead: side.accounts
      .filter((a) => a.state !== 'read')
      .map((a) => ({ account: text(a.name ?? a.id), state: a.state, reason: text(a.reason ?? a.state) })),
    rows: rows.slice(0, limit).map((r) => esc(vendorRowText(r))),
    more: Math.max(0, rows.length - limit),
    apart: side.vendorOnly.slice(0, limit).map((v) => ({
      zone: text(v.zone?.name ?? '(account)'),
      insight: text(v.name),
      issueClass: text(v.insight.issueClass),
      severity: text(v.insight.severity ?? ''),
      subject: text(v.insight.subject ?? ''),
      reason: text(v.reason),
    })),
    apartCount: side.vendorOnly.length,
    apartMore: Math.max(0, side.vendorOnly.length - limit),
  };
}
