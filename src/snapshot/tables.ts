/**
 * What each partition stores: its table, and the columns rules query, taken from the item as the
 * API served it (the raw JSON is kept whole beside them). Extraction tolerates missing and
 * oddly typed fields: the API adds and drops fields, and null turns up where strings are usual.
 */

export type PartitionKind = 'user' | 'account' | 'zone';

export type Endpoint =
  | 'accounts'
  | 'invites'
  | 'zones'
  | 'zone'
  | 'dns_records'
  | 'certificate_packs'
  | 'firewall_rules'
  | 'filters'
  | 'migration_status'
  | 'migration_check'
  | 'migration_config'
  | 'entrypoint'
  | 'zone_settings'
  | 'dnssec'
  | 'universal_ssl'
  | 'custom_entrypoint'
  | 'account_entrypoint'
  | 'ratelimit_entrypoint'
  | 'bot_management'
  | 'origin_pulls'
  | 'dns_targets'
  | 'page_shield'
  | 'security_txt'
  | 'notification_policies'
  | 'rulesets'
  | 'audit_log'
  | 'waf_packages'
  | 'waf_groups'
  | 'waf_rules'
  | 'waf_overrides'
  | 'account_members'
  | 'security_insights';

type Row = Record<string, string | number | null>;

export interface TableSpec {
  table: string;
  scopeColumn: string;
  /** For tables shared by several single-object endpoints: the column naming the endpoint. */
  endpointColumn?: string;
  itemId(item: Record<string, unknown>, endpoint: Endpoint): string;
  columns(item: Record<string, unknown>): Row;
  /** What of an item is stored as its raw JSON, when not the whole of it (what rules and drift read, nothing more). */
  kept?(item: Record<string, unknown>): Record<string, unknown>;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : v === undefined || v === null ? null : String(v));
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : null);
const bool = (v: unknown): number | null => (typeof v === 'boolean' ? (v ? 1 : 0) : null);
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const byId = (item: Record<string, unknown>): string => str(item['id']) ?? JSON.stringify(item);

const none = (): Row => ({});

export const TABLES: Record<Endpoint, TableSpec | null> = {
  accounts: { table: 'accounts', scopeColumn: 'scope_id', itemId: byId, columns: (i) => ({ name: str(i['name']), type: str(i['type']) }) },
  invites: {
    table: 'invites',
    scopeColumn: 'scope_id',
    itemId: byId,
    columns: (i) => ({ status: str(i['status']), organization_id: str(i['organization_id']) }),
  },
  // The account's zone listing stores nothing of its own: each zone is its own partition.
  zones: null,
  zone: {
    table: 'zones',
    scopeColumn: 'zone_id',
    itemId: byId,
    columns: (i) => ({
      account_id: str(obj(i['account'])['id']),
      name: str(i['name']) ?? '',
      status: str(i['status']),
      paused: bool(i['paused']),
      plan: str(obj(i['plan'])['legacy_id']),
      type: str(i['type']),
    }),
  },
  dns_records: {
    table: 'dns_records',
    scopeColumn: 'zone_id',
    itemId: byId,
    // Stored as served: a record the API answers with `data` and no `content` (CAA in the wild)
    // has no content here either; rules read its `data` from the raw item (reader.ts).
    columns: (i) => ({ type: str(i['type']), name: str(i['name']), content: str(i['content']), proxied: bool(i['proxied']), ttl: int(i['ttl']) }),
  },
  certificate_packs: { table: 'certificate_packs', scopeColumn: 'zone_id', itemId: byId, columns: (i) => ({ type: str(i['type']), status: str(i['status']) }) },
  firewall_rules: {
    table: 'firewall_rules',
    scopeColumn: 'zone_id',
    itemId: byId,
    columns: (i) => {
      const filter = obj(i['filter']);
      return {
        action: str(i['action']),
        paused: bool(i['paused']),
        priority: int(i['priority']),
        filter_id: str(filter['id']),
        filter_deleted: filter['deleted'] === true ? 1 : 0,
      };
    },
  },
  filters: { table: 'filters', scopeColumn: 'zone_id', itemId: byId, columns: (i) => ({ expression: str(i['expression']), paused: bool(i['paused']) }) },
  migration_status: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: (_, e) => e, columns: none },
  migration_check: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: (_, e) => e, columns: none },
  migration_config: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: (_, e) => e, columns: none },
  entrypoint: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: (_, e) => e, columns: none },
  // One partition, one row per setting read (its id), so a changed setting is a change of that row.
  zone_settings: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: byId, columns: none },
  dnssec: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: (_, e) => e, columns: none },
  universal_ssl: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: (_, e) => e, columns: none },
  custom_entrypoint: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: (_, e) => e, columns: none },
  // The account's managed-phase entry point as it applies to the zone: read once per account, kept with each zone.
  account_entrypoint: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: (_, e) => e, columns: none },
  ratelimit_entrypoint: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: (_, e) => e, columns: none },
  bot_management: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: (_, e) => e, columns: none },
  origin_pulls: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: (_, e) => e, columns: none },
  // One row per target name resolved for the zone's records (the resolution is part of the scan).
  dns_targets: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: (i) => str(i['name']) ?? JSON.stringify(i), columns: none },
  page_shield: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: (_, e) => e, columns: none },
  security_txt: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: (_, e) => e, columns: none },
  // The account's notification policies, one row each, with the account (account_objects, migration 14).
  notification_policies: { table: 'account_objects', scopeColumn: 'scope_id', endpointColumn: 'endpoint', itemId: byId, columns: none },
  // The account's audit log since the last scan: read to decide what to read again, stores nothing.
  audit_log: null,
  // The zone's rulesets list (no rules): which phase entry points exist, and their versions.
  rulesets: { table: 'zone_objects', scopeColumn: 'zone_id', endpointColumn: 'endpoint', itemId: byId, columns: none },
  waf_packages: {
    table: 'waf_packages',
    scopeColumn: 'zone_id',
    itemId: byId,
    columns: (i) => ({ name: str(i['name']), detection_mode: str(i['detection_mode']), sensitivity: str(i['sensitivity']), action_mode: str(i['action_mode']) }),
  },
  waf_groups: {
    table: 'waf_groups',
    scopeColumn: 'zone_id',
    // Group ids are unique per package only.
    itemId: (i) => `${str(i['package_id'])}/${byId(i)}`,
    columns: (i) => ({ package_id: str(i['package_id']), name: str(i['name']), mode: str(i['mode']), modified_rules_count: int(i['modified_rules_count']) }),
  },
  waf_rules: {
    table: 'waf_rules',
    scopeColumn: 'zone_id',
    itemId: (i) => `${str(i['package_id'])}/${byId(i)}`,
    columns: (i) => ({ package_id: str(i['package_id']), group_id: str(obj(i['group'])['id']), mode: str(i['mode']), default_mode: str(i['default_mode']) }),
  },
  waf_overrides: { table: 'waf_overrides', scopeColumn: 'zone_id', itemId: byId, columns: (i) => ({ paused: bool(i['paused']) }) },
  // One row per member of the account, trimmed to what account-member-no-2fa and drift read (keptMember).
  account_members: { table: 'account_objects', scopeColumn: 'scope_id', endpointColumn: 'endpoint', itemId: byId, columns: none, kept: (i) => keptMember(i) },
  // The open insights of the vendor's own scanner (Security Insights), one row per issue, kept with the account.
  security_insights: { table: 'account_objects', scopeColumn: 'scope_id', endpointColumn: 'endpoint', itemId: byId, columns: none },
};

/**
 * A member as stored: its id and status; its user's id, e-mail and two-factor flag (no names); its
 * roles' ids and names with only the permissions they grant write on; its policies' access and
 * permission groups (ids and names). The rest (role descriptions, every read grant, resource
 * groups) says nothing of whether an account without two-factor can change things, and a member
 * list holds personal data: stored is what a verdict needs.
 */
function keptMember(i: Record<string, unknown>): Record<string, unknown> {
  const user = obj(i['user']);
  const list = (v: unknown) => (Array.isArray(v) ? v.map(obj) : []);
  const writes = (permissions: unknown) =>
    Object.fromEntries(Object.entries(obj(permissions)).filter(([, grant]) => obj(grant)['write'] === true).map(([key]) => [key, { write: true }]));
  const named = (v: Record<string, unknown>) => ({ id: v['id'] ?? null, name: v['name'] ?? null });
  return {
    id: i['id'] ?? null,
    status: i['status'] ?? null,
    user: { id: user['id'] ?? null, email: user['email'] ?? i['email'] ?? null, two_factor_authentication_enabled: user['two_factor_authentication_enabled'] ?? null },
    roles: list(i['roles']).map((r) => ({ ...named(r), permissions: writes(r['permissions']) })),
    policies: list(i['policies']).map((p) => ({ id: p['id'] ?? null, access: p['access'] ?? null, permission_groups: list(p['permission_groups']).map(named) })),
  };
}
