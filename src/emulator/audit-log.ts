import { formatApiTime } from './clock.js';
import { stableId, stableUuid } from './ids.js';

/**
 * The account audit log (version 2, vendor's API reference): an entry per resource a write through
 * the API or the night control changed; reads and certificate renewals are not logged
 * (docs/dataset-format.md, "Audit log", lists every guess).
 */

/** What the log needs of a zone and of the organisation: not state.ts's types, as the state holds the log. */
export interface LoggedZone {
  id: string;
  name: string;
  accountId: string;
}
export interface AccountNames {
  readonly accountsById: ReadonlyMap<string, { name: string }>;
}

export const ACTION_TYPES = ['create', 'update', 'delete', 'view'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
export const RESOURCE_SCOPES = ['accounts', 'user', 'zones', 'memberships'] as const;
export type ResourceScope = (typeof RESOURCE_SCOPES)[number];
export const ACTOR_TYPES = ['account', 'cloudflare_admin', 'system', 'user'] as const;
export const ACTOR_CONTEXTS = ['api_key', 'api_token', 'dash', 'oauth', 'origin_ca_key'] as const;
export const ACTION_RESULTS = ['success', 'failure'] as const;

/** Vendor: audit log entries are kept 18 months. */
export const RETENTION_MONTHS = 18;

export interface AuditActor {
  id: string;
  context: (typeof ACTOR_CONTEXTS)[number];
  email: string;
  ip_address: string;
  /** Emulator's guess: an empty string (not absent) when the actor did not use a token. */
  token_id: string;
  token_name: string;
  type: (typeof ACTOR_TYPES)[number];
}

export interface AuditEntry {
  id: string;
  account: { id: string; name: string };
  action: { description: string; result: (typeof ACTION_RESULTS)[number]; time: string; type: ActionType };
  actor: AuditActor;
  raw: { cf_ray_id: string; method: string; status_code: number; uri: string; user_agent: string };
  resource: { id: string; product: string; request: unknown; response: unknown; scope: ResourceScope; type: string };
  /** Only on entries about a zone's resources (the emulator's reading of the vendor's schema). */
  zone?: { id: string; name: string };
}

/** One resource a write changed. */
export interface Change {
  type: Exclude<ActionType, 'view'>;
  product: string;
  resourceType: string;
  resourceId: string;
  description: string;
  scope: ResourceScope;
  /** The zone the resource belongs to; its account is the entry's account. */
  zone?: LoggedZone;
  /** The account of an account-level resource (scope `accounts` or `memberships`). */
  accountId?: string;
  request?: unknown;
  response?: unknown;
}

/** The call a change came with: who made it, from where, and how the API answered. */
export interface ChangeRequest {
  actor: AuditActor;
  method: string;
  /** Path and query, as the client sent them. */
  uri: string;
  userAgent: string;
  statusCode: number;
}

/** A zone's change, with the scope and zone every zone-level entry carries. */
export function zoneChange(zone: LoggedZone, change: Omit<Change, 'zone' | 'scope' | 'accountId'>): Change {
  return { ...change, zone, scope: 'zones' };
}

const DONE = { create: 'created', update: 'updated', delete: 'deleted' } as const;

/** A write to one of a zone's resources, described as the log describes it: "<what> created", "updated" or "deleted"; `why` ends it. */
export function zoneWrite(zone: LoggedZone, type: Change['type'], resource: { product: string; type: string; what: string }, resourceId: string, request: unknown, response: unknown, why = ''): Change {
  return zoneChange(zone, { type, product: resource.product, resourceType: resource.type, resourceId, description: `${resource.what} ${DONE[type]}${why}`, request, response });
}

/** Where a page ended: the last entry's time and sequence number. */
export interface LogPosition {
  ms: number;
  seq: number;
}

interface Stored extends LogPosition {
  entry: AuditEntry;
}

export interface LogQuery {
  accountId: string;
  /** Inclusive. */
  sinceMs: number;
  /** Exclusive. */
  beforeMs: number;
  direction: 'asc' | 'desc';
  keep: (entry: AuditEntry) => boolean;
  /** Continue after this position (in the query's direction). */
  after?: LogPosition;
  limit: number;
}

function compare(a: LogPosition, b: LogPosition): number {
  return a.ms - b.ms || a.seq - b.seq;
}

export class AuditLog {
  /** Sorted by time, then by the order of logging. */
  private readonly stored: Stored[] = [];
  private seq = 0;

  get size(): number {
    return this.stored.length;
  }

  append(org: AccountNames, change: Change, how: ChangeRequest, at: Date): AuditEntry {
    const accountId = change.zone?.accountId ?? change.accountId;
    if (accountId === undefined) throw new Error(`audit log: a ${change.resourceType} change names neither a zone nor an account`);
    const seq = ++this.seq;
    const entry: AuditEntry = {
      id: stableUuid('audit-entry', seq),
      account: { id: accountId, name: org.accountsById.get(accountId)?.name ?? '' },
      action: { description: change.description, result: 'success', time: formatApiTime(at), type: change.type },
      actor: how.actor,
      raw: {
        // Emulator: 16 hex digits, the form of the ray ids the API's answers carry, without a colo suffix.
        cf_ray_id: stableId('ray', seq).slice(0, 16),
        method: how.method,
        status_code: how.statusCode,
        uri: how.uri,
        user_agent: how.userAgent,
      },
      resource: {
        id: change.resourceId,
        product: change.product,
        request: change.request ?? null,
        response: change.response ?? null,
        scope: change.scope,
        type: change.resourceType,
      },
    };
    if (change.zone) entry.zone = { id: change.zone.id, name: change.zone.name };
    const item: Stored = { ms: at.getTime(), seq, entry };
    // Almost always the newest: insert from the end.
    let i = this.stored.length;
    while (i > 0 && compare(this.stored[i - 1]!, item) > 0) i--;
    this.stored.splice(i, 0, item);
    return entry;
  }

  /** The index of the first stored entry at or after `p` (binary search: the list is sorted). */
  private lowerBound(p: LogPosition): number {
    let lo = 0;
    let hi = this.stored.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(this.stored[mid]!, p) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** One page of an account's entries in [since, before), and where the next starts (null: none); walks the window only. */
  page(q: LogQuery): { entries: AuditEntry[]; next: LogPosition | null } {
    const picked: Stored[] = [];
    const keep = (s: Stored) => s.entry.account.id === q.accountId && q.keep(s.entry);
    // One more than the page: whether a next page exists.
    const full = () => picked.length > q.limit;
    if (q.direction === 'asc') {
      const from = q.after ? this.lowerBound({ ms: q.after.ms, seq: q.after.seq + 1 }) : 0;
      for (let i = Math.max(from, this.lowerBound({ ms: q.sinceMs, seq: 0 })); i < this.stored.length && !full(); i++) {
        const s = this.stored[i]!;
        if (s.ms >= q.beforeMs) break;
        if (keep(s)) picked.push(s);
      }
    } else {
      const to = q.after ? this.lowerBound(q.after) : this.stored.length;
      for (let i = Math.min(to, this.lowerBound({ ms: q.beforeMs, seq: 0 })) - 1; i >= 0 && !full(); i--) {
        const s = this.stored[i]!;
        if (s.ms < q.sinceMs) break;
        if (keep(s)) picked.push(s);
      }
    }
    const more = picked.length > q.limit;
    const page = picked.slice(0, q.limit);
    const last = page[page.length - 1];
    return { entries: page.map((s) => s.entry), next: more && last ? { ms: last.ms, seq: last.seq } : null };
  }

  /** Every entry, oldest first (tests and the night control's report). */
  all(): AuditEntry[] {
    return this.stored.map((s) => s.entry);
  }
}

/** The oldest instant the log still answers for: 18 months before `now`. */
export function retentionStart(now: Date): number {
  const d = new Date(now.getTime());
  d.setUTCMonth(d.getUTCMonth() - RETENTION_MONTHS);
  return d.getTime();
}
