/** The zone's security.txt, parsed defensively: a missing or oddly typed field becomes null (or an empty list). */

import { bool, date, parseJson, str, strings } from '../fields.js';

/** `GET /zones/{id}/security-center/securitytxt` (vendor API reference: Security TXT; RFC 9116 fields). */
export interface SecurityTxt {
  enabled: boolean | null;
  contact: string[];
  /** RFC 9116 2.5.5: when the file's content goes stale; null when absent or not a date. */
  expires: Date | null;
  /** The `expires` field as served, for messages (null when absent). */
  expiresText: string | null;
  encryption: string[];
  policy: string[];
}

export function parseSecurityTxt(raw: string): SecurityTxt {
  const s = parseJson(raw);
  const expiresText = str(s['expires']);
  return {
    enabled: bool(s['enabled']),
    contact: strings(s['contact']).filter((c) => c.trim() !== ''),
    expires: date(expiresText),
    expiresText,
    encryption: strings(s['encryption']),
    policy: strings(s['policy']),
  };
}
