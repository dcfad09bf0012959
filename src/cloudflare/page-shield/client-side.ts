/** The zone's client-side security (Page Shield) settings, parsed defensively: a missing or oddly typed field becomes null. */

import { bool, parseJson, str } from '../fields.js';

/** `GET /zones/{id}/page_shield` (vendor API reference: Page Shield settings). */
export interface PageShieldSettings {
  enabled: boolean | null;
  useCloudflareReportingEndpoint: boolean | null;
  useConnectionUrlPath: boolean | null;
  updatedAt: string | null;
}

export function parsePageShield(raw: string): PageShieldSettings {
  const s = parseJson(raw);
  return {
    enabled: bool(s['enabled']),
    useCloudflareReportingEndpoint: bool(s['use_cloudflare_reporting_endpoint']),
    useConnectionUrlPath: bool(s['use_connection_url_path']),
    updatedAt: str(s['updated_at']),
  };
}
