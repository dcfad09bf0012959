import { param, queryBool, queryList, type RequestContext } from '../http/context.js';
import { ok } from '../http/envelope.js';
import { compareValues, direction, LIMITS, orderField, paginate, type Indexed } from '../http/pagination.js';
import type { Route } from '../http/router.js';
import type { DnsRecord, RecordStore } from '../state.js';
import { combine, notFound, textPredicate, zoneFor } from './lookup.js';

const ORDERS = ['type', 'name', 'content', 'ttl', 'proxied'] as const;
/** The name filters, by the textMatcher form each takes. */
const NAME_FILTERS = { name: '', 'name.exact': '', 'name.contains': 'contains:', 'name.startswith': 'starts_with:', 'name.endswith': 'ends_with:' };

/**
 * Filtered or ordered views of a zone's records, cached per store and query, so that paging
 * through a large generated zone in name order sorts it once rather than once per page.
 */
const views = new WeakMap<RecordStore, Map<string, Int32Array>>();

function view(store: RecordStore, signature: string, build: () => Int32Array): Indexed<DnsRecord> {
  let byQuery = views.get(store);
  if (!byQuery) views.set(store, (byQuery = new Map()));
  const key = `${store.size}|${signature}`;
  let indexes = byQuery.get(key);
  if (!indexes) {
    if (byQuery.size > 16) byQuery.clear();
    byQuery.set(key, (indexes = build()));
  }
  const idx = indexes;
  return { size: idx.length, at: (i) => store.at(idx[i]!) };
}

function listRecords(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  const q = ctx.query;
  const predicates: Array<(r: DnsRecord) => boolean> = [];
  const types = queryList(q, 'type').map((t) => t.toUpperCase());
  if (types.length) predicates.push((r) => types.includes(r.type));
  for (const [key, prefix] of Object.entries(NAME_FILTERS)) {
    const value = q.get(key);
    predicates.push(...textPredicate(value && prefix + value, (r: DnsRecord) => r.name));
  }
  const content = q.get('content');
  if (content) predicates.push((r) => r.content === content);
  const proxied = queryBool(q, 'proxied');
  if (proxied !== undefined) predicates.push((r) => r.proxied === proxied);
  const order = orderField(ctx, ORDERS) as (typeof ORDERS)[number] | undefined;
  const dir = direction(ctx);

  const store = zone.dns;
  let items: Indexed<DnsRecord> = store;
  if (predicates.length || order || dir === -1) {
    const keep = combine(ctx, predicates);
    const signature = [...q].filter(([k]) => k !== 'page' && k !== 'per_page').map(([k, v]) => `${k}=${v}`).join('&');
    items = view(store, signature, () => {
      const picked: number[] = [];
      for (let i = 0; i < store.size; i++) if (keep(store.at(i))) picked.push(i);
      if (order) {
        const keys = picked.map((i) => store.at(i)[order]);
        const pos = picked.map((_, j) => j);
        pos.sort((a, b) => dir * compareValues(keys[a], keys[b]) || a - b);
        return Int32Array.from(pos, (j) => picked[j]!);
      }
      return Int32Array.from(dir === -1 ? picked.reverse() : picked);
    });
  }
  return paginate(ctx, items, LIMITS.dnsRecords, (r) => r);
}

function getRecord(ctx: RequestContext) {
  const zone = zoneFor(ctx);
  const id = param(ctx, 'record_id');
  for (let i = 0; i < zone.dns.size; i++) if (zone.dns.at(i).id === id) return ok(zone.dns.at(i));
  return notFound('DNS record', id);
}

export const dnsRoutes: Route[] = [
  { method: 'GET', template: '/zones/{zone_id}/dns_records', handler: listRecords },
  { method: 'GET', template: '/zones/{zone_id}/dns_records/{record_id}', handler: getRecord },
];
