import { shorten } from '../common/printable.js';
import type { Endpoint, PartitionKind } from '../snapshot/tables.js';

/**
 * The kinds of resource configuration drift compares: the table each is stored in, the partition
 * that reads it (whose coverage decides whether it can be compared), and how to name one for a
 * person. Certificates are stored inside their pack but drift as resources of their own: a renewal
 * replaces a certificate, and "certificate X replaced by Y" reads better than a changed array.
 */
export interface ResourceKind {
  type: string;
  /** What a person calls it, for text and Markdown. */
  label: string;
  table: string;
  partition: PartitionKind;
  endpoint: Endpoint;
  name(item: Record<string, unknown>): string | null;
}

type Item = Record<string, unknown>;
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const hosts = (i: Item): string | null => {
  const h = list(i['hosts']);
  return h.length === 0 ? null : shorten(h.length > 3 ? `${h.slice(0, 3).join(', ')} and ${h.length - 3} more` : h.join(', '), 120);
};

export const RESOURCE_KINDS: readonly ResourceKind[] = [
  { type: 'account', label: 'account', table: 'accounts', partition: 'user', endpoint: 'accounts', name: (i) => text(i['name']) },
  { type: 'invite', label: 'invite', table: 'invites', partition: 'user', endpoint: 'invites', name: (i) => text(i['organization_name']) ?? text(i['organization_id']) },
  { type: 'zone', label: 'zone', table: 'zones', partition: 'zone', endpoint: 'zone', name: (i) => text(i['name']) },
  {
    type: 'dns_record',
    label: 'DNS record',
    table: 'dns_records',
    partition: 'zone',
    endpoint: 'dns_records',
    name: (i) => [text(i['type']), text(i['name'])].filter(Boolean).join(' ') || null,
  },
  { type: 'certificate_pack', label: 'certificate pack', table: 'certificate_packs', partition: 'zone', endpoint: 'certificate_packs', name: hosts },
  {
    type: 'firewall_rule',
    label: 'firewall rule',
    table: 'firewall_rules',
    partition: 'zone',
    endpoint: 'firewall_rules',
    name: (i) => text(i['description']) ?? text(i['ref']),
  },
  {
    type: 'filter',
    label: 'filter',
    table: 'filters',
    partition: 'zone',
    endpoint: 'filters',
    name: (i) => text(i['description']) ?? text(i['ref']) ?? (text(i['expression']) && shorten(i['expression'] as string, 80)),
  },
  { type: 'migration_status', label: 'migration status', table: 'zone_objects', partition: 'zone', endpoint: 'migration_status', name: () => null },
  { type: 'migration_check', label: 'migration check', table: 'zone_objects', partition: 'zone', endpoint: 'migration_check', name: () => null },
  { type: 'migration_config', label: 'migration configuration', table: 'zone_objects', partition: 'zone', endpoint: 'migration_config', name: () => null },
  { type: 'ruleset_entrypoint', label: 'managed rules entry point', table: 'zone_objects', partition: 'zone', endpoint: 'entrypoint', name: (i) => text(i['name']) },
  // Each setting is a resource of its own, named by its id: a changed value is field-level drift.
  { type: 'zone_setting', label: 'zone setting', table: 'zone_objects', partition: 'zone', endpoint: 'zone_settings', name: (i) => text(i['id']) },
  { type: 'dnssec', label: 'DNSSEC', table: 'zone_objects', partition: 'zone', endpoint: 'dnssec', name: () => null },
  { type: 'universal_ssl', label: 'universal SSL setting', table: 'zone_objects', partition: 'zone', endpoint: 'universal_ssl', name: () => null },
  { type: 'custom_rules_entrypoint', label: 'custom rules entry point', table: 'zone_objects', partition: 'zone', endpoint: 'custom_entrypoint', name: (i) => text(i['name']) },
  { type: 'account_ruleset_entrypoint', label: 'account managed rules entry point', table: 'zone_objects', partition: 'zone', endpoint: 'account_entrypoint', name: (i) => text(i['name']) },
  { type: 'ratelimit_entrypoint', label: 'rate limiting rules entry point', table: 'zone_objects', partition: 'zone', endpoint: 'ratelimit_entrypoint', name: (i) => text(i['name']) },
  { type: 'bot_management', label: 'bot management settings', table: 'zone_objects', partition: 'zone', endpoint: 'bot_management', name: () => null },
  { type: 'origin_pulls', label: 'authenticated origin pulls setting', table: 'zone_objects', partition: 'zone', endpoint: 'origin_pulls', name: () => null },
  { type: 'page_shield', label: 'client-side security settings', table: 'zone_objects', partition: 'zone', endpoint: 'page_shield', name: () => null },
  { type: 'security_txt', label: 'security.txt', table: 'zone_objects', partition: 'zone', endpoint: 'security_txt', name: () => null },
  { type: 'dns_target', label: 'DNS target resolution', table: 'zone_objects', partition: 'zone', endpoint: 'dns_targets', name: (i) => text(i['name']) },
  { type: 'waf_package', label: 'WAF package', table: 'waf_packages', partition: 'zone', endpoint: 'waf_packages', name: (i) => text(i['name']) },
  { type: 'waf_group', label: 'WAF group', table: 'waf_groups', partition: 'zone', endpoint: 'waf_groups', name: (i) => text(i['name']) },
  { type: 'waf_rule', label: 'WAF rule', table: 'waf_rules', partition: 'zone', endpoint: 'waf_rules', name: (i) => text(i['description']) },
  {
    type: 'waf_override',
    label: 'URI-based override',
    table: 'waf_overrides',
    partition: 'zone',
    endpoint: 'waf_overrides',
    name: (i) => text(i['description']) ?? (list(i['urls'])[0] ?? null),
  },
];

/** Certificates drift as their own resources, inside the certificate pack partition. */
export const CERTIFICATE_KIND: ResourceKind = {
  type: 'certificate',
  label: 'certificate',
  table: 'certificate_packs',
  partition: 'zone',
  endpoint: 'certificate_packs',
  name: hosts,
};

export const RESOURCE_TYPES: readonly string[] = [...RESOURCE_KINDS.map((k) => k.type), CERTIFICATE_KIND.type];

export function kindOf(type: string): ResourceKind | undefined {
  return type === CERTIFICATE_KIND.type ? CERTIFICATE_KIND : RESOURCE_KINDS.find((k) => k.type === type);
}

/** The kind stored by a partition endpoint. */
export function kindOfEndpoint(endpoint: Endpoint): ResourceKind | undefined {
  return RESOURCE_KINDS.find((k) => k.endpoint === endpoint);
}
