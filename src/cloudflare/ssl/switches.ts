/** The SSL area's switches: universal SSL and zone-level authenticated origin pulls, each `{enabled}`. */

import { bool, parseJson } from '../fields.js';

/** `GET /zones/{id}/ssl/universal/settings`. */
export function parseUniversalSsl(raw: string): { enabled: boolean | null } {
  return { enabled: bool(parseJson(raw)['enabled']) };
}

/** `GET /zones/{id}/origin_tls_client_auth/settings`: zone-level authenticated origin pulls (false by default). */
export function parseOriginPulls(raw: string): { enabled: boolean | null } {
  return { enabled: bool(parseJson(raw)['enabled']) };
}
