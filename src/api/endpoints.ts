import type { QueryValue } from './client.js';

/**
 * The list endpoints zonewarden reads, with each one's page limits (api-facts.md): lists ask for
 * the largest page so a full crawl makes the fewest calls.
 */
export interface ListEndpoint {
  /** Path template under the base URL; `{zone_id}` and `{package_id}` are filled in by callers. */
  template: string;
  maxPerPage: number;
  minPerPage: number;
  /**
   * The page size a crawl asks for when it is below the maximum. DNS allows 5,000,000 a page, but
   * a 100,000-record page is some 40 MB of JSON held at once; pages of 5,000 keep a scan's memory
   * flat for a few extra calls on the largest zones only.
   */
  crawlPerPage?: number;
  /** Query every read of this list needs (e.g. every certificate pack status, not only active). */
  query?: Record<string, QueryValue>;
}

export const LIST_ENDPOINTS = {
  accounts: { template: '/accounts', maxPerPage: 50, minPerPage: 5 },
  zones: { template: '/zones', maxPerPage: 50, minPerPage: 5 },
  dnsRecords: { template: '/zones/{zone_id}/dns_records', maxPerPage: 5_000_000, minPerPage: 1, crawlPerPage: 5000 },
  // Every status, not only active packs: `status=all` is what the API reads, `ssl_status=all` what
  // the spec names; each side ignores the other's.
  certificatePacks: { template: '/zones/{zone_id}/ssl/certificate_packs', maxPerPage: 50, minPerPage: 5, query: { status: 'all', ssl_status: 'all' } },
  firewallRules: { template: '/zones/{zone_id}/firewall/rules', maxPerPage: 100, minPerPage: 5 },
  filters: { template: '/zones/{zone_id}/filters', maxPerPage: 100, minPerPage: 5 },
  wafPackages: { template: '/zones/{zone_id}/firewall/waf/packages', maxPerPage: 100, minPerPage: 5 },
  wafGroups: { template: '/zones/{zone_id}/firewall/waf/packages/{package_id}/groups', maxPerPage: 100, minPerPage: 5 },
  wafRules: { template: '/zones/{zone_id}/firewall/waf/packages/{package_id}/rules', maxPerPage: 100, minPerPage: 5 },
  wafOverrides: { template: '/zones/{zone_id}/firewall/waf/overrides', maxPerPage: 100, minPerPage: 5 },
} as const satisfies Record<string, ListEndpoint>;

export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`path ${template} needs ${name}`);
    return encodeURIComponent(v);
  });
}

/** The known list endpoint a concrete path belongs to, e.g. for `zonewarden api --paginate`. */
export function endpointForPath(path: string): ListEndpoint | undefined {
  const parts = path.split('?')[0]!.split('/').filter(Boolean);
  return Object.values(LIST_ENDPOINTS).find((e: ListEndpoint) => {
    const t = e.template.split('/').filter(Boolean);
    return t.length === parts.length && t.every((seg, i) => seg.startsWith('{') || seg === parts[i]);
  });
}
