import { RawJson } from './http/envelope.js';
import { developmentModeAnswer } from './security.js';
import type { Account, Filter, FirewallRule, Organisation, WafGroup, WafPackage, WafRule, Zone } from './state.js';

/** State objects to the API's JSON, with the fields the real service adds around them. */

const PLANS = {
  free: { id: '0feeeeeeeeeeeeeeeeeeeeeeeeeeeeee', name: 'Free Website', price: 0 },
  pro: { id: '94f3b7b768b0458b56d2cac4fe5ec0f9', name: 'Pro Website', price: 20 },
  business: { id: '6d2f8e0b4b0f4d3c9d5a2b1c0e9f8a7b', name: 'Business Website', price: 200 },
  enterprise: { id: '1d2f8e0b4b0f4d3c9d5a2b1c0e9f8a7e', name: 'Enterprise Website', price: 5000 },
} as const;

export function planOf(zone: Zone): Record<string, unknown> {
  const p = PLANS[zone.plan];
  return {
    id: p.id,
    name: p.name,
    price: p.price,
    currency: 'USD',
    frequency: zone.plan === 'free' ? '' : 'monthly',
    is_subscribed: zone.plan !== 'free',
    can_subscribe: zone.plan !== 'enterprise',
    legacy_id: zone.plan,
    legacy_discount: false,
    externally_managed: zone.plan === 'enterprise',
  };
}

export function planId(zone: Zone): string {
  return PLANS[zone.plan].id;
}

export function account(a: Account): Record<string, unknown> {
  const settings = { enforce_twofactor: a.type === 'enterprise', api_access_enabled: null, abuse_contact_email: null };
  return { id: a.id, name: a.name, type: a.type, settings, created_on: a.created_on };
}

const zoneJsonCache = new WeakMap<Zone, { stamp: string; json: RawJson }>();

/** A zone's JSON, kept while the stamp of every field it is built from stays the same. */
export function zoneJson(z: Zone, org: Organisation): RawJson {
  const accountName = org.accountsById.get(z.accountId)?.name ?? '';
  // development_mode counts down by the clock (developmentModeSeconds): in the stamp, it is what changes most.
  const stamp = [z.name, z.status, z.paused, z.type, z.plan, z.accountId, accountName, z.modified_on, z.activated_on, z.created_on, developmentModeSeconds(z, org), ...z.name_servers].join('\u0000');
  const cached = zoneJsonCache.get(z);
  if (cached?.stamp === stamp) return cached.json;
  const json = new RawJson(JSON.stringify(zone(z, org)));
  zoneJsonCache.set(z, { stamp, json });
  return json;
}

/** The zone's `development_mode` (vendor's API reference, zones): the setting's time_remaining, 0 while off. */
export function developmentModeSeconds(z: Zone, org: Organisation): number {
  const value = z.security.settings.development_mode;
  if (value !== 'on') return 0;
  return developmentModeAnswer(value, z.security.modified.development_mode ?? z.created_on, org.clock.now()).time_remaining;
}

export function zone(z: Zone, org: Organisation): Record<string, unknown> {
  const owner = org.accountsById.get(z.accountId);
  return {
    id: z.id,
    name: z.name,
    status: z.status,
    paused: z.paused,
    type: z.type,
    development_mode: developmentModeSeconds(z, org),
    name_servers: z.name_servers,
    original_name_servers: null,
    original_registrar: null,
    original_dnshost: null,
    modified_on: z.modified_on,
    created_on: z.created_on,
    activated_on: z.activated_on,
    meta: { step: 2, custom_certificate_quota: z.plan === 'enterprise' ? 10 : 0, page_rule_quota: 3, phishing_detected: false },
    owner: { id: null, type: 'user', email: null },
    account: { id: z.accountId, name: owner?.name ?? '' },
    tenant: { id: null, name: null },
    tenant_unit: { id: null },
    permissions: ['#zone:read', '#zone:edit', '#waf:read', '#waf:edit', '#dns_records:read', '#ssl:read'],
    plan: planOf(z),
  };
}

/** The fields given but those undefined: the API leaves an unset optional field out. */
function present(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

export function filter(f: Filter): Record<string, unknown> {
  return present({ id: f.id, paused: f.paused, description: f.description, expression: f.expression, ref: f.ref });
}

export function firewallRule(r: FirewallRule, z: Zone): Record<string, unknown> {
  const f = z.filters.get(r.filterId);
  const { id, paused, description, action, priority, created_on, modified_on, ref, products } = r;
  const filterJson = f ? filter(f) : { id: r.filterId, deleted: true };
  return present({ id, paused, description, action, priority, filter: filterJson, created_on, modified_on, ref, products });
}

export function wafPackage(p: WafPackage): Record<string, unknown> {
  const { id, name, description, detection_mode, zone_id, status, sensitivity, action_mode } = p;
  return present({ id, name, description, detection_mode, zone_id, status, sensitivity, action_mode });
}

/** A group: no default mode (the API gives none); `modified_rules_count` says how many of its rules were changed. */
export function wafGroup(g: WafGroup): Record<string, unknown> {
  const { id, name, description, mode, package_id, allowed_modes } = g;
  const modified_rules_count = g.rules.filter((r) => r.mode !== r.default_mode).length;
  return { id, name, description, mode, rules_count: g.rules.length, modified_rules_count, package_id, allowed_modes };
}

/** A rule of the previous managed rules: the OWASP package's carry no `default_mode`, as in the real API. */
export function wafRule(r: WafRule, pkg: Pick<WafPackage, 'detection_mode'>): Record<string, unknown> {
  const { id, description, priority, group, package_id, allowed_modes, mode } = r;
  const defaultMode = pkg.detection_mode === 'anomaly' ? {} : { default_mode: r.default_mode };
  return { id, description, priority, group, package_id, allowed_modes, mode, ...defaultMode };
}
