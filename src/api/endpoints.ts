import type { QueryValue } from './request.js';

/**
 * The list endpoints zonewarden reads, with each one's page limits (docs/api-surface.md): lists ask for
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

/**
 * The zone security settings zonewarden may read, one call each at `GET /zones/{zone_id}/settings/{id}`
 * (the batch settings endpoint is retired). A scan reads only those a rule of the catalogue
 * declares in `meta.reads`, so the calls per zone stay known.
 */
export const ZONE_SETTINGS = [
  'ssl',
  'min_tls_version',
  'tls_1_3',
  'always_use_https',
  'automatic_https_rewrites',
  'security_header',
  'security_level',
  'browser_check',
  'waf',
  'development_mode',
  'always_online',
  'email_obfuscation',
  'hotlink_protection',
  'ip_geolocation',
  'challenge_ttl',
] as const;
export type ZoneSetting = (typeof ZONE_SETTINGS)[number];

/** The per-zone single objects a rule may declare it reads, besides the settings. */
export const ZONE_OBJECT_READS = {
  dnssec: '/zones/{zone_id}/dnssec',
  universal_ssl: '/zones/{zone_id}/ssl/universal/settings',
  custom_entrypoint: '/zones/{zone_id}/rulesets/phases/http_request_firewall_custom/entrypoint',
  bot_management: '/zones/{zone_id}/bot_management',
  // Zone-level authenticated origin pulls (`{enabled}`); the global switch and per-hostname pulls are other endpoints.
  origin_pulls: '/zones/{zone_id}/origin_tls_client_auth/settings',
  ratelimit_entrypoint: '/zones/{zone_id}/rulesets/phases/http_ratelimit/entrypoint',
} as const;

/**
 * What a rule may declare that the scan works out itself, with no API call: `dns_targets`, the
 * names the zone's CNAME, MX, NS and SRV records point at, resolved through DNS (src/crawler/resolve/).
 */
export const RESOLVED_READS = ['dns_targets'] as const;
export type ResolvedRead = (typeof RESOLVED_READS)[number];

/** What a rule declares it needs read beyond the zone's lists: `setting:<id>`, an object of ZONE_OBJECT_READS, or one of RESOLVED_READS. */
export type ZoneRead = `setting:${ZoneSetting}` | keyof typeof ZONE_OBJECT_READS | ResolvedRead;

export function isZoneRead(value: unknown): value is ZoneRead {
  if (typeof value !== 'string') return false;
  if (value.startsWith('setting:')) return (ZONE_SETTINGS as readonly string[]).includes(value.slice(8));
  return Object.hasOwn(ZONE_OBJECT_READS, value) || (RESOLVED_READS as readonly string[]).includes(value);
}

/** The extra reads of a scan: the union of what the rules declare, settings in table order. */
export interface ZoneReads {
  settings: readonly ZoneSetting[];
  objects: ReadonlyArray<keyof typeof ZONE_OBJECT_READS>;
  /** What the scan works out without the API (no calls); none when absent. */
  resolved?: readonly ResolvedRead[];
}

export function zoneReadsOf(declared: Iterable<readonly ZoneRead[] | undefined>): ZoneReads {
  const all = new Set<string>();
  for (const reads of declared) for (const r of reads ?? []) all.add(r);
  return {
    settings: ZONE_SETTINGS.filter((s) => all.has(`setting:${s}`)),
    objects: (Object.keys(ZONE_OBJECT_READS) as Array<keyof typeof ZONE_OBJECT_READS>).filter((o) => all.has(o)),
    resolved: RESOLVED_READS.filter((r) => all.has(r)),
  };
}

/** The calls a scan adds per zone for these reads (at most; the legacy `waf` switch is skipped where it cannot exist). */
export function callsPerZone(reads: ZoneReads): number {
  return reads.settings.length + reads.objects.length;
}
