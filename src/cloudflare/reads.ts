import { keptMember } from './accounts/member.js';
import { bool, byId, int, obj, str, strings, text, type Item } from './item.js';

/**
 * The registry of what zonewarden reads of the vendor's API, one entry per partition: the snapshot's
 * tables, the rules' reads, drift's kinds, the fixture and the crawler's reads all derive from it
 * (docs/development.md, "Adding a read"). The order is drift's: it lists changes in it.
 */

/** What a partition is stored per: the user, an account, or a zone. */
export type PartitionKind = 'user' | 'account' | 'zone';

/**
 * When a read is made again, beyond a zone's first read and its full-read turn: `zone-changed` when
 * the audit log or zone list says so (it changes only through logged writes); `ruleset-version` when
 * also the rulesets list shows another version; `date` every night while stored data says a change
 * can come unlogged (a certificate renewing, DNSSEC pending); `terminal` never once a final state shows.
 */
export type Refresh = 'zone-changed' | 'ruleset-version' | 'date' | 'terminal';

/** A page/per_page list and its limits (docs/api-surface.md): a crawl asks for the largest page. */
export interface ListPaging {
  kind: 'list';
  maxPerPage: number;
  minPerPage: number;
  /** The page a crawl asks for, when below the maximum: a 100,000-record DNS page is 40 MB of JSON held at once. */
  crawlPerPage?: number;
  /** Query every read of this list needs (e.g. every certificate pack status, not only active). */
  query?: Record<string, string>;
}

/** How a partition's answer comes. */
export type Paging =
  | ListPaging
  /** A cursor-paged list, `perPage` the largest page, `minPerPage` the smallest (where a probe asks for it). */
  | { kind: 'cursor'; perPage: number; minPerPage?: number }
  /** Pages of `perPage` ended by the answer's count. */
  | { kind: 'counted-pages'; perPage: number }
  /** One object; `absentCode`: the API error that means there is none (10003: the phase has no entry point yet, vendor docs: rulesets API, entry point of a phase). */
  | { kind: 'object'; absentCode?: number }
  /** A list served whole, in one answer. */
  | { kind: 'whole' }
  /** One call per setting asked, each an object. */
  | { kind: 'per-setting' }
  /** An item of the zone listing, each zone its own partition. */
  | { kind: 'listed' }
  /** Asked of DNS, not of the API. */
  | { kind: 'dns' };

/** A row's columns in a dedicated table. */
export type Row = Record<string, string | number | null>;

/** Where a partition is stored: its own table, with the columns rules query beside the raw JSON, or zone_objects / account_objects. */
export type Storage =
  | { table: 'zone_objects' | 'account_objects'; itemId?: (item: Item) => string; kept?: (item: Item) => Item }
  | { table: string; columns: (item: Item) => Row; itemId?: (item: Item) => string };

/** How drift compares a partition's items: as resources of this type. */
export interface DriftIdentity {
  type: string;
  /** What a person calls it, for text and Markdown. */
  label: string;
  /** How to name one for a person (`shorten` cuts long text as drift shows it); none: it is the zone's only one. */
  name?(item: Item, shorten: (text: string, max: number) => string): string | null;
}

/** What a rule declares in `meta.reads` to have a partition read: a zone object (its partition's name), an account read, or a resolved read (no API call). */
export type RuleRead = 'object' | 'account' | 'resolved';

/** The declaration of a read (the crawler's module does it), on the partition whose read it is. */
export interface ReadEntry {
  /** A name for people (docs/scanning.md, the calls table). */
  name: string;
  refresh: Refresh;
  /** A read the audit can do without: a refusal (401, 403) is listed as not permitted, and the scan stays complete. */
  optional?: true;
  /** What it requests, for people, when more than `GET <api>`. */
  requests?: string;
  /** The other partitions the read writes, in order. */
  also?: readonly string[];
}

export interface PartitionSpec {
  kind: PartitionKind;
  /** The API path template it is read from (`{zone_id}`, `{account_id}`... filled in); null when not from the API. */
  api: string | null;
  paging: Paging;
  /** Where it is stored; null: it stores nothing of its own. */
  storage: Storage | null;
  drift?: DriftIdentity;
  /** The field of the rule fixture (FixtureZone, or FixtureSpec for the user's and accounts' partitions) that describes it. */
  fixture?: string;
  rules?: RuleRead;
  read?: ReadEntry;
  /**
   * The permission group it is read with, as the token form names it (category · group · level); none where the
   * vendor's reference names none. README.md and docs/first-scan.md list each (test/config/permissions-doc.test.ts).
   */
  permission?: string;
  /**
   * Its request probes its permission group (the group's cheapest call about a zone) when no read of the night has
   * said yet whether the token may read it (crawler/incremental/permissions.ts). `alone`: checked as a group of its own.
   */
  probe?: 'group' | 'alone';
  /** Stored for the crawler's next scan alone (what it need not read again), not served to rules. */
  crawlerOnly?: true;
}

/** A page/per_page list's limits. */
const list = <const L extends Omit<ListPaging, 'kind'>>(limits: L) => ({ kind: 'list', ...limits }) as const;
const shared = <const T extends 'zone_objects' | 'account_objects'>(table: T) => ({ table, itemId: byId }) as const;
const OBJECT = { kind: 'object' } as const;

/** The previous firewall's and WAF's lists: one permission, one page size. */
const FIREWALL = {
  kind: 'zone',
  permission: 'Zone · Firewall Services · Read',
  paging: list({ maxPerPage: 100, minPerPage: 5 }),
} as const;

/** A single object of the zone (paged as OBJECT unless told): its partition's only row in zone_objects. */
function zoneObject<const T extends Omit<PartitionSpec, 'kind' | 'api' | 'storage' | 'paging'> & { paging?: Paging }>(api: string, rest: T) {
  return { kind: 'zone', api, paging: OBJECT, storage: { table: 'zone_objects' }, ...rest } as const;
}

/** A phase's entry point, named by its `name`; its drift label is its read's name. */
function entrypointObject<const T extends Pick<PartitionSpec, 'fixture' | 'rules'>>(api: string, type: string, label: string, read: Omit<ReadEntry, 'name'>, rest: T) {
  const permission = api.startsWith('/accounts/') ? 'Account · Account WAF · Read' : 'Zone · Zone WAF · Read';
  // 10003: the phase has no entry point yet (vendor docs: rulesets API, entry point of a phase).
  const paging = { kind: 'object', absentCode: 10003 } as const;
  return zoneObject(api, { permission, paging, drift: { type, label, name: (i: Item) => text(i['name']) }, read: { name: label, ...read }, ...rest });
}

/** The certificate packs' hosts, as drift names a pack (and a certificate). */
export function hostsOf(i: Item, shorten: (text: string, max: number) => string): string | null {
  const h = strings(i['hosts']);
  return h.length === 0 ? null : shorten(h.length > 3 ? `${h.slice(0, 3).join(', ')} and ${h.length - 3} more` : h.join(', '), 120);
}

export const PARTITIONS = {
  accounts: {
    kind: 'user',
    api: '/accounts',
    paging: list({ maxPerPage: 50, minPerPage: 5 }),
    storage: { table: 'accounts', columns: (i) => ({ name: str(i['name']), type: str(i['type']) }) },
    drift: { type: 'account', label: 'account', name: (i) => text(i['name']) },
    fixture: 'accounts',
  },
  invites: {
    kind: 'user', permission: 'User · Memberships · Read',
    api: '/user/invites',
    paging: { kind: 'whole' },
    storage: { table: 'invites', columns: (i) => ({ status: str(i['status']), organization_id: str(i['organization_id']) }) },
    drift: { type: 'invite', label: 'invite', name: (i) => text(i['organization_name']) ?? text(i['organization_id']) },
    fixture: 'invites',
  },
  // The account's zone listing stores nothing of its own: each zone is its own partition.
  zones: { kind: 'account', api: '/zones', paging: list({ maxPerPage: 50, minPerPage: 5 }), storage: null, permission: 'Zone · Zone · Read' },
  zone: {
    kind: 'zone', permission: 'Zone · Zone · Read',
    api: null,
    paging: { kind: 'listed' },
    storage: {
      table: 'zones',
      columns: (i) => ({
        account_id: str(obj(i['account'])['id']),
        name: str(i['name']) ?? '',
        status: str(i['status']),
        paused: bool(i['paused']),
        plan: str(obj(i['plan'])['legacy_id']),
        type: str(i['type']),
      }),
    },
    drift: { type: 'zone', label: 'zone', name: (i) => text(i['name']) },
  },
  dns_records: {
    kind: 'zone', permission: 'Zone · DNS · Read',
    api: '/zones/{zone_id}/dns_records',
    paging: list({ maxPerPage: 5_000_000, minPerPage: 1, crawlPerPage: 5000 }),
    // Stored as served: a record the API answers with `data` and no `content` (CAA in the wild)
    // has no content here either; rules read its `data` from the raw item (reader.ts).
    storage: { table: 'dns_records', columns: (i) => ({ type: str(i['type']), name: str(i['name']), content: str(i['content']), proxied: bool(i['proxied']), ttl: int(i['ttl']) }) },
    drift: { type: 'dns_record', label: 'DNS record', name: (i) => [text(i['type']), text(i['name'])].filter(Boolean).join(' ') || null },
    fixture: 'dnsRecords',
    read: { name: 'DNS records', refresh: 'zone-changed' },
  },
  certificate_packs: {
    kind: 'zone', permission: 'Zone · SSL and Certificates · Read',
    api: '/zones/{zone_id}/ssl/certificate_packs',
    // Every status, not only active packs: `status=all` is what the API reads, `ssl_status=all` what
    // the spec names; each side ignores the other's.
    paging: list({ maxPerPage: 50, minPerPage: 5, query: { status: 'all', ssl_status: 'all' } }),
    storage: { table: 'certificate_packs', columns: (i) => ({ type: str(i['type']), status: str(i['status']) }) },
    drift: { type: 'certificate_pack', label: 'certificate pack', name: hostsOf },
    fixture: 'certificatePacks',
    read: { name: 'certificate packs', refresh: 'date' },
  },
  firewall_rules: {
    ...FIREWALL,
    api: '/zones/{zone_id}/firewall/rules',
    storage: {
      table: 'firewall_rules',
      columns: (i) => {
        const filter = obj(i['filter']);
        return { action: str(i['action']), paused: bool(i['paused']), priority: int(i['priority']), filter_id: str(filter['id']), filter_deleted: filter['deleted'] === true ? 1 : 0 };
      },
    },
    drift: { type: 'firewall_rule', label: 'firewall rule', name: (i) => text(i['description']) ?? text(i['ref']) },
    fixture: 'firewallRules',
    read: { name: 'firewall rules', refresh: 'zone-changed' },
  },
  filters: {
    ...FIREWALL, probe: 'group',
    api: '/zones/{zone_id}/filters',
    storage: { table: 'filters', columns: (i) => ({ expression: str(i['expression']), paused: bool(i['paused']) }) },
    drift: { type: 'filter', label: 'filter', name: (i, shorten) => text(i['description']) ?? text(i['ref']) ?? (text(i['expression']) && shorten(i['expression'] as string, 80)) },
    fixture: 'filters',
    read: { name: 'filters', refresh: 'zone-changed' },
  },
  migration_status: zoneObject('/zones/{zone_id}/waf_migration/status', {
    drift: { type: 'migration_status', label: 'migration status' },
    fixture: 'migrationStatus',
    read: {
      name: 'WAF migration status, check and configuration',
      requests: 'GET /zones/{zone_id}/waf_migration/status (then /check and /config with phase_two=1)',
      refresh: 'terminal',
      // What the status says is there to read: read or skipped together after it.
      also: ['migration_check', 'migration_config', 'waf_packages', 'waf_groups', 'waf_rules', 'waf_overrides'],
    },
  }),
  migration_check: zoneObject('/zones/{zone_id}/waf_migration/check', { drift: { type: 'migration_check', label: 'migration check' }, fixture: 'migrationCheck' }),
  migration_config: zoneObject('/zones/{zone_id}/waf_migration/config', { drift: { type: 'migration_config', label: 'migration configuration' }, fixture: 'migrationConfig' }),
  entrypoint: entrypointObject('/zones/{zone_id}/rulesets/phases/http_request_firewall_managed/entrypoint', 'ruleset_entrypoint', 'managed rules entry point', {
    refresh: 'ruleset-version',
  }, { fixture: 'entrypoint' }),
  // One row per setting read, a drift resource named by its id: a changed value is field-level drift of that row.
  zone_settings: {
    kind: 'zone', permission: 'Zone · Zone Settings · Read', probe: 'group',
    api: '/zones/{zone_id}/settings/{setting_id}',
    paging: { kind: 'per-setting' },
    storage: shared('zone_objects'),
    drift: { type: 'zone_setting', label: 'zone setting', name: (i) => text(i['id']) },
    fixture: 'settings',
    read: { name: 'zone settings', requests: 'GET /zones/{zone_id}/settings/{setting_id} (one call per declared setting)', refresh: 'zone-changed' },
  },
  dnssec: zoneObject('/zones/{zone_id}/dnssec', {
    permission: 'Zone · DNS · Read', probe: 'group',
    drift: { type: 'dnssec', label: 'DNSSEC' },
    fixture: 'dnssec', rules: 'object',
    read: { name: 'DNSSEC', refresh: 'date' },
  }),
  universal_ssl: zoneObject('/zones/{zone_id}/ssl/universal/settings', {
    permission: 'Zone · SSL and Certificates · Read', probe: 'group',
    drift: { type: 'universal_ssl', label: 'universal SSL setting' },
    fixture: 'universalSsl', rules: 'object',
    read: { name: 'Universal SSL settings', refresh: 'zone-changed' },
  }),
  custom_entrypoint: entrypointObject('/zones/{zone_id}/rulesets/phases/http_request_firewall_custom/entrypoint', 'custom_rules_entrypoint', 'custom rules entry point', {
    refresh: 'ruleset-version',
  }, { fixture: 'customEntrypoint', rules: 'object' }),
  // The account's managed-phase entry point as it applies to the zone: read once per account, kept with each zone.
  account_entrypoint: entrypointObject(
    '/accounts/{account_id}/rulesets/phases/http_request_firewall_managed/entrypoint',
    'account_ruleset_entrypoint',
    'account managed rules entry point',
    // A token without the account's rulesets permission still audits every zone's own entry point.
    { refresh: 'date', optional: true },
    { fixture: 'accountEntrypoint' },
  ),
  ratelimit_entrypoint: entrypointObject('/zones/{zone_id}/rulesets/phases/http_ratelimit/entrypoint', 'ratelimit_entrypoint', 'rate limiting rules entry point', {
    refresh: 'ruleset-version',
  }, { fixture: 'rateLimitEntrypoint', rules: 'object' }),
  bot_management: zoneObject('/zones/{zone_id}/bot_management', {
    permission: 'Zone · Bot Management · Read', probe: 'group',
    drift: { type: 'bot_management', label: 'bot management settings' },
    fixture: 'botManagement', rules: 'object',
    read: { name: 'bot management settings', refresh: 'zone-changed' },
  }),
  // Zone-level authenticated origin pulls (`{enabled}`); the global switch and per-hostname pulls are other endpoints.
  origin_pulls: zoneObject('/zones/{zone_id}/origin_tls_client_auth/settings', {
    permission: 'Zone · SSL and Certificates · Read',
    drift: { type: 'origin_pulls', label: 'authenticated origin pulls setting' },
    fixture: 'originPulls', rules: 'object',
    read: { name: 'authenticated origin pulls setting', refresh: 'zone-changed' },
  }),
  // Client-side security (formerly Page Shield) settings: `{enabled, use_cloudflare_reporting_endpoint, use_connection_url_path, updated_at}`.
  page_shield: zoneObject('/zones/{zone_id}/page_shield', {
    permission: 'Zone · Page Shield · Read', probe: 'group',
    drift: { type: 'page_shield', label: 'client-side security settings' },
    fixture: 'pageShield', rules: 'object',
    read: { name: 'client-side security settings', refresh: 'zone-changed', optional: true },
  }),
  // The security.txt the edge serves for the zone (RFC 9116 fields: contact, expires, encryption, policy...).
  security_txt: zoneObject('/zones/{zone_id}/security-center/securitytxt', {
    // The settings' permission (vendor API reference: Security TXT), checked on its own: the settings' probe asks a
    // setting, which a night that reads every zone's settings would otherwise ask once more than a full scan.
    permission: 'Zone · Zone Settings · Read', probe: 'alone',
    drift: { type: 'security_txt', label: 'security.txt' },
    fixture: 'securityTxt', rules: 'object',
    read: { name: 'security.txt', refresh: 'zone-changed' },
  }),
  // One row per target name resolved for the zone's records (the resolution is part of the scan).
  dns_targets: {
    kind: 'zone',
    api: null,
    paging: { kind: 'dns' },
    storage: { table: 'zone_objects', itemId: (i) => str(i['name']) ?? JSON.stringify(i) },
    drift: { type: 'dns_target', label: 'DNS target resolution', name: (i) => text(i['name']) },
    fixture: 'dnsTargets', rules: 'resolved',
    read: { name: 'DNS target resolution', requests: 'DNS (type CNAME questions for the targets of CNAME, MX, NS and SRV records)', refresh: 'date' },
  },
  waf_packages: {
    ...FIREWALL,
    api: '/zones/{zone_id}/firewall/waf/packages',
    storage: { table: 'waf_packages', columns: (i) => ({ name: str(i['name']), detection_mode: str(i['detection_mode']), sensitivity: str(i['sensitivity']), action_mode: str(i['action_mode']) }) },
    drift: { type: 'waf_package', label: 'WAF package', name: (i) => text(i['name']) },
    fixture: 'wafPackages',
  },
  waf_groups: {
    ...FIREWALL,
    api: '/zones/{zone_id}/firewall/waf/packages/{package_id}/groups',
    storage: {
      table: 'waf_groups',
      // Group ids are unique per package only.
      itemId: (i) => `${str(i['package_id'])}/${byId(i)}`,
      columns: (i) => ({ package_id: str(i['package_id']), name: str(i['name']), mode: str(i['mode']), modified_rules_count: int(i['modified_rules_count']) }),
    },
    drift: { type: 'waf_group', label: 'WAF group', name: (i) => text(i['name']) },
    fixture: 'wafGroups',
  },
  waf_rules: {
    ...FIREWALL,
    api: '/zones/{zone_id}/firewall/waf/packages/{package_id}/rules',
    storage: {
      table: 'waf_rules',
      itemId: (i) => `${str(i['package_id'])}/${byId(i)}`,
      columns: (i) => ({ package_id: str(i['package_id']), group_id: str(obj(i['group'])['id']), mode: str(i['mode']), default_mode: str(i['default_mode']) }),
    },
    drift: { type: 'waf_rule', label: 'WAF rule', name: (i) => text(i['description']) },
    fixture: 'wafRules',
  },
  waf_overrides: {
    ...FIREWALL,
    api: '/zones/{zone_id}/firewall/waf/overrides',
    storage: { table: 'waf_overrides', columns: (i) => ({ paused: bool(i['paused']) }) },
    drift: { type: 'waf_override', label: 'URI-based override', name: (i) => text(i['description']) ?? (strings(i['urls'])[0] ?? null) },
    fixture: 'wafOverrides',
  },
  // The zone's rulesets list (no rules): which phase entry points exist, and their versions.
  rulesets: {
    kind: 'zone', permission: 'Zone · Zone WAF · Read', probe: 'group',
    api: '/zones/{zone_id}/rulesets',
    // vendor's API reference: list zone rulesets, per_page 1 to 50.
    paging: { kind: 'cursor', perPage: 50, minPerPage: 1 },
    storage: shared('zone_objects'),
    crawlerOnly: true,
    read: { name: 'rulesets list', refresh: 'zone-changed' },
  },
  // One row per member of the account, trimmed to what account-member-no-2fa and drift read (keptMember).
  account_members: {
    kind: 'account', permission: 'Account · Account Settings · Read',
    api: '/accounts/{account_id}/members',
    // vendor's API reference, List Members: per_page 5 to 50 (default 20), page paging.
    paging: list({ maxPerPage: 50, minPerPage: 5 }),
    storage: { ...shared('account_objects'), kept: keptMember },
    fixture: 'members', rules: 'account',
    // A token without Account Settings Read still audits every zone: the rule says unknown for the account.
    read: { name: 'account members', refresh: 'date', optional: true },
  },
  // The account's notification policies, one row each, with the account (account_objects, migration 14).
  notification_policies: {
    kind: 'account', permission: 'Account · Notifications · Read',
    api: '/accounts/{account_id}/alerting/v3/policies',
    paging: { kind: 'whole' },
    storage: shared('account_objects'),
    fixture: 'notificationPolicies', rules: 'account',
    read: { name: 'notification policies', refresh: 'date', optional: true },
  },
  // The open insights of the vendor's own scanner (Security Insights), one row per issue, kept with the account.
  security_insights: {
    kind: 'account', permission: 'Account · Security Center Insights · Read',
    api: '/accounts/{account_id}/security-center/insights',
    // vendor's SDK reference: security center insights list, `per_page` at most 100.
    paging: { kind: 'counted-pages', perPage: 100 },
    storage: shared('account_objects'),
    read: { name: "vendor's security insights", refresh: 'date', optional: true },
  },
  // The account's audit log since the last scan: read to decide what to read again, stores nothing.
  audit_log: {
    kind: 'account', permission: 'Account · Account Settings · Read',
    api: '/accounts/{account_id}/logs/audit',
    // vendor's API reference: `limit`, default 100.
    paging: { kind: 'cursor', perPage: 1000 },
    storage: null,
  },
} as const satisfies Record<string, PartitionSpec>;

/** A partition: what one endpoint answered for one scope (the user, an account or a zone), e.g. a zone's `dns_records`. */
export type Partition = keyof typeof PARTITIONS;

type Spec<P extends Partition> = (typeof PARTITIONS)[P];
type PartitionsWith<Field> = { [P in Partition]: Spec<P> extends Field ? P : never }[Partition];

/** The fixture names of the partitions stored per `kind`. */
export type FixtureNames<K extends PartitionKind> = { [P in Partition]: Spec<P> extends { kind: K; fixture: infer F } ? F : never }[Partition];

/** The partitions, in the registry's order. */
export const PARTITION_NAMES = Object.keys(PARTITIONS) as Partition[];

/** The registry's entry of a partition, typed as any entry. */
export function specOf(partition: Partition): PartitionSpec {
  return PARTITIONS[partition];
}

/** The partitions whose entry matches. */
export function partitionsWhere(test: (spec: PartitionSpec, partition: Partition) => boolean): Partition[] {
  return PARTITION_NAMES.filter((p) => test(PARTITIONS[p], p));
}

/** The partitions read as page/per_page lists. */
export type ListPartition = PartitionsWith<{ paging: { kind: 'list' } }>;
/** The single objects of a zone a rule may declare it reads (`meta.reads`). */
export type DeclarableObject = PartitionsWith<{ rules: 'object' }>;
/** What a rule may declare of an account: read once per account with a zone in the scan. */
export type DeclarableAccountRead = PartitionsWith<{ rules: 'account' }>;
/** What a rule may declare that the scan works out itself, with no API call. */
export type ResolvedRead = PartitionsWith<{ rules: 'resolved' }>;
/** The zone's partitions stored in zone_objects and served to rules: one row each (a setting, a DNS target: one row each of those). */
export type ZoneObjectPartition = Exclude<PartitionsWith<{ kind: 'zone'; storage: { table: 'zone_objects' } }>, PartitionsWith<{ crawlerOnly: true }>>;
/** The partitions that lead a read of the crawler's. */
export type ReadPartition = PartitionsWith<{ read: ReadEntry }>;

export const ZONE_OBJECT_PARTITIONS = partitionsWhere((s) => s.kind === 'zone' && s.storage?.table === 'zone_objects' && !s.crawlerOnly) as ZoneObjectPartition[];

/** A read's declaration as the crawler and docs/scanning.md go by it. */
export interface ReadDeclaration {
  name: string;
  /** What it requests (a template), for the calls table. */
  endpoint: string;
  /** Whom it asks: the zone, or (once for all its zones) the zone's account. */
  scope: 'zone' | 'account';
  /** The partitions it writes. */
  partitions: readonly Partition[];
  refresh: Refresh;
  optional?: true;
}

/** The declaration of the read led by a partition. */
export function readDeclarationOf(lead: ReadPartition): ReadDeclaration {
  const spec = specOf(lead);
  const read = spec.read!;
  return {
    name: read.name,
    endpoint: read.requests ?? `GET ${spec.api}`,
    scope: spec.api?.startsWith('/accounts/') ? 'account' : 'zone',
    partitions: [lead, ...((read.also ?? []) as readonly Partition[])],
    refresh: read.refresh,
    ...(read.optional ? { optional: true as const } : {}),
  };
}

/** Fills a path template's `{name}` parts, each escaped. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`path ${template} needs ${name}`);
    return encodeURIComponent(v);
  });
}
