/** One insight of the vendor's scanner, Security Insights (vendor's API reference: security center, insights, list), parsed defensively. */

import { obj, parseJson, str } from '../fields.js';

/** An insight as the API served it, reduced to what the reports show (all text as served: escaped by each format). */
export interface VendorIssue {
  id: string;
  accountId: string;
  /** The zone it is about (`payload.zone_tag`); null for an account-level insight. */
  zoneId: string | null;
  issueClass: string;
  issueType: string | null;
  severity: string | null;
  subject: string | null;
  resolveText: string | null;
  resolveLink: string | null;
  since: string | null;
  /** When the vendor's scan last detected it. */
  timestamp: string | null;
}

/** An issue from its stored JSON, or null when it is not an object with an id and a class. */
export function parseIssue(raw: string, accountId: string): VendorIssue | null {
  const i = parseJson(raw);
  const id = str(i['id']);
  const issueClass = str(i['issue_class']);
  if (!id || !issueClass) return null;
  return {
    id,
    accountId,
    zoneId: str(obj(i['payload'])['zone_tag']),
    issueClass,
    issueType: str(i['issue_type']),
    severity: str(i['severity']),
    subject: str(i['subject']),
    resolveText: str(i['resolve_text']),
    resolveLink: str(i['resolve_link']),
    since: str(i['since']),
    timestamp: str(i['timestamp']),
  };
}
