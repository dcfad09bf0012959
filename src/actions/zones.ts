import type { ApiClient } from '../api/client.js';
import { ZonewardenError } from '../shared/errors.js';

/** A zone as the write commands need it: id, name and plan. */
export interface ZoneTarget {
  id: string;
  name: string;
  plan: string | null;
  accountId: string | null;
}

interface ZoneItem {
  id?: unknown;
  name?: unknown;
  plan?: { legacy_id?: unknown } | null;
  account?: { id?: unknown } | null;
}

const ZONE_ID = /^[0-9a-f]{32}$/i;

function toTarget(z: ZoneItem): ZoneTarget {
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
  const zones = (await client.list<ZoneItem>('/zones', { perPage: 50, minPerPage: 5, query: { name: ref } }).all()) as ZoneItem[];
  const match = zones.find((z) => typeof z.name === 'string' && z.name.toLowerCase() === ref.toLowerCase());
  if (!match) throw new ZonewardenError('ZW_ZONE_UNKNOWN', `no zone named ${ref} is visible to these credentials; check the name, or give the zone id`);
  return toTarget(match);
}
