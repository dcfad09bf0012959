import type { ResolverCheck } from '../common/dns-target-answer.js';
import { setMaxListeners } from 'node:events';
import pLimit, { type LimitFunction } from 'p-limit';
import type { ApiClient } from '../api/client.js';
import { readCursorList } from '../api/cursor-list.js';
import { fillPath, type ListEndpoint, type ZoneReads } from '../api/endpoints.js';
import { ApiAbortedError, ApiAuthError, ApiError, ApiGoneError, ApiNetworkError } from '../api/errors.js';
import { abortableSleep } from '../api/pacer.js';
import type { PagedList } from '../api/paginate.js';
import type { Logger } from '../common/logger.js';
import { startingFailure } from './first-calls.js';
import type { PartitionWriter, ScanScope, ScanWriter } from '../snapshot/writer.js';
import type { Endpoint, PartitionKind } from '../snapshot/tables.js';
import { listProblem } from './list-problem.js';
import type { ReadPlan } from './incremental/read-plan.js';
import { PermissionStandings } from './incremental/permissions.js';
import { DEFERRED, type Deferred, type ZoneItem } from './reads/zone-read.js';
import { ZONE_READS } from './reads/index.js';

/**
 * The crawler's machinery for reading partitions, shared by every read: a list, an object or a
 * cursor-paged list into a partition, with its outcome recorded; the client and concurrency limit
 * of each credential; failures sorted into missing, denied, retired and skipped; and the repair
 * pass, which reads once more at the end of the scan what failed after its retries in a way that
 * may pass. What to read, and in what order, is the crawler's (crawl.ts) and the reads' (reads/).
 */

export interface CrawlOptions {
  client: ApiClient;
  clients?: import('../api/client-set.js').ClientSet;
  writer: ScanWriter;
  scope: ScanScope;
  concurrency: number;
  logger: Logger;
  signal?: AbortSignal;
  onProgress?: (progress: CrawlProgress) => void;
  /** Pause before the repair pass (default 30 s), so that a short outage can pass. */
  repairPauseMs?: number;
  /** The settings and objects the catalogue's rules declare (`meta.reads`); none when omitted. */
  reads?: ZoneReads;
  /** Which zones to read in full tonight (default: every zone). */
  plan?: ReadPlan;
}

/** Reads that failed after their retries wait this long before being read again. */
export const REPAIR_PAUSE_MS = 30_000;

export interface CrawlProgress {
  zonesDone: number;
  zonesKnown: number;
  accountsDone: number;
  accountsKnown: number;
  /** Reads waiting for, or in, the repair pass. */
  repairing?: number;
  /** Of the zones done: read in full tonight, and read only where due (the rest carried forward). */
  zonesRead?: number;
  zonesCarried?: number;
}

export interface MissingPart {
  kind: PartitionKind;
  scopeId: string;
  /** Zone or account name, when known. */
  name: string | null;
  endpoint: Endpoint;
  state: string;
  reason: string;
}

export interface CrawlResult {
  accounts: number;
  zones: number;
  missing: MissingPart[];
  /** Parts not readable with these credentials that do not make the scan incomplete. */
  notPermitted: MissingPart[];
  /** Parts the API answered as retired for good (410 Gone): not missing, nothing to retry. */
  retired: MissingPart[];
  skipped: number;
  /** Reads that failed after their retries and were read again at the end; `recovered` of them answered. */
  repairs: { attempted: number; recovered: number };
  /** Zones read in full tonight, and zones read only where due with the rest carried forward. */
  zonesRead: number;
  zonesCarried: number;
  /** Whether the scan read on from an earlier one, and why (or why not). */
  readMode: { incremental: boolean; why: string; base: number | null };
  /** When the scan started by the API's clock (its first answer's Date): where the next night's audit log window starts. */
  apiStartedAt: string | null;
  /** How the DNS resolver was checked before targets were judged; absent when no target was resolved. */
  resolver?: ResolverCheck;
}




export abstract class PartitionReads {
  protected readonly limit;
  /** The concurrency limits of the credentials other than the default (see limitOf). */
  protected readonly limits = new Map<ApiClient, LimitFunction>();
  protected readonly result: CrawlResult;
  protected readonly progress: CrawlProgress & { zonesRead: number; zonesCarried: number } = {
    zonesDone: 0,
    zonesKnown: 0,
    accountsDone: 0,
    accountsKnown: 0,
    zonesRead: 0,
    zonesCarried: 0,
  };
  /** Every task started, each settling without throwing (see track). */
  protected readonly tasks: Array<Promise<void>> = [];
  protected fatal: { error: unknown } | null = null;
  /** Stops the tasks after a fatal failure; `signal` also carries the caller's stop. */
  protected readonly stopper = new AbortController();
  protected readonly signal: AbortSignal;
  protected anyReadSucceeded = false;
  /** Parts answered as retired this scan, by scope id and endpoint: what lives under them went with them. */
  protected readonly retiredParts = new Map<string, { status: number | null; message: string }>();
  /** Reads to try again at the end of the scan, and the partitions they write, kept open until then. */
  protected repairs: Array<() => Promise<void>> = [];
  protected readonly held = new Map<string, PartitionWriter>();
  protected repairing = false;
  /** Reads of the repair pass that failed in a way that may pass: the ones it did not recover. */
  protected failedAgain = 0;
  /** What each credential was answered or refused tonight, by permission group (permissions.ts). */
  protected readonly permissions: PermissionStandings;
  /** Each zone's account, as the zone list served it: whose credential a zone part was read with. */
  protected readonly zoneAccounts = new Map<string, string | undefined>();

  constructor(
    protected readonly o: CrawlOptions,
    readMode: CrawlResult['readMode'],
  ) {
    this.result = {
      accounts: 0,
      zones: 0,
      missing: [],
      notPermitted: [],
      retired: [],
      skipped: 0,
      repairs: { attempted: 0, recovered: 0 },
      zonesRead: 0,
      zonesCarried: 0,
      readMode,
      apiStartedAt: null,
    };
    this.limit = pLimit(o.concurrency);
    this.permissions = new PermissionStandings(o.logger);
    this.signal = o.signal ? AbortSignal.any([o.signal, this.stopper.signal]) : this.stopper.signal;
    setMaxListeners(Math.max(10, o.concurrency * 4), this.signal);
  }

  /**
   * The client an account's reads go through: its own credential when the config maps one to it
   * (each with its own budget), else the default one.
   */
  protected clientOf(accountId: string | undefined): ApiClient {
    const set = this.o.clients;
    return set && accountId !== undefined && set.isMapped(accountId) ? set.forAccount(accountId) : this.o.client;
  }

  /** A zone part read tonight was answered: its credential holds the permission group of it. */
  protected answered(kind: PartitionKind, scopeId: string, endpoint: Endpoint): void {
    this.anyReadSucceeded = true;
    if (kind === 'zone') this.permissions.observe(this.clientOf(this.zoneAccounts.get(scopeId)), endpoint, { granted: true });
  }

  /** One concurrency limit per credential: one waiting for its budget holds up none of the others. */
  protected limitOf(client: ApiClient): LimitFunction {
    if (client === this.o.client) return this.limit;
    let limit = this.limits.get(client);
    if (!limit) this.limits.set(client, (limit = pLimit(this.o.concurrency)));
    return limit;
  }

  /** Waits for every task, including those enqueued while it waits, until the list stops growing. */
  protected async settle(): Promise<void> {
    for (let i = 0; i < this.tasks.length; i++) await this.tasks[i];
  }

  /**
   * Runs a task to its end whatever happens. The first failure that is not an API answer (a full
   * disk, rejected credentials) stops every other task, and the crawl returns only once all of
   * them have settled: none may still be writing when the caller marks the scan and closes the
   * database.
   */
  protected track(task: Promise<void>): void {
    this.tasks.push(
      task.catch((error: unknown) => {
        if (this.fatal) return;
        this.fatal = { error };
        this.stopper.abort(error);
      }),
    );
  }

  /** One more attempt at every read that failed after its retries; what fails now is final. */
  protected async repairPass(): Promise<void> {
    const todo = this.repairs;
    this.repairs = [];
    if (todo.length === 0) return;
    const pause = this.o.repairPauseMs ?? REPAIR_PAUSE_MS;
    this.o.logger.info(`${todo.length} ${todo.length === 1 ? 'read' : 'reads'} failed after their retries: reading ${todo.length === 1 ? 'it' : 'them'} again in ${Math.round(pause / 1000)} s`);
    this.progress.repairing = todo.length;
    this.report();
    try {
      await abortableSleep(pause, this.signal);
    } catch {
      throw new ApiAbortedError('the repair pass');
    }
    this.repairing = true;
    for (const redo of todo) this.track(this.limit(redo));
    await this.settle();
    this.result.repairs.attempted = todo.length;
    this.result.repairs.recovered = Math.max(0, todo.length - this.failedAgain);
    this.progress.repairing = 0;
    this.report();
  }

  /**
   * Holds a read that failed after its retries for the repair pass, when the failure may pass and
   * this is not the repair pass already. The partition stays open (not finished) until then.
   */
  protected deferred(err: unknown, partition: PartitionWriter | null, redo: () => Promise<unknown>): boolean {
    // Refused credentials or an unreachable API on the first calls end the scan at once.
    this.stopIfFirst(err);
    if (this.o.client.options.retries === 0) return false;
    if (!(err instanceof ApiError) || !err.retryable || err instanceof ApiAuthError || err.code === 'ZW_API_ABORTED') return false;
    if (this.repairing) {
      this.failedAgain++;
      return false;
    }
    if (partition) this.held.set(partitionKey(partition.kind, partition.scopeId, partition.endpoint), partition);
    this.repairs.push(async () => {
      await redo();
    });
    this.o.logger.debug(`${err.route}: failed after ${err.attempts} attempts, to be read again at the end of the scan: ${err.message}`);
    return true;
  }

  /** The partition's writer: the one a deferred read left open, or a new one. */
  protected partition(kind: PartitionKind, scopeId: string, endpoint: Endpoint): PartitionWriter {
    const key = partitionKey(kind, scopeId, endpoint);
    const open = this.held.get(key);
    if (open) {
      this.held.delete(key);
      return open;
    }
    return this.o.writer.partition(kind, scopeId, endpoint);
  }

  protected report(): void {
    this.o.onProgress?.({ ...this.progress });
  }

  /**
   * Reads a list into a partition, page by page, and records the outcome: true when read whole,
   * false when it failed, null when it waits for the repair pass.
   */
  protected async readList(
    kind: PartitionKind,
    scopeId: string,
    endpoint: Endpoint,
    makeList: () => PagedList<unknown>,
    name: string | null,
    /** What the repair pass does instead of reading this list again: the reads that depend on it too. */
    repair?: () => Promise<unknown>,
  ): Promise<boolean | null> {
    const partition = this.partition(kind, scopeId, endpoint);
    const list = makeList();
    try {
      for await (const page of list) partition.write(page);
      const s = list.summary;
      const problem = listProblem(s);
      partition.finish({ state: problem ? 'failed' : 'ok', pages: s.pages, items: s.items, truncated: s.truncated, message: problem });
      if (problem) this.missing(kind, scopeId, name, endpoint, 'failed', problem);
      else this.answered(kind, scopeId, endpoint);
      return problem === null;
    } catch (err) {
      if (this.deferred(err, partition, repair ?? (() => this.readList(kind, scopeId, endpoint, makeList, name)))) return null;
      this.failed(partition, err, list.summary.pages, list.summary.items, name);
      return false;
    }
  }

  /**
   * Reads a single object into a partition. `absentCode` is the API error that means "there is
   * none" (an answer, not a failure): the partition is then read, with no item.
   */
  protected async readObject(
    zone: ZoneItem,
    endpoint: Endpoint,
    path: string,
    query: Record<string, string> = {},
    absentCode?: number,
    /** What the repair pass does instead of reading this object again: the reads that depend on it too. */
    repair?: () => Promise<unknown>,
  ): Promise<Record<string, unknown> | null | Deferred> {
    const partition = this.partition('zone', zone.id, endpoint);
    try {
      const answer = await this.clientOf(zone.account?.id).get<Record<string, unknown>>(path, { query, signal: this.signal });
      // `result: null` is an answer with no object (a security.txt never set up), stored as none.
      const none = answer.result === null || answer.result === undefined;
      if (!none) partition.write([answer.result]);
      partition.finish({ state: 'ok', pages: 1, items: none ? 0 : 1 });
      this.answered('zone', zone.id, endpoint);
      return answer.result && typeof answer.result === 'object' ? answer.result : null;
    } catch (err) {
      if (absentCode !== undefined && err instanceof ApiError && err.hasCode(absentCode)) {
        partition.finish({ state: 'ok', pages: 1, items: 0, httpStatus: err.status, apiCode: absentCode });
        this.answered('zone', zone.id, endpoint);
      } else if (this.deferred(err, partition, repair ?? (() => this.readObject(zone, endpoint, path, query, absentCode)))) {
        return DEFERRED;
      } else {
        this.failed(partition, err, 0, 0, zone.name);
      }
      return null;
    }
  }

  /**
   * The first answers decide whether the API can be used at all: refused credentials or an API
   * that cannot be reached end the scan there. Later, a refusal is a permission this endpoint
   * lacks, and a connection failure one part that could not be read.
   */
  protected stopIfFirst(err: unknown): void {
    if (this.anyReadSucceeded || !(err instanceof ApiAuthError || (err instanceof ApiNetworkError && err.unreachable))) return;
    // With a credential per account, one refused is its accounts' loss (their parts are denied, its
    // variable named), not the scan's, while another credential may yet be taken.
    if (err instanceof ApiAuthError && this.anotherCredentialMayWork()) return;
    throw startingFailure(err, this.o.client.options, this.refusedCredentials());
  }

  /** The variables of the scan's credentials the API refused (null: the default credential's). */
  private refusedCredentials(): Array<string | null> {
    const clients = this.o.clients?.all() ?? [];
    return clients.filter((c) => c.credentialStanding === 'refused').map((c) => c.options.credentialVariables ?? null);
  }

  /**
   * Whether a credential of the scan has been taken by the API, or not refused yet: one asked or
   * answered, or one not used yet that holds accounts in the scan's scope (a refused default
   * credential's first call comes before any mapped credential's, which read their own accounts).
   */
  private anotherCredentialMayWork(): boolean {
    if (!this.o.clients) return this.o.client.credentialStanding === 'pending' || this.o.client.credentialStanding === 'answered';
    const scoped = this.o.scope.accounts.map((a) => a.toLowerCase());
    const inScope = (accounts: readonly string[] | null) => accounts !== null && accounts.some((a) => scoped.length === 0 || scoped.includes(a.toLowerCase()));
    return this.o.clients.labelled().some(({ client, accounts }) => {
      const standing = client.credentialStanding;
      return standing === 'pending' || standing === 'answered' || (standing === 'unused' && inScope(accounts));
    });
  }

  protected failed(partition: PartitionWriter, err: unknown, pages: number, items: number, name: string | null): void {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === 'ZW_API_ABORTED') throw err;
    this.stopIfFirst(err);
    const apiCode = err.firstCode;
    if (err instanceof ApiGoneError) {
      const message = retiredReason(err);
      partition.finish({ state: 'retired', pages, items, httpStatus: err.status, apiCode, errorCode: err.code, message });
      this.retiredParts.set(partKey(partition.scopeId, partition.endpoint), { status: err.status, message });
      this.missing(partition.kind, partition.scopeId, name, partition.endpoint, 'retired', message, 'retired');
      return;
    }
    // Token kinds that may not read invites (an account-owned token) answer 1001 as well as 401/403.
    const refused = err instanceof ApiAuthError || (partition.endpoint === 'invites' && err.hasCode(ACCOUNT_OWNED_TOKEN));
    const state = refused ? 'denied' : 'failed';
    // Whether the zone's part could be read before: only then is its refusal a permission lost (permissions.ts).
    const before = refused && partition.kind === 'zone' ? partition.previousState() : null;
    partition.finish({ state, pages, items, httpStatus: err.status, apiCode, errorCode: err.code, message: err.message });
    if (refused && partition.kind === 'zone') {
      this.permissions.observe(this.clientOf(this.zoneAccounts.get(partition.scopeId)), partition.endpoint, { refused: err, what: `${err.route}${name ? ` of ${name}` : ''}`, readBefore: before === 'ok' });
    }
    const optional = OPTIONAL_PARTS.has(partition.endpoint) && state === 'denied';
    this.missing(partition.kind, partition.scopeId, name, partition.endpoint, state, err.message, optional ? 'notPermitted' : 'missing');
  }

  protected missing(
    kind: PartitionKind,
    scopeId: string,
    name: string | null,
    endpoint: Endpoint,
    state: string,
    reason: string,
    list: 'missing' | 'notPermitted' | 'retired' = 'missing',
  ): void {
    this.result[list].push({ kind, scopeId, name, endpoint, state, reason });
    this.o.logger.debug(`could not read ${endpoint} of ${name ?? (scopeId || 'the user')}: ${reason}`);
  }

  /**
   * A part the zone would carry forward, of a permission group its credential was refused tonight:
   * recorded denied, as a read of it would be, with what was refused and where. What the last read
   * stored stays in that scan; the next night that may read it reads it again.
   */
  protected deniedNotCarried(zone: ZoneItem, endpoint: Endpoint, refusal: { group: { label: string }; error: ApiError; what: string }): void {
    const err = refusal.error;
    const message = `not carried forward: the credential was refused ${refusal.group.label} tonight (${refusal.what}: ${err.message})`;
    this.partition('zone', zone.id, endpoint).finish({ state: 'denied', pages: 0, items: 0, httpStatus: err.status, apiCode: err.firstCode, errorCode: err.code, message });
    const optional = OPTIONAL_PARTS.has(endpoint);
    this.missing('zone', zone.id, zone.name, endpoint, 'denied', message, optional ? 'notPermitted' : 'missing');
  }

  protected skip(zone: ZoneItem, endpoint: Endpoint, why: string): void {
    this.partition('zone', zone.id, endpoint).finish({ state: 'skipped', pages: 0, items: 0, message: why });
    this.result.skipped++;
  }

  protected list(endpoint: ListEndpoint, params: Record<string, string>, query: Record<string, string> = {}, client = this.o.client): PagedList<unknown> {
    return client.list(fillPath(endpoint.template, params), {
      perPage: endpoint.crawlPerPage ?? endpoint.maxPerPage,
      minPerPage: endpoint.minPerPage,
      query: { ...endpoint.query, ...query },
      signal: this.signal,
    });
  }

  /**
   * A cursor-paged list of the zone (its rulesets) into a partition: its items, null when it
   * failed, or DEFERRED when it waits for the repair pass.
   */
  protected async readCursorList(zone: ZoneItem, endpoint: Endpoint, path: string, perPage: number, repair?: () => Promise<unknown>): Promise<unknown[] | null | Deferred> {
    const partition = this.partition('zone', zone.id, endpoint);
    try {
      const read = await readCursorList<unknown>(this.clientOf(zone.account?.id), path, { pageSize: { param: 'per_page', value: perPage }, signal: this.signal });
      partition.write(read.items);
      const problem = read.truncated ? `list truncated (${read.truncatedReason})` : null;
      partition.finish({ state: problem ? 'failed' : 'ok', pages: read.pages, items: read.items.length, truncated: read.truncated, message: problem });
      if (problem) {
        this.missing('zone', zone.id, zone.name, endpoint, 'failed', problem);
        return null;
      }
      this.answered('zone', zone.id, endpoint);
      return read.items;
    } catch (err) {
      if (this.deferred(err, partition, repair ?? (() => this.readCursorList(zone, endpoint, path, perPage)))) return DEFERRED;
      this.failed(partition, err, 0, 0, zone.name);
      return null;
    }
  }
}

/** The API error an account-owned token gets from `GET /accounts` (and from user-level endpoints). */
export const ACCOUNT_OWNED_TOKEN = 1001;

function retiredReason(err: ApiGoneError): string {
  const said = err.apiErrors.map((e) => e.message).join('; ');
  return `the API retired this endpoint (HTTP ${err.status ?? '?'}${said ? `: ${said}` : ''}); the data it served no longer exists there`;
}


function partitionKey(kind: PartitionKind, scopeId: string, endpoint: Endpoint): string {
  return `${kind}\u0000${scopeId}\u0000${endpoint}`;
}

/** A part's key among a scan's parts: its scope's id and its endpoint. */
export const partKey = (scopeId: string, endpoint: Endpoint): string => `${scopeId}\u0000${endpoint}`;

/**
 * Parts whose refusal leaves the scan complete, listed as not permitted: the user's invites (an
 * account-owned token may not read them), and the zone reads declared optional.
 */
const OPTIONAL_PARTS: ReadonlySet<Endpoint> = new Set<Endpoint>(['invites', ...ZONE_READS.filter((r) => r.optional).flatMap((r) => r.partitions)]);
