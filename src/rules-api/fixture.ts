import { partitionsWhere, specOf, type FixtureNames } from '../cloudflare/reads.js';
import { openSnapshot, type Db } from '../snapshot/db.js';
import { SnapshotReader } from '../snapshot/reader.js';
import type { Partition } from '../snapshot/tables.js';
import { ScanWriter, type CoverageState, type PartitionWriter } from '../snapshot/writer.js';

/** In-memory snapshots for rule tests; zones default to a clean, active Pro zone that has not started migrating. */

export const FIXTURE_NOW = new Date('2026-11-01T12:00:00.000Z');

/** `FIXTURE_NOW` plus (or minus) whole or fractional days, as the API writes times. */
export function days(n: number): string {
  return new Date(FIXTURE_NOW.getTime() + n * 86_400_000).toISOString();
}

export type Item = Record<string, unknown>;

/** A partition the scan did not read: how it ended, or `missing` for no record at all. */
export type Unread = Exclude<CoverageState, 'ok'> | 'missing';

export interface FixtureZone {
  name: string;
  id?: string;
  plan?: 'free' | 'pro' | 'business' | 'enterprise' | null;
  status?: string;
  paused?: boolean;
  /** The zone's DNS setup: `full` (default), `partial` (CNAME setup) or `secondary`. */
  type?: 'full' | 'partial' | 'secondary' | 'internal';
  /** Account id; default the first account. */
  account?: string;
  dnsRecords?: Item[];
  certificatePacks?: Item[];
  firewallRules?: Item[];
  filters?: Item[];
  /** Null: the API answered with no object. */
  migrationStatus?: Item | null;
  migrationCheck?: Item | null;
  migrationConfig?: Item | null;
  entrypoint?: Item | null;
  wafPackages?: Item[];
  wafGroups?: Item[];
  wafRules?: Item[];
  wafOverrides?: Item[];
  /** Setting values by id (`NOT_OFFERED`: the plan does not offer it); omitted: the settings were not read. */
  settings?: Record<string, unknown>;
  /** When a setting last changed (its `modified_on`, ISO time) by id; default 30 days before the fixture's now. */
  settingsModifiedOn?: Record<string, string>;
  /** More fields of a setting's answer, by id, such as `time_remaining` (development_mode). */
  settingsAnswer?: Record<string, Item>;
  /** The zone list's `development_mode` (seconds left; negative once expired; 0 if never on); omitted: the list does not carry it. */
  developmentMode?: number;
  /** The security objects; omitted: not read. Null: the API answered with no object (no entry point yet). */
  dnssec?: Item | null;
  universalSsl?: Item | null;
  customEntrypoint?: Item | null;
  /** The account's managed-phase entry point, kept with each zone; omitted: not read (not Enterprise); null: none. */
  accountEntrypoint?: Item | null;
  /** `GET /zones/{id}/bot_management` as answered; omitted: not read. */
  botManagement?: Item | null;
  /** `GET /zones/{id}/origin_tls_client_auth/settings` (`{enabled}`); omitted: not read. */
  originPulls?: Item | null;
  /** `GET /zones/{id}/page_shield` (client-side security settings); omitted: not read. */
  pageShield?: Item | null;
  /** `GET /zones/{id}/security-center/securitytxt`; omitted: not read. Null: the API answered none. */
  securityTxt?: Item | null;
  /** The `http_ratelimit` phase entry point; omitted: not read. Null: the zone has none (no rate limiting rules). */
  rateLimitEntrypoint?: Item | null;
  /** The zone's DNS targets as the scan resolved them (`{name, type, answer, reason?}` each); omitted: not resolved. */
  dnsTargets?: Item[];
  unread?: Partial<Record<Partition, Unread>>;
}

export interface FixtureSpec {
  accounts?: Item[];
  invites?: Item[];
  zones?: FixtureZone[];
  unread?: Partial<Record<'accounts' | 'invites', Unread>>;
  /** Each account's members (`GET /accounts/{id}/members` items), or how the read ended; unnamed accounts: not read. */
  members?: Readonly<Record<string, Item[] | Unread>>;
  /** Accounts whose zone listing failed. */
  unreadListings?: string[];
  /** An account-owned token: the account list answered 400 code 1001, and `GET /zones` listed the zones or failed. */
  accountOwnedToken?: 'zones-listed' | 'zones-failed';
  /** Each account's notification policies (`GET /accounts/{id}/alerting/v3/policies`), or how the read ended. */
  notificationPolicies?: Record<string, Item[] | Unread>;
}

export interface Fixture {
  db: Db;
  reader: SnapshotReader;
}

/** The zone's partitions a FixtureZone field describes (the registry's fixture names), but the zone and its settings. */
// Each fixture name of the registry is a field of FixtureZone or FixtureSpec (this fails to compile otherwise).
true satisfies FixtureNames<'zone'> extends keyof FixtureZone ? (FixtureNames<'user' | 'account'> extends keyof FixtureSpec ? true : never) : never;

const ZONE_FIXTURES = partitionsWhere((s, p) => s.kind === 'zone' && s.fixture !== undefined && p !== 'zone_settings').map((partition) => ({
  partition,
  key: specOf(partition).fixture as keyof FixtureZone,
  object: specOf(partition).paging.kind === 'object',
}));

/** A setting the plan does not offer: answered with `editable: false` and its default (vendor API reference, zone settings). */
export const NOT_OFFERED = Symbol('not offered');

/** A setting value the zone cannot change: `editable: false` with the value in force (vendor API reference, zone settings). */
export class LockedSetting {
  constructor(readonly value: unknown) {}
}
export const locked = (value: unknown): LockedSetting => new LockedSetting(value);

const DEFAULT_ACCOUNT = { id: 'acc0000000000000000000000000000a', name: 'Example Org', type: 'standard' };

export function zoneIdOf(name: string): string {
  let h = 0;
  for (const c of name) h = (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0;
  return `zone${h.toString(16).padStart(8, '0')}${'0'.repeat(20)}`;
}

function defaults(zone: FixtureZone): Partial<FixtureZone> {
  return {
    migrationStatus: { migration_state: 'start', old_waf_status: 'enabled', new_waf_status: 'disabled', created: days(-400) },
    migrationCheck: { compatible: true, migration_state: 'start' },
    migrationConfig: { name: 'default', rules: [] },
    entrypoint: null,
    dnsRecords: [],
    certificatePacks: [],
    firewallRules: [],
    filters: [],
    wafPackages: [],
    wafGroups: [],
    wafRules: [],
    wafOverrides: [],
    unread: zone.plan === 'enterprise' ? {} : { waf_overrides: 'skipped' },
  };
}

export function snapshotOf(spec: FixtureSpec = {}): Fixture {
  const db = openSnapshot(':memory:');
  const writer = ScanWriter.start(db, 'http://127.0.0.1/client/v4', { accounts: [], zones: [] }, (s) => s);
  const accounts = spec.accounts ?? [DEFAULT_ACCOUNT];
  const end = (kind: 'user' | 'account' | 'zone', scopeId: string, partition: Partition, unread: Unread | undefined, write: (p: PartitionWriter) => number) => {
    if (unread === 'missing') return;
    const p = writer.partition(kind, scopeId, partition);
    if (unread) {
      p.finish({ state: unread, pages: 0, items: 0, httpStatus: unread === 'denied' ? 403 : unread === 'retired' ? 410 : 500, message: `${partition} could not be read (${unread})` });
      return;
    }
    const n = write(p);
    p.finish({ state: 'ok', pages: 1, items: n });
  };
  const writeList = (kind: 'user' | 'account' | 'zone', scopeId: string, partition: Partition, items: Item[], unread?: Unread) =>
    end(kind, scopeId, partition, unread, (p) => {
      if (items.length) p.write(items);
      return items.length;
    });
  const writeRead = (accountId: string, partition: Partition, read: Item[] | Unread) =>
    typeof read === 'string' ? end('account', accountId, partition, read, () => 0) : writeList('account', accountId, partition, read);

  if (spec.accountOwnedToken) {
    const message = 'these credentials are an account-owned token, which cannot list accounts (API error 1001)';
    writer.partition('user', '', 'accounts').finish({ state: 'denied', pages: 0, items: 0, httpStatus: 400, apiCode: 1001, message });
    end('user', '', 'zones', spec.accountOwnedToken === 'zones-failed' ? 'failed' : undefined, () => 0);
  } else writeList('user', '', 'accounts', accounts, spec.unread?.accounts);
  writeList('user', '', 'invites', spec.invites ?? [], spec.unread?.invites);
  for (const [accountId, policies] of Object.entries(spec.notificationPolicies ?? {})) writeRead(accountId, 'notification_policies', policies);
  for (const a of accounts) {
    end('account', a['id'] as string, 'zones', spec.unreadListings?.includes(a['id'] as string) ? 'failed' : undefined, () => 0);
  }
  for (const [accountId, members] of Object.entries(spec.members ?? {})) writeRead(accountId, 'account_members', members);

  for (const zone of spec.zones ?? []) {
    const given = defaults(zone);
    const z = { ...given, ...zone, unread: { ...given.unread, ...zone.unread } };
    const id = z.id ?? zoneIdOf(z.name);
    const accountId = z.account ?? (accounts[0]?.['id'] as string);
    const plan = z.plan === undefined ? 'pro' : z.plan;
    writeList('zone', id, 'zone', [
      {
        id,
        name: z.name,
        status: z.status ?? 'active',
        paused: z.paused ?? false,
        type: z.type ?? 'full',
        account: { id: accountId, name: accounts.find((a) => a['id'] === accountId)?.['name'] ?? null },
        plan: plan === null ? null : { id: `plan-${plan}`, name: plan, legacy_id: plan },
        ...(z.developmentMode === undefined ? {} : { development_mode: z.developmentMode }),
      },
    ], z.unread.zone);
    if (z.settings !== undefined || z.unread.zone_settings) {
      const items = Object.entries(z.settings ?? {}).map(([sid, value]) =>
        value === NOT_OFFERED
          ? { id: sid, value: 'off', editable: false, modified_on: z.settingsModifiedOn?.[sid] ?? days(-30) }
          : value instanceof LockedSetting
          ? { id: sid, value: value.value, editable: false, modified_on: z.settingsModifiedOn?.[sid] ?? days(-30), ...z.settingsAnswer?.[sid] }
          : { id: sid, value, editable: true, modified_on: z.settingsModifiedOn?.[sid] ?? days(-30), ...z.settingsAnswer?.[sid] },
      );
      writeList('zone', id, 'zone_settings', items, z.unread.zone_settings);
    }
    // A field the defaults give is always written (an empty list, or no object); any other when given or unread.
    for (const { partition, key, object } of ZONE_FIXTURES) {
      const value = z[key] as Item[] | Item | null | undefined;
      const unread = z.unread[partition];
      if (value === undefined && !unread && !(key in given)) continue;
      const items = object ? (value === null || value === undefined ? [] : [value as Item]) : ((value as Item[] | undefined) ?? []);
      writeList('zone', id, partition, items, unread);
    }
  }
  writer.finish('complete', {});
  db.prepare('UPDATE scans SET started_at = ? WHERE id = ?').run(FIXTURE_NOW.toISOString(), writer.scanId);
  return { db, reader: new SnapshotReader(db, writer.scanId) };
}

let seq = 0;
const hexId = (prefix: string) => `${prefix}${(++seq).toString(16).padStart(32 - prefix.length, '0')}`;

export interface RuleSpec {
  expression: string;
  action?: string;
  paused?: boolean;
  filterPaused?: boolean;
  /** The rule's filter was deleted: the rule carries `{id, deleted: true}` and the filter is gone. */
  filterDeleted?: boolean;
  description?: string;
  products?: string[];
  /** Reuse the filter of an earlier rule with this filter id. */
  filterId?: string;
}

/** Firewall rules with their filters, as the two list endpoints serve them. */
export function firewall(specs: RuleSpec[], extraFilters: Item[] = []): { firewallRules: Item[]; filters: Item[] } {
  const firewallRules: Item[] = [];
  const filters: Item[] = [];
  for (const s of specs) {
    const filterId = s.filterId ?? hexId('f');
    const filter = { id: filterId, expression: s.expression, paused: s.filterPaused ?? false, description: '' };
    if (!s.filterId && !s.filterDeleted) filters.push(filter);
    firewallRules.push({
      id: hexId('r'),
      action: s.action ?? 'block',
      paused: s.paused ?? false,
      priority: null,
      description: s.description ?? '',
      ...(s.products ? { products: s.products } : {}),
      filter: s.filterDeleted ? { id: filterId, deleted: true } : filter,
    });
  }
  return { firewallRules, filters: [...filters, ...extraFilters] };
}

export function filterItem(expression: string, extra: Item = {}): Item {
  return { id: hexId('f'), expression, paused: false, description: '', ...extra };
}

/** A DNS record as the list serves it: a fresh id, TTL 1 (automatic) when proxied, no `proxied` when given null. */
export function dnsRecord(type: string, name: string, content: string, proxied: boolean | null = false): Item {
  return { id: hexId('d'), type, name, content, ...(proxied === null ? {} : { proxied }), ttl: proxied ? 1 : 3600 };
}
