/** `GET /zones/{id}/dnssec`, parsed defensively. */

import { date, parseJson, str } from '../fields.js';

export interface Dnssec {
  status: string | null;
  modifiedOn: Date | null;
}

export function parseDnssec(raw: string): Dnssec {
  const d = parseJson(raw);
  return { status: str(d['status']), modifiedOn: date(d['modified_on']) };
}
