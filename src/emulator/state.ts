import type { Member } from './members.js';
import { AuditLog } from './audit-log.js';
import type { EmulatorClock } from './clock.js';
import type { Ruleset, RulesetRule } from './ruleset.js';
import { defaultSecurity, type Plan, type ZoneSecurity } from './security.js';

/** The emulator's in-memory organisation, in the API's field names (serialising stays a copy); relations by id. */

export type { Plan, Ruleset, RulesetRule };
/**
 * `default`, seen in the wild, behaves as `start` (a documented guess). `none`: the emulator's name
 * for a zone created since 2022-09 that never had the previous WAF.
 */
export type MigrationState = 'default' | 'start' | 'validation' | 'complete' | 'none';

export interface User {
  id: string;
  email: string;
}

export interface Account {
  id: string;
  name: string;
  type: 'standard' | 'enterprise';
  created_on: string;
  /** False until an invite to this account is accepted. */
  member: boolean;
  /** The account-level http_request_firewall_managed entry point (Enterprise); null: none written. */
  managedEntrypoint?: Ruleset | null;
  /** Absent: the user alone (defaultMembers). */
  members?: Member[];
  notificationPolicies?: NotificationPolicy[];
}

/** vendor's API reference: Notification policies (one of the list `GET /alerting/v3/policies` serves). */
export interface NotificationPolicy {
  id: string;
  name: string;
  description: string;
  alert_type: string;
  enabled: boolean;
  mechanisms: Record<string, Array<{ id: string }>>;
  /** `zones`: the zone ids the policy is limited to; absent: every zone of the account. */
  filters: { zones?: string[] };
  created: string;
  modified: string;
}

export interface DnsRecord {
  id: string;
  type: string;
  name: string;
  /** Absent on some structured records (CAA with `data` only), as in the wild. */
  content?: string;
  proxiable: boolean;
  proxied: boolean;
  ttl: number;
  comment: string | null;
  tags: string[];
  priority?: number | null;
  data?: Record<string, unknown>;
  created_on: string;
  modified_on: string;
}

/** A zone's DNS records: the generated dataset computes them from their index, until the zone is written to. */
export interface RecordStore {
  readonly size: number;
  at(index: number): DnsRecord;
}

export class ArrayRecordStore implements RecordStore {
  constructor(readonly records: DnsRecord[] = []) {}
  get size(): number {
    return this.records.length;
  }
  at(index: number): DnsRecord {
    return this.records[index]!;
  }
}

export class LazyRecordStore implements RecordStore {
  constructor(
    readonly size: number,
    private readonly make: (index: number) => DnsRecord,
    /** Records edited since generation (the night control), by index; the rest are still computed. */
    private readonly edits: ReadonlyMap<number, DnsRecord> = new Map(),
  ) {}
  at(index: number): DnsRecord {
    return this.edits.get(index) ?? this.make(index);
  }
  /** The same records with one replaced, as a new store (views cached for the old one stay with it). */
  withEdit(index: number, record: DnsRecord): LazyRecordStore {
    return new LazyRecordStore(this.size, this.make, new Map(this.edits).set(index, record));
  }
}

export interface Certificate {
  id: string;
  hosts: string[];
  issuer: string;
  signature: string;
  status: string;
  bundle_method: string;
  zone_id: string;
  uploaded_on: string;
  modified_on: string;
  /** Absent while a pack is being issued. */
  expires_on?: string;
  priority: number | null;
}

export interface CertificatePack {
  id: string;
  type: string;
  hosts: string[];
  primary_certificate: string;
  status: string;
  certificates: Certificate[];
  /** Absent while a pack is still initializing. */
  created_on?: string;
  validity_days: number;
  validation_method: string;
  certificate_authority: string;
  validation_errors?: Array<{ message: string }>;
}

export interface Filter {
  id: string;
  expression: string;
  paused: boolean;
  description: string;
  ref?: string;
}

export interface FirewallRule {
  id: string;
  action: string;
  priority: number | null;
  paused: boolean;
  description: string;
  ref?: string;
  products?: string[];
  /** May name a filter that no longer exists: the API then answers `{id, deleted: true}`. */
  filterId: string;
  created_on: string;
  modified_on: string;
}

export interface WafRule {
  id: string;
  description: string;
  priority: string;
  mode: string;
  default_mode: string;
  allowed_modes: string[];
  group: { id: string; name: string };
  package_id: string;
}

export interface WafGroup {
  id: string;
  name: string;
  description: string;
  mode: 'on' | 'off';
  default_mode: 'on' | 'off';
  allowed_modes: string[];
  package_id: string;
  rules: WafRule[];
}

export interface WafPackage {
  id: string;
  name: string;
  description: string;
  detection_mode: 'anomaly' | 'traditional';
  zone_id: string;
  status: string;
  sensitivity?: 'high' | 'medium' | 'low' | 'off';
  action_mode?: 'simulate' | 'block' | 'challenge';
  groups: WafGroup[];
}

export interface WafOverride {
  id: string;
  description: string;
  urls: string[];
  priority: number;
  paused: boolean;
  groups: Record<string, string>;
  rules: Record<string, string>;
  rewrite_action: Record<string, string>;
}

export interface LegacyWaf {
  enabled: boolean;
  packages: WafPackage[];
  overrides: WafOverride[];
}

export interface Migration {
  state: MigrationState;
  /** When the current state began; the status endpoint's `created`. */
  since: string;
  source: string;
  /** The http_request_firewall_managed entry point; null until the first PUT. */
  entrypoint: Ruleset | null;
  /** A migration PUT whose new state the status does not show yet (the vendor: up to an hour). */
  switching?: { to: MigrationState; atMs: number } | null;
}

export interface Zone {
  id: string;
  name: string;
  status: 'initializing' | 'pending' | 'active' | 'moved';
  paused: boolean;
  type: 'full' | 'partial' | 'secondary';
  accountId: string;
  plan: Plan;
  name_servers: string[];
  created_on: string;
  modified_on: string;
  activated_on: string | null;
  dns: RecordStore;
  certificatePacks: CertificatePack[];
  /** Insertion-ordered, as the API lists them. */
  filters: Map<string, Filter>;
  firewallRules: Map<string, FirewallRule>;
  waf: LegacyWaf;
  migration: Migration;
  security: ZoneSecurity;
}

/** Where zones the dataset says nothing of are delegated: the emulator's two name servers. */
export const DEFAULT_NAME_SERVERS = ['ada.ns.example.net', 'bob.ns.example.net'];

type ZoneHead = Pick<Zone, 'id' | 'name' | 'status' | 'accountId' | 'plan' | 'created_on' | 'modified_on' | 'activated_on'>;

/** A zone with nothing in it yet, at migration state `start`, unless `over` says otherwise. */
export function newZone(head: ZoneHead, over: Partial<Zone> = {}): Zone {
  const { id, name, status, accountId, plan, created_on, modified_on, activated_on } = head;
  return {
    id, name, status, paused: false, type: 'full', accountId, plan, name_servers: DEFAULT_NAME_SERVERS, created_on, modified_on, activated_on,
    dns: new ArrayRecordStore(), certificatePacks: [], filters: new Map(), firewallRules: new Map(), waf: { enabled: false, packages: [], overrides: [] },
    migration: { state: 'start', since: created_on, source: 'api', entrypoint: null },
    security: over.security ?? defaultSecurity(created_on),
    ...over,
  };
}

export interface Invite {
  id: string;
  organization_id: string;
  organization_name: string;
  invited_by: string;
  invited_member_email: string;
  invited_on: string;
  expires_on: string;
  roles: Array<{ id: string; name: string; description: string }>;
  status: 'pending' | 'accepted' | 'rejected' | 'expired';
}

export interface OrgState {
  user: User;
  accounts: Account[];
  zones: Zone[];
  invites: Invite[];
}

/** The organisation plus the indexes and services that route handlers share. */
export class Organisation {
  readonly accountsById = new Map<string, Account>();
  readonly zonesById = new Map<string, Zone>();
  private memos = new Map<string, unknown>();
  /** How long a migration PUT takes to show in the status (`--migration-delay`); 0: at once. */
  migrationDelayMs = 0;
  /** The account audit log (version 2): every change made through the API or the night control. */
  readonly audit = new AuditLog();
  /** Nights the night control has advanced (night.ts). */
  nights = 0;

  constructor(
    readonly state: OrgState,
    readonly clock: EmulatorClock,
    readonly newId: () => string,
  ) {
    for (const a of state.accounts) this.accountsById.set(a.id, a);
    for (const z of state.zones) this.zonesById.set(z.id, z);
  }

  /** Marks the organisation changed, so derived views are rebuilt: after any write lists show, tests' too. */
  touch(): void {
    this.memos.clear();
  }

  /** A value derived from the state, computed once until the next touch. */
  memo<T>(key: string, build: () => T): T {
    if (!this.memos.has(key)) {
      if (this.memos.size > 64) this.memos.clear();
      this.memos.set(key, build());
    }
    return this.memos.get(key) as T;
  }

  /** Accounts the user can see: members only. */
  visibleAccounts(): Account[] {
    return this.state.accounts.filter((a) => a.member);
  }

  /** A zone is visible when its account is; others answer as if they did not exist. */
  visibleZone(id: string): Zone | undefined {
    const zone = this.zonesById.get(id);
    return zone && this.accountsById.get(zone.accountId)?.member ? zone : undefined;
  }

  visibleZones(): Zone[] {
    return this.state.zones.filter((z) => this.accountsById.get(z.accountId)?.member);
  }

  /** The zone's records in an array, materialising a generated zone first. */
  private records(zone: Zone): DnsRecord[] {
    if (zone.dns instanceof ArrayRecordStore) return zone.dns.records;
    const store = new ArrayRecordStore(Array.from({ length: zone.dns.size }, (_, i) => zone.dns.at(i)));
    zone.dns = store;
    return store.records;
  }

  /** Test and dataset hook: add a DNS record. */
  addDnsRecord(zone: Zone, record: DnsRecord): void {
    this.records(zone).push(record);
    this.touch();
  }

  /** Replaces record `index`, in a new store object so views cached for the old one (dns-records.ts) are not served. */
  replaceDnsRecord(zone: Zone, index: number, record: DnsRecord): void {
    if (zone.dns instanceof LazyRecordStore) zone.dns = zone.dns.withEdit(index, record);
    else {
      const records = this.records(zone);
      records[index] = record;
      zone.dns = new ArrayRecordStore(records);
    }
    this.touch();
  }

  addZone(zone: Zone): void {
    if (this.zonesById.has(zone.id)) throw new Error(`zone ${zone.id} already exists`);
    this.state.zones.push(zone);
    this.zonesById.set(zone.id, zone);
    this.touch();
  }

  removeZone(zone: Zone): void {
    const index = this.state.zones.indexOf(zone);
    if (index >= 0) this.state.zones.splice(index, 1);
    this.zonesById.delete(zone.id);
    this.touch();
  }
}

export const PLAN_RANK: Record<Plan, number> = { free: 0, pro: 1, business: 2, enterprise: 3 };

/** Custom firewall rules a zone may have, by plan (docs/api-surface.md). */
export const FIREWALL_RULE_QUOTA: Record<Plan, number> = { free: 5, pro: 20, business: 100, enterprise: 1000 };
