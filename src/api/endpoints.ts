import {
  fillPath,
  partitionsWhere,
  specOf,
  type DeclarableAccountRead,
  type DeclarableObject,
  type ListPaging,
  type ListPartition,
  type Partition,
  type ResolvedRead,
} from '../cloudflare/reads.js';
import type { QueryValue } from './request.js';

/** A page/per_page list zonewarden reads: its path template (`{zone_id}`, `{package_id}` filled in by callers) and page limits (the registry's ListPaging). */
export type ListEndpoint = Omit<ListPaging, 'kind' | 'query'> & { template: string; query?: Record<string, QueryValue> };

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
const camel = (s: string) => s.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

/** The registry's page/per_page lists by their camel-cased partition name (`dnsRecords`), as the crawler and the write commands ask for them. */
export const LIST_ENDPOINTS = Object.fromEntries(
  partitionsWhere((s) => s.paging.kind === 'list').map((p) => {
    const { kind: _, ...limits } = specOf(p).paging as ListPaging;
    return [camel(p), { template: specOf(p).api!, ...limits }];
  }),
) as { readonly [P in ListPartition as Camel<P>]: ListEndpoint };

export { fillPath };

/** The known list endpoint a concrete path belongs to, e.g. for `zonewarden api --paginate`. */
export function endpointForPath(path: string): ListEndpoint | undefined {
  const parts = path.split('?')[0]!.split('/').filter(Boolean);
  return Object.values(LIST_ENDPOINTS).find((e: ListEndpoint) => {
    const t = e.template.split('/').filter(Boolean);
    return t.length === parts.length && t.every((seg, i) => seg.startsWith('{') || seg === parts[i]);
  });
}

/**
 * The zone settings zonewarden may read, one call each at `GET /zones/{zone_id}/settings/{id}` (the
 * batch endpoint is retired); a scan reads only those a rule declares in `meta.reads`.
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

const apiOf = <P extends Partition>(partitions: readonly P[]) => Object.fromEntries(partitions.map((p) => [p, specOf(p).api!])) as Readonly<Record<P, string>>;

/**
 * The per-zone objects a rule may declare it reads (the registry's `rules: 'object'`) with their
 * paths, in the scan summary's order: the registry's, but the rate limiting entry point comes after
 * origin pulls, where it was added (the registry keeps drift's order).
 */
const declarableObjects = partitionsWhere((s) => s.rules === 'object') as DeclarableObject[];
const rateLimiting = declarableObjects.splice(declarableObjects.indexOf('ratelimit_entrypoint'), 1);
declarableObjects.splice(declarableObjects.indexOf('origin_pulls') + 1, 0, ...rateLimiting);
export const ZONE_OBJECT_READS = apiOf(declarableObjects);

/** What the scan works out without an API call: `dns_targets`, the names the zone's records point at, resolved through DNS. */
export const RESOLVED_READS = partitionsWhere((s) => s.rules === 'resolved') as ResolvedRead[];
export type { ResolvedRead };

/** What a rule may declare of an account: read once per account of the scan, stored in `account_objects`. */
export const ACCOUNT_READS = apiOf(partitionsWhere((s) => s.rules === 'account') as DeclarableAccountRead[]);
export type AccountRead = DeclarableAccountRead;

/** The partitions a rule may declare by name in `meta.reads` (besides `setting:<id>`), in the registry's order. */
export const DECLARABLE_READS = partitionsWhere((s) => s.rules !== undefined) as Array<DeclarableObject | ResolvedRead | AccountRead>;

/** What a rule declares it needs read beyond the zone's lists: `setting:<id>`, an object of ZONE_OBJECT_READS, one of RESOLVED_READS, or an account read (ACCOUNT_READS). */
export type DeclaredRead = `setting:${ZoneSetting}` | keyof typeof ZONE_OBJECT_READS | ResolvedRead | AccountRead;

export function isDeclaredRead(value: unknown): value is DeclaredRead {
  if (typeof value !== 'string') return false;
  if (value.startsWith('setting:')) return (ZONE_SETTINGS as readonly string[]).includes(value.slice(8));
  return (DECLARABLE_READS as readonly string[]).includes(value);
}

/** The extra reads of a scan: the union of what the rules declare, settings in table order. */
export interface DeclaredReads {
  settings: readonly ZoneSetting[];
  objects: ReadonlyArray<keyof typeof ZONE_OBJECT_READS>;
  /** None when absent. */
  resolved?: readonly ResolvedRead[];
  /** Read per account, not per zone; none when absent. */
  accounts?: readonly AccountRead[];
}

export function declaredReadsOf(declared: Iterable<readonly DeclaredRead[] | undefined>): DeclaredReads {
  const all = new Set<string>();
  for (const reads of declared) for (const r of reads ?? []) all.add(r);
  return {
    settings: ZONE_SETTINGS.filter((s) => all.has(`setting:${s}`)),
    objects: (Object.keys(ZONE_OBJECT_READS) as Array<keyof typeof ZONE_OBJECT_READS>).filter((o) => all.has(o)),
    resolved: RESOLVED_READS.filter((r) => all.has(r)),
    accounts: (Object.keys(ACCOUNT_READS) as AccountRead[]).filter((r) => all.has(r)),
  };
}

/** The calls a scan adds per zone for these reads (at most; the legacy `waf` switch is skipped where it cannot exist); account reads are per account, not counted here. */
export function callsPerZone(reads: DeclaredReads): number {
  return reads.settings.length + reads.objects.length;
}
