import type { ApiClient } from '../api/client.js';
import { LIST_ENDPOINTS } from '../api/endpoints.js';
import { ZonewardenError } from '../common/errors.js';
import { listAll } from './lists.js';

/** A zone as the write commands need it: id, name and plan. */
export interface ZoneTarget {
  id: string;
  name: string;
  plan: string | null;
  accountId: string | null;
}

export interface ZoneItem {
  id?: unknown;
  name?: unknown;
  plan?: { legacy_id?: unknown } | null;
  account?: { id?: unknown } | null;
}

const ZONE_ID = /^[0-9a-f]{32}$/i;

export function toTarget(z: ZoneItem): ZoneTarget {
  return {
    id: String(z.id),
    name: String(z.name),
    plan: typeof z.plan?.legacy_id === 'string' ? z.plan.legacy_id : null,
    accountId: typeof z.account?.id === 'string' ? z.account.id : null,
  };
}

/** `--zone NAME|ID`: a 32-hex id is looked up directly, anything else by name. */
export async function resolveZone(client: ApiClient, ref: string): Promise<ZoneTarget> {
  if (ZONE_ID.test(ref)) {
    const answer = await client.get<ZoneItem>(`/zones/${encodeURIComponent(ref)}`);
    return toTarget(answer.result);
  }
  const zones = await listAll<ZoneItem>(client, LIST_ENDPOINTS.zones, {}, { name: ref });
  const match = zones.find((z) => typeof z.name === 'string' && z.name.toLowerCase() === ref.toLowerCase());
  if (!match) throw new ZonewardenError('ZW_ZONE_UNKNOWN', `no zone named ${ref} is visible to these credentials; check the name, or give the zone id`);
  return toTarget(match);
}

/** The zones of a scope as the scan reads them: named zones (within the accounts, if given), else the accounts' zones, else every zone. */
export async function zonesInScope(client: ApiClient, scope: { accounts: readonly string[]; zones: readonly string[] }): Promise<ZoneTarget[]> {
  const out = new Map<string, ZoneTarget>();
  if (scope.zones.length) {
    for (const ref of scope.zones) {
      const zone = await resolveZone(client, ref);
      if (!scope.accounts.length || (zone.accountId !== null && scope.accounts.includes(zone.accountId))) out.set(zone.id, zone);
    }
  } else {
    const queries = scope.accounts.length ? scope.accounts.map((id) => ({ 'account.id': id })) : [{}];
    for (const query of queries) {
      for (const z of await listAll<ZoneItem>(client, LIST_ENDPOINTS.zones, {}, query)) if (typeof z.id === 'string' && typeof z.name === 'string') out.set(z.id, toTarget(z));
    }
  }
  return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
