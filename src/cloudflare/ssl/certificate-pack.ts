/** A certificate pack as `GET /zones/{id}/ssl/certificate_packs` lists it, parsed defensively. */

import { arr, date, obj, parseJson, str, strings } from '../fields.js';

export interface Certificate {
  id: string;
  hosts: string[];
  status: string | null;
  /** Null while the pack is being issued. */
  expiresOn: Date | null;
  /** When the certificate was issued (the API's `uploaded_on`), when it says. */
  uploadedOn: Date | null;
}

export interface CertificatePack {
  id: string;
  type: string | null;
  status: string | null;
  hosts: string[];
  certificates: Certificate[];
  validationErrors: string[];
  /** The validity the pack orders (14, 30, 90 or 365 days), when the API says. */
  validityDays: number | null;
  createdOn: Date | null;
  /** The CA that issues the pack (`lets_encrypt`, `google`, `ssl_com`, `digicert`, `sectigo`), when the API says. */
  certificateAuthority: string | null;
}

export function parseCertificatePack(id: string, raw: string): CertificatePack {
  const p = parseJson(raw);
  return {
    id,
    type: str(p['type']),
    status: str(p['status']),
    hosts: strings(p['hosts']),
    certificates: arr(p['certificates']).map((c, i) => {
      const o = obj(c);
      return { id: str(o['id']) ?? `${id}#${i}`, hosts: strings(o['hosts']), status: str(o['status']), expiresOn: date(o['expires_on']), uploadedOn: date(o['uploaded_on']) };
    }),
    validationErrors: arr(p['validation_errors']).flatMap((e) => str(obj(e)['message']) ?? []),
    validityDays: typeof p['validity_days'] === 'number' && p['validity_days'] > 0 ? p['validity_days'] : null,
    createdOn: date(p['created_on']),
    certificateAuthority: str(p['certificate_authority']),
  };
}
