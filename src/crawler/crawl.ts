import { setMaxListeners } from 'node:events';
import pLimit, { type LimitFunction } from 'p-limit';
import type { ApiClient } from '../api/client.js';
import { readCursorList } from '../api/cursor-list.js';
import { fillPath, LIST_ENDPOINTS, type ListEndpoint, type ZoneReads } from '../api/endpoints.js';
import { ApiAbortedError, ApiAuthError, ApiError, ApiGoneError, ApiNetworkError } from '../api/errors.js';
import { abortableSleep } from '../api/pacer.js';
import type { PagedList } from '../api/paginate.js';
import type { Logger } from '../common/logger.js';
import { ScanCannotStart, startingFailure } from './first-calls.js';
import type { PartitionWriter, ScanScope, ScanWriter } from '../snapshot/writer.js';
import type { Endpoint, PartitionKind } from '../snapshot/tables.js';
import { canonicalZoneName } from '../snapshot/scope.js';
import { closestNames, describeUnmatched, ScopeMatchedNothing, type UnmatchedName } from './scope-match.js';
import { listProblem } from './list-problem.js';
import { ReadPlan } from './read-plan.js';
import { readZoneParts } from './read-zone.js';
import { DEFERRED, type Deferred, type ReadKit, type ZoneFacts, type ZoneItem } from './reads/zone-read.js';

/**
 * What to read for the user, each account and each zone, and in what order: the crawler lists
 * accounts and zones, hands each zone to its reads (reads/, one module each, in the order of
 * reads/index.ts), and keeps the concurrency, the repair pass and the completeness of the scan.
 * How much of a zone is read tonight is the read plan's (read-plan.ts): in full, or only what
 * can have changed unlogged, the rest carried forward from the last scan.
 *
 * A read that still fails after the client's retries with a failure that may pass (5xx, timeouts,
 * resets, malformed answers) is not recorded yet: it waits for a repair pass at the end of the
 * scan, after a pause, which reads it again with the same partition writer (items the first attempt
 * stored are not stored twice). Only what fails again there makes the scan incomplete.
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
}




export async function crawl(options: CrawlOptions): Promise<CrawlResult> {
  // Every request in flight listens to the stop signal: more than Node's default of 10 at high concurrency.
  if (options.signal) setMaxListeners(Math.max(10, options.concurrency * 4), options.signal);
  return new Crawler(options).run();
}

class Crawler {
  private readonly limit;
  /** The concurrency limits of the credentials other than the default (see limitOf). */
  private readonly limits = new Map<ApiClient, LimitFunction>();
  private readonly result: CrawlResult;
  /** Names in --zone or --account that matched nothing these credentials see. */
  private readonly unmatched: UnmatchedName[] = [];
  private readonly progress: CrawlProgress & { zonesRead: number; zonesCarried: number } = {
    zonesDone: 0,
    zonesKnown: 0,
    accountsDone: 0,
    accountsKnown: 0,
    zonesRead: 0,
    zonesCarried: 0,
  };
  private readonly plan: ReadPlan;
  private kitValue: ReadKit | undefined;
  /** When the crawl started: when its zones read in full were read. */
  private readonly startedAt = new Date().toISOString();
  /** Every task started, each settling without throwing (see track). */
  private readonly tasks: Array<Promise<void>> = [];
  private fatal: { error: unknown } | null = null;
  /** Stops the tasks after a fatal failure; `signal` also carries the caller's stop. */
  private readonly stopper = new AbortController();
  private readonly signal: AbortSignal;
  private readonly seenZones = new Set<string>();
  private migratedBefore = new Set<string>();
  /** Each account's type as the account list says it (`enterprise` accounts have account-level entry points). */
  private readonly accountTypes = new Map<string, string>();
  /** Each account's managed entry point, read once and kept with every zone of the account. */
  private readonly accountEntrypoints = new Map<string, Promise<Record<string, unknown> | null>>();
  private anyReadSucceeded = false;
  /** Zones whose WAF packages endpoint answered as retired: their groups and rules went with it. */
  private readonly retiredPackages = new Map<string, { status: number | null; message: string }>();
  /** Reads to try again at the end of the scan, and the partitions they write, kept open until then. */
  private repairs: Array<() => Promise<void>> = [];
  private readonly held = new Map<string, PartitionWriter>();
  private repairing = false;
  /** Reads of the repair pass that failed in a way that may pass: the ones it did not recover. */
  private failedAgain = 0;

  constructor(private readonly o: CrawlOptions) {
    this.plan = o.plan ?? ReadPlan.full(o.writer, o.logger);
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
      readMode: { incremental: this.plan.incremental, why: this.plan.why, base: this.plan.base?.scanId ?? null },
      apiStartedAt: null,
    };
    this.limit = pLimit(o.concurrency);
    this.signal = o.signal ? AbortSignal.any([o.signal, this.stopper.signal]) : this.stopper.signal;
    setMaxListeners(Math.max(10, o.concurrency * 4), this.signal);
  }

  /**
   * The client an account's reads go through: its own credential when the config maps one to it
   * (each with its own budget), else the default one.
   */
  private clientOf(accountId: string | undefined): ApiClient {
    const set = this.o.clients;
    return set && accountId !== undefined && set.isMapped(accountId) ? set.forAccount(accountId) : this.o.client;
  }

  /** One concurrency limit per credential: one waiting for its budget holds up none of the others. */
  private limitOf(client: ApiClient): LimitFunction {
    if (client === this.o.client) return this.limit;
    let limit = this.limits.get(client);
    if (!limit) this.limits.set(client, (limit = pLimit(this.o.concurrency)));
    return limit;
  }

  /** Without a default credential (every account mapped to its own), nothing is read at the user level. */
  private get userLevel(): boolean {
    return !this.o.clients || this.o.clients.default !== null;
  }

  async run(): Promise<CrawlResult> {
    this.migratedBefore = this.o.writer.migratedZones();
    const accountIds = this.userLevel ? this.withMappedAccounts(await this.readAccounts()) : this.mappedScope();
    // The first answer came in a moment ago: the API's clock at the start of the scan.
    this.result.apiStartedAt = this.o.client.serverNow().toISOString();
    // Until some read has succeeded, a refusal of invites would say nothing the zones will not:
    // they are then read once the zones are listed.
    const invitesNow = this.anyReadSucceeded || !this.userLevel;
    if (invitesNow && this.userLevel) this.track(this.readInvites());
    const listings = this.tasks.length;
    if (this.o.scope.zones.length > 0) {
      for (const name of this.o.scope.zones) this.track(this.limit(() => this.readNamedZone(name)));
    } else if (accountIds === 'from-zones') {
      this.track(this.readAllZones());
    } else {
      for (const id of accountIds) this.track(this.limitOf(this.clientOf(id))(() => this.readAccountZones(id)));
    }
    if (!invitesNow) {
      await Promise.all(this.tasks.slice(listings));
      if (!this.fatal) this.track(this.readInvites());
    }
    await this.settle();
    if (!this.fatal) await this.repairPass();
    if (this.fatal) throw this.fatal.error;
    await this.checkScopeMatched();
    return this.result;
  }

  /**
   * Accounts mapped to a credential of their own that the default credential's account list does
   * not show (an account-owned token's account the user is not a member of): read with their own.
   */
  private withMappedAccounts(ids: string[] | 'from-zones'): string[] | 'from-zones' {
    const mapped = this.o.clients?.mappedAccounts() ?? [];
    if (ids === 'from-zones' || mapped.length === 0) return ids;
    const scoped = this.o.scope.accounts;
    const extra = mapped.filter((id) => !ids.includes(id) && (scoped.length === 0 || scoped.includes(id)));
    if (extra.length === 0) return ids;
    this.unmatched.splice(0, this.unmatched.length, ...this.unmatched.filter((u) => !(u.option === '--account' && extra.includes(u.name))));
    this.result.accounts += extra.length;
    this.progress.accountsKnown += extra.length;
    return [...ids, ...extra];
  }

  /** The accounts to read when every one has its own credential: --account's, else every mapped one. */
  private mappedScope(): string[] {
    const scoped = this.o.scope.accounts;
    const ids = scoped.length ? scoped : (this.o.clients?.mappedAccounts() ?? []);
    this.result.accounts = ids.length;
    this.progress.accountsKnown = ids.length;
    return [...ids];
  }

  /** Waits for every task, including those enqueued while it waits, until the list stops growing. */
  private async settle(): Promise<void> {
    for (let i = 0; i < this.tasks.length; i++) await this.tasks[i];
  }

  /**
   * A scope none of whose names matched is an error, not an empty scan; names that matched
   * nothing beside others that did make the scan incomplete, each named in what is missing.
   */
  private async checkScopeMatched(): Promise<void> {
    const unmatched = this.unmatched;
    if (unmatched.length === 0) return;
    const scope = this.o.scope;
    const count = (option: UnmatchedName['option']) => unmatched.filter((u) => u.option === option).length;
    const nothing = this.result.zones === 0 && (scope.zones.length > 0 ? count('--zone') === scope.zones.length : count('--account') === scope.accounts.length);
    if (nothing) {
      await this.suggestZones(unmatched.filter((u) => u.option === '--zone'));
      throw new ScopeMatchedNothing(unmatched);
    }
    for (const u of unmatched) {
      const kind = u.option === '--zone' ? 'zone' : 'account';
      this.missing(kind, '', u.name, kind === 'zone' ? 'zone' : 'zones', 'failed', describeUnmatched(u));
    }
  }

  /**
   * Zone names to suggest for a typo: those this database has seen and the first page of the
   * zone list. Listing every zone of a large organisation to correct a typo would spend hundreds
   * of requests of the shared budget.
   */
  private async suggestZones(unmatched: UnmatchedName[]): Promise<void> {
    if (unmatched.length === 0) return;
    const names = new Set(this.o.writer.all<{ name: string }>('SELECT DISTINCT name FROM zones').map((r) => r.name));
    try {
      const answer = await this.o.client.get<ZoneItem[]>('/zones', { query: { per_page: String(LIST_ENDPOINTS.zones.maxPerPage), order: 'name' }, signal: this.signal });
      for (const z of Array.isArray(answer.result) ? answer.result : []) if (typeof z?.name === 'string') names.add(z.name);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
    for (const u of unmatched) u.closest = closestNames(u.name, names);
  }

  /**
   * Runs a task to its end whatever happens. The first failure that is not an API answer (a full
   * disk, rejected credentials) stops every other task, and the crawl returns only once all of
   * them have settled: none may still be writing when the caller marks the scan and closes the
   * database.
   */
  private track(task: Promise<void>): void {
    this.tasks.push(
      task.catch((error: unknown) => {
        if (this.fatal) return;
        this.fatal = { error };
        this.stopper.abort(error);
      }),
    );
  }

  /** One more attempt at every read that failed after its retries; what fails now is final. */
  private async repairPass(): Promise<void> {
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
  private deferred(err: unknown, partition: PartitionWriter | null, redo: () => Promise<unknown>): boolean {
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
  private partition(kind: PartitionKind, scopeId: string, endpoint: Endpoint): PartitionWriter {
    const key = partitionKey(kind, scopeId, endpoint);
    const open = this.held.get(key);
    if (open) {
      this.held.delete(key);
      return open;
    }
    return this.o.writer.partition(kind, scopeId, endpoint);
  }

  private report(): void {
    this.o.onProgress?.({ ...this.progress });
  }

  /**
   * Reads a list into a partition, page by page, and records the outcome: true when read whole,
   * false when it failed, null when it waits for the repair pass.
   */
  private async readList(
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
      else this.anyReadSucceeded = true;
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
  private async readObject(
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
      partition.write([answer.result]);
      partition.finish({ state: 'ok', pages: 1, items: 1 });
      this.anyReadSucceeded = true;
      return answer.result && typeof answer.result === 'object' ? answer.result : null;
    } catch (err) {
      if (absentCode !== undefined && err instanceof ApiError && err.hasCode(absentCode)) {
        partition.finish({ state: 'ok', pages: 1, items: 0, httpStatus: err.status, apiCode: absentCode });
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
  private stopIfFirst(err: unknown): void {
    if (this.anyReadSucceeded || !(err instanceof ApiAuthError || (err instanceof ApiNetworkError && err.unreachable))) return;
    throw startingFailure(err, this.o.client.options);
  }

  private failed(partition: PartitionWriter, err: unknown, pages: number, items: number, name: string | null): void {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === 'ZW_API_ABORTED') throw err;
    this.stopIfFirst(err);
    const apiCode = err.apiErrors.find((e) => e.code !== undefined)?.code ?? null;
    if (err instanceof ApiGoneError) {
      const message = retiredReason(err);
      partition.finish({ state: 'retired', pages, items, httpStatus: err.status, apiCode, errorCode: err.code, message });
      if (partition.endpoint === 'waf_packages') this.retiredPackages.set(partition.scopeId, { status: err.status, message });
      this.missing(partition.kind, partition.scopeId, name, partition.endpoint, 'retired', message, 'retired');
      return;
    }
    // Token kinds that may not read invites (an account-owned token) answer 1001 as well as 401/403.
    const refused = err instanceof ApiAuthError || (partition.endpoint === 'invites' && err.hasCode(ACCOUNT_OWNED_TOKEN));
    const state = refused ? 'denied' : 'failed';
    partition.finish({ state, pages, items, httpStatus: err.status, apiCode, errorCode: err.code, message: err.message });
    // A token without the account's rulesets permission still audits every zone's own entry point.
    const optional = (partition.endpoint === 'invites' || partition.endpoint === 'account_entrypoint') && state === 'denied';
    this.missing(partition.kind, partition.scopeId, name, partition.endpoint, state, err.message, optional ? 'notPermitted' : 'missing');
  }

  private missing(
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

  private skip(zone: ZoneItem, endpoint: Endpoint, why: string): void {
    this.partition('zone', zone.id, endpoint).finish({ state: 'skipped', pages: 0, items: 0, message: why });
    this.result.skipped++;
  }

  private list(endpoint: ListEndpoint, params: Record<string, string>, query: Record<string, string> = {}, client = this.o.client): PagedList<unknown> {
    return client.list(fillPath(endpoint.template, params), {
      perPage: endpoint.crawlPerPage ?? endpoint.maxPerPage,
      minPerPage: endpoint.minPerPage,
      query: { ...endpoint.query, ...query },
      signal: this.signal,
    });
  }

  /**
   * The account list, or `from-zones` when the credentials cannot list accounts (an account-owned
   * token answers 1001) and no --account names them: the zone list then says which accounts exist.
   */
  private async readAccounts(): Promise<string[] | 'from-zones'> {
    const partition = this.partition('user', '', 'accounts');
    const list = this.list(LIST_ENDPOINTS.accounts, {});
    const ids: string[] = [];
    let whole = false;
    try {
      for await (const page of list) {
        partition.write(page);
        for (const a of page as Array<{ id?: unknown; type?: unknown }>) {
          if (typeof a.id !== 'string') continue;
          ids.push(a.id);
          if (typeof a.type === 'string') this.accountTypes.set(a.id, a.type);
        }
      }
      const problem = listProblem(list.summary);
      whole = problem === null;
      partition.finish({ state: problem ? 'failed' : 'ok', pages: list.summary.pages, items: list.summary.items, truncated: list.summary.truncated, message: problem });
      if (problem) this.missing('user', '', null, 'accounts', 'failed', problem);
      this.anyReadSucceeded = true;
    } catch (err) {
      if (err instanceof ApiError && err.hasCode(ACCOUNT_OWNED_TOKEN)) return this.accountOwnedToken(partition, err);
      // Unscoped, the zones come from the accounts: the repair pass reads both.
      const repair = this.o.scope.accounts.length ? () => this.readAccounts() : () => this.readAccountsAndZones();
      if (!this.deferred(err, partition, repair)) this.failed(partition, err, list.summary.pages, list.summary.items, null);
      // Without the account list, scoped account ids can still be read.
    }
    const scoped = this.o.scope.accounts;
    let chosen = scoped.length ? scoped : ids;
    if (scoped.length && whole) {
      // The account list is whole: an id not in it is not visible to these credentials.
      const missing = scoped.filter((id) => !ids.includes(id));
      for (const id of missing) {
        this.unmatched.push({ option: '--account', name: id, why: 'no account with this id is visible to these credentials', closest: closestNames(id, ids) });
      }
      chosen = scoped.filter((id) => ids.includes(id));
    }
    this.result.accounts = chosen.length;
    this.progress.accountsKnown = chosen.length;
    this.report();
    return chosen;
  }

  /**
   * An account-owned token may not list accounts (400, code 1001). That is what the token is, not
   * a gap: the accounts are the ones --account names, or the ones the zones name.
   */
  private accountOwnedToken(partition: PartitionWriter, err: ApiError): string[] | 'from-zones' {
    const scoped = this.o.scope.accounts;
    const from = scoped.length ? 'the accounts --account names' : 'the zones it can read';
    const message = `these credentials are an account-owned token, which cannot list accounts (API error ${ACCOUNT_OWNED_TOKEN}); the accounts were taken from ${from}`;
    partition.finish({ state: 'denied', pages: 0, items: 0, httpStatus: err.status, apiCode: ACCOUNT_OWNED_TOKEN, errorCode: err.code, message });
    this.missing('user', '', null, 'accounts', 'denied', message, 'notPermitted');
    if (!scoped.length) return 'from-zones';
    this.result.accounts = scoped.length;
    this.progress.accountsKnown = scoped.length;
    this.report();
    return [...scoped];
  }

  /**
   * Every zone the credentials see, in one list (`GET /zones` without an account): for tokens that
   * cannot list accounts. Each zone names its account, so each account's listing is recorded as
   * read (or not) with the whole list, as readAccountZones records it.
   */
  private async readAllZones(): Promise<void> {
    const whole = this.partition('user', '', 'zones');
    const list = this.list(LIST_ENDPOINTS.zones, {});
    const byAccount = new Map<string, string[]>();
    try {
      for await (const page of list) {
        for (const zone of page as ZoneItem[]) {
          if (typeof zone?.id !== 'string') continue;
          const account = typeof zone.account?.id === 'string' ? zone.account.id : '';
          let ids = byAccount.get(account);
          if (!ids) byAccount.set(account, (ids = []));
          ids.push(zone.id);
          this.enqueueZone(zone);
        }
        this.anyReadSucceeded = true;
      }
    } catch (err) {
      if (!this.deferred(err, whole, () => this.readAllZones())) this.failed(whole, err, list.summary.pages, list.summary.items, null);
      return;
    }
    const problem = listProblem(list.summary);
    const s = list.summary;
    whole.finish({ state: problem ? 'failed' : 'ok', pages: s.pages, items: s.items, truncated: s.truncated, message: problem });
    if (problem) this.missing('user', '', null, 'zones', 'failed', problem);
    this.anyReadSucceeded = true;
    byAccount.delete('');
    this.result.accounts = byAccount.size;
    this.progress.accountsKnown = this.progress.accountsDone = byAccount.size;
    for (const [accountId, listed] of byAccount) {
      const listing = this.o.writer.partition('account', accountId, 'zones');
      listing.finish({ state: problem ? 'failed' : 'ok', pages: s.pages, items: listed.length, truncated: s.truncated, message: problem });
      if (!problem) this.closeVanished(accountId, listing.previousOk, listed);
    }
    this.report();
  }

  /** The repair of an account list that failed: its accounts' zones were never listed. */
  private async readAccountsAndZones(): Promise<void> {
    const ids = await this.readAccounts();
    if (ids === 'from-zones') return this.readAllZones();
    // One account after another: this runs inside the crawl's concurrency limit already.
    for (const id of ids) await this.readAccountZones(id);
  }

  private async readInvites(): Promise<void> {
    const partition = this.partition('user', '', 'invites');
    try {
      // Not paginated: one call answers the whole list.
      const answer = await this.o.client.get<unknown[]>('/user/invites', { signal: this.signal });
      const items = Array.isArray(answer.result) ? answer.result : [];
      partition.write(items);
      partition.finish({ state: 'ok', pages: 1, items: items.length });
    } catch (err) {
      if (!this.deferred(err, partition, () => this.readInvites())) this.failed(partition, err, 0, 0, null);
    }
  }

  private async readAccountZones(accountId: string): Promise<void> {
    const listing = this.partition('account', accountId, 'zones');
    const list = this.list(LIST_ENDPOINTS.zones, {}, { 'account.id': accountId }, this.clientOf(accountId));
    const listed: string[] = [];
    try {
      for await (const page of list) {
        for (const zone of page as ZoneItem[]) {
          if (typeof zone?.id !== 'string') continue;
          listed.push(zone.id);
          this.enqueueZone(zone);
        }
      }
      const s = list.summary;
      const problem = listProblem(s);
      listing.finish({ state: problem ? 'failed' : 'ok', pages: s.pages, items: s.items, truncated: s.truncated, message: problem });
      if (problem) this.missing('account', accountId, null, 'zones', 'failed', problem);
      else this.closeVanished(accountId, listing.previousOk, listed);
    } catch (err) {
      if (this.deferred(err, listing, () => this.readAccountZones(accountId))) return;
      this.failed(listing, err, list.summary.pages, list.summary.items, null);
    }
    this.progress.accountsDone++;
    this.report();
  }

  /**
   * Zones the previous complete listing had and this one does not: their partitions count as
   * attempted in this scan, so that none of their versions can span it if they come back later.
   */
  private closeVanished(accountId: string, previousOk: number | null, listed: string[]): void {
    if (previousOk === null) return;
    const current = new Set(listed.map((id) => this.o.writer.storedId(id)));
    const vanished = this.o.writer.zonesOfAccountAt(accountId, previousOk).filter((id) => !current.has(id));
    if (vanished.length) this.o.writer.closeZones(vanished);
  }

  /**
   * The zone of that name: the list filtered by name, and then by the exact name here, since the
   * filter's own matching is the server's (a proxy may drop it; `contains:` matches more). A
   * truncated list may have held it: the zone is then missing, not absent.
   */
  private async readNamedZone(name: string): Promise<void> {
    const wanted = canonicalZoneName(name);
    const list = this.list(LIST_ENDPOINTS.zones, {}, { name: wanted });
    try {
      const zones = ((await list.all()) as ZoneItem[]).filter((z) => typeof z?.name === 'string' && canonicalZoneName(z.name) === wanted);
      this.anyReadSucceeded = true;
      const accounts = this.o.scope.accounts;
      const inScope = zones.filter((z) => !accounts.length || accounts.includes(z.account?.id ?? ''));
      for (const zone of inScope) this.enqueueZone(zone);
      const problem = listProblem(list.summary);
      if (problem && inScope.length === 0) {
        this.result.missing.push({ kind: 'zone', scopeId: '', name: wanted, endpoint: 'zone', state: 'failed', reason: `the zone list for ${wanted}: ${problem}` });
      } else if (inScope.length === 0) {
        const why = zones.length ? `the zone is not in ${accounts.length === 1 ? 'account' : 'accounts'} ${accounts.join(', ')}` : 'no zone of this name is visible to these credentials';
        this.unmatched.push({ option: '--zone', name: wanted, why, closest: [] });
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (this.deferred(err, null, () => this.readNamedZone(name))) return;
      this.result.missing.push({ kind: 'zone', scopeId: '', name, endpoint: 'zone', state: 'failed', reason: err.message });
    }
  }

  private enqueueZone(zone: ZoneItem): void {
    if (this.seenZones.has(zone.id)) return;
    this.seenZones.add(zone.id);
    const partition = this.partition('zone', zone.id, 'zone');
    partition.write([zone]);
    partition.finish({ state: 'ok', pages: 1, items: 1 });
    // New to the list, or served other than stored (status, plan, paused, name servers...).
    const listChanged = partition.previousOk === null || partition.wroteNewVersion;
    this.result.zones++;
    this.progress.zonesKnown++;
    this.track(
      this.limitOf(this.clientOf(zone.account?.id))(async () => {
        if (this.signal.aborted) return;
        await this.readZone(zone, listChanged);
        this.progress.zonesDone++;
        this.report();
      }),
    );
  }

  /** The readers' kit: the crawler's services, as the read modules see them. */
  private get kit(): ReadKit {
    return (this.kitValue ??= this.makeKit());
  }

  private makeKit(): ReadKit {
    return {
      signal: this.signal,
      reads: this.o.reads,
      client: (zone) => this.clientOf(zone.account?.id),
      migratedBefore: (zone) => this.migratedBefore.has(this.o.writer.storedId(zone.id)),
      accountType: (id) => this.accountTypes.get(id),
      readZoneList: (zone, key, endpoint, repair) =>
        this.readList('zone', zone.id, endpoint, () => this.list(LIST_ENDPOINTS[key], { zone_id: zone.id }, {}, this.clientOf(zone.account?.id)), zone.name, repair),
      readObject: (zone, endpoint, path, query, absentCode, repair) => this.readObject(zone, endpoint, path, query, absentCode, repair),
      readCursorList: (zone, endpoint, path, perPage, repair) => this.readCursorList(zone, endpoint, path, perPage, repair),
      partition: (kind, scopeId, endpoint) => this.partition(kind, scopeId, endpoint),
      deferred: (err, partition, redo) => this.deferred(err, partition, redo),
      failed: (partition, err, pages, items, name) => this.failed(partition, err, pages, items, name),
      missing: (kind, scopeId, name, endpoint, state, reason, list) => this.missing(kind, scopeId, name, endpoint, state, reason, list),
      skip: (zone, endpoint, why) => this.skip(zone, endpoint, why),
      absent: (zone, endpoint, why) => this.partition('zone', zone.id, endpoint).finish({ state: 'ok', pages: 0, items: 0, message: why }),
      carry: (zone, endpoint) => this.o.writer.carry('zone', zone.id, endpoint),
      succeeded: () => {
        this.anyReadSucceeded = true;
      },
      readAccountEntrypoint: (zone, accountId) => this.readAccountEntrypoint(zone, accountId),
      hasPartition: (zone, endpoint) => this.o.writer.hasPartition('zone', zone.id, endpoint),
      list: (path, endpoint, zone) =>
        this.clientOf(zone.account?.id).list(path, { perPage: endpoint.crawlPerPage ?? endpoint.maxPerPage, minPerPage: endpoint.minPerPage, query: { ...endpoint.query }, signal: this.signal }),
      packagesReadTonight: (zone) =>
        this.o.writer
          .all<{ item_id: string }>('SELECT item_id FROM waf_packages WHERE zone_id = ? AND last_scan = ?', this.o.writer.storedId(zone.id), this.o.writer.ref)
          .map((r) => r.item_id),
      retiredPackages: (zone) => this.retiredPackages.get(zone.id),
    };
  }

  /** One zone: how the plan reads it tonight, then its reads in order (see reads/). */
  private async readZone(zone: ZoneItem, listChanged: boolean): Promise<void> {
    const plan = await this.plan.zone(this.clientOf(zone.account?.id), zone, listChanged, this.signal);
    const storedId = this.o.writer.storedId(zone.id);
    const facts: ZoneFacts = {
      zone,
      mode: plan.mode,
      stored: this.plan.base?.zone(storedId) ?? null,
      phases: null,
      migrated: this.migratedBefore.has(storedId),
      migrationState: null,
      now: this.clientOf(zone.account?.id).serverNow().getTime(),
    };
    await readZoneParts(this.kit, facts, (read) => this.o.writer.canCarry('zone', zone.id, read));
    if (plan.mode === 'full') {
      this.o.writer.zoneReadInFull(zone.id, this.startedAt);
      this.progress.zonesRead++;
      this.result.zonesRead++;
    } else {
      this.progress.zonesCarried++;
      this.result.zonesCarried++;
    }
  }

  /**
   * A cursor-paged list of the zone (its rulesets) into a partition: its items, null when it
   * failed, or DEFERRED when it waits for the repair pass.
   */
  private async readCursorList(zone: ZoneItem, endpoint: Endpoint, path: string, perPage: number, repair?: () => Promise<unknown>): Promise<unknown[] | null | Deferred> {
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
      this.anyReadSucceeded = true;
      return read.items;
    } catch (err) {
      if (this.deferred(err, partition, repair ?? (() => this.readCursorList(zone, endpoint, path, perPage)))) return DEFERRED;
      this.failed(partition, err, 0, 0, zone.name);
      return null;
    }
  }

  /**
   * The account's managed-phase entry point, read once per account and kept with each of its
   * zones (see reads/account-entrypoint.ts).
   */
  private async readAccountEntrypoint(zone: ZoneItem, accountId: string): Promise<void> {
    const partition = this.partition('zone', zone.id, 'account_entrypoint');
    let read = this.accountEntrypoints.get(accountId);
    if (!read) {
      const path = `/accounts/${encodeURIComponent(accountId)}/rulesets/phases/http_request_firewall_managed/entrypoint`;
      read = this.clientOf(accountId).get<Record<string, unknown>>(path, { signal: this.signal }).then(
        (answer) => (answer.result && typeof answer.result === 'object' ? answer.result : null),
        (err: unknown) => {
          // 10003: the account has no entry point. A failure that may pass is forgotten, so that the
          // repair pass asks again instead of sharing it; a refusal is every zone's answer.
          if (err instanceof ApiError && err.hasCode(10003)) return null;
          if (err instanceof ApiError && err.retryable) this.accountEntrypoints.delete(accountId);
          throw err;
        },
      );
      this.accountEntrypoints.set(accountId, read);
    }
    try {
      const result = await read;
      if (result) partition.write([result]);
      partition.finish({ state: 'ok', pages: 1, items: result ? 1 : 0 });
      this.anyReadSucceeded = true;
    } catch (err) {
      if (this.deferred(err, partition, () => this.readAccountEntrypoint(zone, accountId))) return;
      this.failed(partition, err, 0, 0, zone.name);
    }
  }
}

/** The API error an account-owned token gets from `GET /accounts` (and from user-level endpoints). */
const ACCOUNT_OWNED_TOKEN = 1001;

function retiredReason(err: ApiGoneError): string {
  const said = err.apiErrors.map((e) => e.message).join('; ');
  return `the API retired this endpoint (HTTP ${err.status ?? '?'}${said ? `: ${said}` : ''}); the data it served no longer exists there`;
}

export { ScanCannotStart };

function partitionKey(kind: PartitionKind, scopeId: string, endpoint: Endpoint): string {
  return `${kind}\u0000${scopeId}\u0000${endpoint}`;
}
