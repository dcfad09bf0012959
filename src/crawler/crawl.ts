import { setMaxListeners } from 'node:events';
import { LIST_ENDPOINTS } from '../api/endpoints.js';
import { ApiAuthError, ApiError } from '../api/errors.js';
import { credentialOf, ScanCannotStart } from './first-calls.js';
import type { PartitionWriter } from '../snapshot/writer.js';
import type { Endpoint } from '../snapshot/tables.js';
import { canonicalZoneName } from '../snapshot/scope.js';
import { closestNames, describeUnmatched, ScopeMatchedNothing, type UnmatchedName } from './scope-match.js';
import { listProblem } from './list-problem.js';
import { listingChanged } from './incremental/listing-change.js';
import { ReadPlan } from './incremental/read-plan.js';
import { askedTonight } from './incremental/permissions.js';
import type { ApiClient } from '../api/client.js';
import { ACCOUNT_OWNED_TOKEN, partKey, PartitionReads, type CrawlOptions, type CrawlResult } from './partition-reads.js';
import { readZoneParts } from './read-zone.js';
import type { ReadKit, ZoneFacts, ZoneItem } from './reads/zone-read.js';
import { recordsTonight } from './resolve/records-tonight.js';
import { TargetResolver, type ResolverOptions } from './resolve/resolver.js';

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

/** `resolver`: how the scan asks DNS about the names records point at (dns_targets); nothing is asked without it. */
export type DnsCrawlOptions = CrawlOptions & { resolver?: ResolverOptions };

export async function crawl(options: DnsCrawlOptions): Promise<CrawlResult> {
  // Every request in flight listens to the stop signal: more than Node's default of 10 at high concurrency.
  if (options.signal) setMaxListeners(Math.max(10, options.concurrency * 4), options.signal);
  return new Crawler(options).run();
}

class Crawler extends PartitionReads {  /** Names in --zone or --account that matched nothing these credentials see. */
  private readonly unmatched: UnmatchedName[] = [];
  private readonly plan: ReadPlan;
  private kitValue: ReadKit | undefined;
  /** When the crawl started: when its zones read in full were read. */
  private readonly startedAt = new Date().toISOString();
  private readonly seenZones = new Set<string>();
  private migratedBefore = new Set<string>();
  /** Each account's type as the account list says it (`enterprise` accounts have account-level entry points). */
  private readonly accountTypes = new Map<string, string>();
  /** Each account's managed entry point, read once and kept with every zone of the account. */
  /** Objects of accounts read this scan (see readAccountObject), by account id and endpoint. */
  private readonly accountObjects = new Map<string, Promise<Record<string, unknown> | null>>();
  /** Lists of accounts read this scan (see readAccountList), by account id and endpoint. */
  private readonly accountLists = new Map<string, Promise<unknown>>();
  /** Account partitions read (or being read) this scan by readAccountItems, by account id and endpoint. */
  private readonly accountItems = new Map<string, Promise<void>>();
  /** This scan's DNS resolver: each name is asked once per scan. */
  private readonly resolver: TargetResolver | null;

  constructor(o: DnsCrawlOptions) {
    const plan = o.plan ?? ReadPlan.full(o.writer, o.logger);
    super(o, { incremental: plan.incremental, why: plan.why, base: plan.base?.scanId ?? null });
    this.plan = plan;
    this.resolver = o.resolver ? new TargetResolver(o.resolver) : null;
    if (this.resolver) this.signal.addEventListener('abort', () => this.resolver?.cancel(), { once: true });
  }

  /** Without a default credential (every account mapped to its own), nothing is read at the user level. */
  private get userLevel(): boolean {
    return !this.o.clients || this.o.clients.default !== null;
  }

  async run(): Promise<CrawlResult> {
    const startedHere = performance.now();
    this.migratedBefore = this.o.writer.migratedZones();
    const accountIds = this.userLevel ? this.withMappedAccounts(await this.readAccounts()) : this.mappedScope();
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
    const check = await this.resolver?.checkMade();
    if (check) this.result.resolver = check;
    this.result.apiStartedAt = this.apiTimeAt(startedHere).toISOString();
    return this.result;
  }

  /**
   * The API's clock at the scan's start (the next night's audit-log window starts from it), as the
   * first answer of each credential, moments after the start, gives it (with every account mapped
   * to its own credential, the user-level reads that answer first are not made): the earliest of
   * them; this machine's clock at the start if none had an answer.
   */
  private apiTimeAt(startedHere: number): Date {
    const clients = this.o.clients?.all() ?? [this.o.client];
    let best: Date | null = null;
    for (const client of clients) {
      const at = client.serverTimeNearFirstAnswer(startedHere);
      if (at && (best === null || at < best)) best = at;
    }
    return best ?? new Date(this.startedAt);
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
      const unseen = !problem && listed.length === 0 ? await this.mappedAccountUnseen(accountId) : null;
      if (unseen) {
        listing.finish({ state: unseen.state, pages: s.pages, items: 0, httpStatus: unseen.status, apiCode: unseen.apiCode, errorCode: unseen.errorCode, message: unseen.message });
        this.missing('account', accountId, null, 'zones', unseen.state, unseen.message);
      } else {
        listing.finish({ state: problem ? 'failed' : 'ok', pages: s.pages, items: s.items, truncated: s.truncated, message: problem });
        if (problem) this.missing('account', accountId, null, 'zones', 'failed', problem);
        else this.closeVanished(accountId, listing.previousOk, listed);
      }
    } catch (err) {
      if (this.deferred(err, listing, () => this.readAccountZones(accountId))) return;
      this.failed(listing, err, list.summary.pages, list.summary.items, null);
    }
    this.progress.accountsDone++;
    this.report();
  }

  /**
   * Whether an account mapped to a credential of its own is one that credential cannot see. The
   * zone list answers an account the credential cannot see, or an id that is no account, as an
   * empty list (200), which would close every stored zone of it as deleted and pass the scan as
   * complete; the account itself answers 404 (code 1005) or a refusal then. Asked only when the
   * list came back empty: one call, and only for such an account.
   */
  private async mappedAccountUnseen(accountId: string): Promise<{ state: 'denied' | 'failed'; status: number | null; apiCode: number | null; errorCode: string; message: string } | null> {
    if (!this.o.clients?.isMapped(accountId)) return null;
    const client = this.clientOf(accountId);
    try {
      await client.get(`/accounts/${encodeURIComponent(accountId)}`, { signal: this.signal });
      return null;
    } catch (err) {
      if (!(err instanceof ApiError) || err.code === 'ZW_API_ABORTED') throw err;
      // An answer that says nothing of the account (a 5xx after retries): the list is not trusted either.
      const unseen = err instanceof ApiAuthError || err.status === 404;
      const message = unseen
        ? `${credentialOf(client)} cannot see account ${accountId} (${err.message}); check that variable's credential and the account id in the credentials setting`
        : `the zone list came back empty and the account could not be read to confirm it (${err.message})`;
      return { state: unseen ? 'denied' : 'failed', status: err.status, apiCode: err.firstCode, errorCode: err.code, message };
    }
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
      } else if (inScope.length === 0 && !(await this.namedZoneOfMappedAccount(wanted))) {
        const why = zones.length ? `the zone is not in ${accounts.length === 1 ? 'account' : 'accounts'} ${accounts.join(', ')}` : 'no zone of this name is visible to these credentials';
        this.unmatched.push({ option: '--zone', name: wanted, why, closest: [] });
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (this.deferred(err, null, () => this.readNamedZone(name))) return;
      this.result.missing.push({ kind: 'zone', scopeId: '', name, endpoint: 'zone', state: 'failed', reason: err.message });
    }
  }

  /**
   * The zone of that name in an account mapped to a credential of its own, which the credential
   * that looked first may not see (an account-owned token's account): asked of each other
   * credential whose accounts are in scope, one call each, only when the first found none.
   */
  private async namedZoneOfMappedAccount(wanted: string): Promise<boolean> {
    const accounts = this.o.scope.accounts.map((a) => a.toLowerCase());
    for (const entry of this.o.clients?.labelled() ?? []) {
      if (entry.client === this.o.client || !entry.accounts) continue;
      const own = entry.accounts.filter((a) => !accounts.length || accounts.includes(a.toLowerCase()));
      if (own.length === 0) continue;
      const zones = ((await this.list(LIST_ENDPOINTS.zones, {}, { name: wanted }, entry.client).all()) as ZoneItem[]).filter(
        (z) => typeof z?.name === 'string' && canonicalZoneName(z.name) === wanted && own.some((a) => a.toLowerCase() === (z.account?.id ?? '').toLowerCase()),
      );
      for (const zone of zones) this.enqueueZone(zone);
      if (zones.length > 0) return true;
    }
    return false;
  }

  private enqueueZone(zone: ZoneItem): void {
    if (this.seenZones.has(zone.id)) return;
    this.seenZones.add(zone.id);
    this.resolver?.offerKnownNames(zone);
    this.zoneAccounts.set(zone.id, zone.account?.id);
    const partition = this.partition('zone', zone.id, 'zone');
    partition.write([zone]);
    partition.finish({ state: 'ok', pages: 1, items: 1 });
    // New to the list, or served other than stored (status, plan, paused, name servers...): other than
    // at the last complete listing, or than when the scan read on from read it (a scan stopped since
    // may have listed it changed, and read none of its parts).
    // A change of the clock fields alone (Development Mode's countdown) is none (listing-change.ts).
    const listChanged = listingChanged(partition, zone, this.plan.base?.scanId, (t) => this.o.writer.redactRaw(t));
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
      carry: (zone, endpoint) => this.carry(zone, endpoint),
      carrySource: (zone, endpoint) => {
        const source = this.o.writer.carrySource('zone', zone.id, endpoint);
        return source !== null && this.plan.mayCarry(endpoint, source) ? source : null;
      },
      succeeded: (zone, endpoint) => {
        if (zone && endpoint) this.answered('zone', zone.id, endpoint);
        else this.anyReadSucceeded = true;
      },
      readAccountObject: (zone, accountId, endpoint, path, absentCode) => this.readAccountObject(zone, accountId, endpoint, path, absentCode),
      readAccountList: (accountId, endpoint, key) => this.readAccountList(accountId, endpoint, key),
      readAccountAnswer: (accountId, endpoint, path) => {
        const key = partKey(accountId, endpoint);
        let read = this.accountLists.get(key);
        if (!read) this.accountLists.set(key, (read = this.readAccountAnswer(accountId, endpoint, path)));
        return read.then(() => undefined);
      },
      readAccountItems: (zone, accountId, endpoint, fetch) => this.readAccountItems(accountId, endpoint, fetch),
      hasPartition: (zone, endpoint) => this.o.writer.hasPartition('zone', zone.id, endpoint),
      lastAnswered: (zone, endpoint) => this.o.writer.lastAnswered('zone', zone.id, endpoint),
      list: (path, endpoint, zone) =>
        this.clientOf(zone.account?.id).list(path, { perPage: endpoint.crawlPerPage ?? endpoint.maxPerPage, minPerPage: endpoint.minPerPage, query: { ...endpoint.query }, signal: this.signal }),
      itemsReadTonight: (zone, endpoint) => this.o.writer.itemsReadTonight(zone.id, endpoint),
      retired: (zone, endpoint) => this.retiredParts.get(partKey(zone.id, endpoint)),
      resolver: this.resolver,
      dnsRecordsTonight: (zone) => recordsTonight(this.o.writer, zone.id),
    };
  }

  /**
   * Carries a part of the zone forward, unless its credential was refused the part's permission
   * group tonight: it is then denied, as a read of it would be (a part whose last read was a skip,
   * made without a call, is carried as it was: tonight's read would skip it alike; so is a part no
   * rule asks for tonight).
   */
  private carry(zone: ZoneItem, endpoint: Endpoint): boolean {
    const refusal = askedTonight(endpoint, this.o.reads) ? this.permissions.refusal(this.clientOf(zone.account?.id), endpoint) : null;
    const state = refusal ? this.o.writer.carryState('zone', zone.id, endpoint) : null;
    if (!refusal || state === null || state === 'skipped') return this.o.writer.carry('zone', zone.id, endpoint);
    this.deniedNotCarried(zone, endpoint, refusal);
    return true;
  }

  /**
   * Before a zone read where due only carries anything: its credential's standing with the
   * permission group of each part it could carry (permissions.ts), from tonight's reads or, when
   * none of a group has answered yet, one probe request of it per credential.
   */
  private async confirmPermissions(client: ApiClient, zone: ZoneItem): Promise<void> {
    // Once every group is known for the credential (most of the night), nothing is looked up.
    const carriable = this.permissions.unknownGroups(client).flatMap((g) => g.partitions).filter(
      (p) => askedTonight(p, this.o.reads) && this.o.writer.carryState('zone', zone.id, p) === 'ok' && this.plan.mayCarry(p, this.o.writer.carrySource('zone', zone.id, p)!),
    );
    if (carriable.length === 0) return;
    await this.permissions.confirm(client, zone, carriable, this.o.reads?.settings ?? [], this.signal);
  }

  /** One zone: how the plan reads it tonight, then its reads in order (see reads/). */
  private async readZone(zone: ZoneItem, listChanged: boolean): Promise<void> {
    const client = this.clientOf(zone.account?.id);
    const plan = await this.plan.zone(client, zone, listChanged, this.signal);
    if (plan.mode === 'due-only') await this.confirmPermissions(client, zone);
    const storedId = this.o.writer.storedId(zone.id);
    const facts: ZoneFacts = {
      zone,
      mode: plan.mode,
      stored: this.plan.base?.zone(storedId) ?? null,
      phases: null,
      migrated: this.migratedBefore.has(storedId),
      migrationState: null,
      now: this.clientOf(zone.account?.id).serverNow().getTime(),
      held: new Map(),
      decidedAlike: new Map(),
    };
    if (plan.mode === 'full') await this.permissions.duringFullRead(client, () => readZoneParts(this.kit, facts));
    else await readZoneParts(this.kit, facts);
    if (plan.mode === 'full') {
      this.o.writer.zoneReadInFull(zone.id);
      this.progress.zonesRead++;
      this.result.zonesRead++;
    } else {
      this.progress.zonesCarried++;
      this.result.zonesCarried++;
    }
  }

  /**
   * A list of an account into the account's partition, once per account and scan. Its failures are
   * the partition's (readList): a refusal is recorded denied, one that may pass is read again by the
   * repair pass, which this read's other zones need not wait for.
   */
  private async readAccountList(accountId: string, endpoint: Endpoint, key: keyof typeof LIST_ENDPOINTS): Promise<void> {
    const id = partKey(accountId, endpoint);
    let read = this.accountLists.get(id);
    if (!read) {
      const client = this.clientOf(accountId);
      read = this.readList('account', accountId, endpoint, () => this.list(LIST_ENDPOINTS[key], { account_id: accountId }, {}, client), null);
      this.accountLists.set(id, read);
    }
    await read;
  }

  /**
   * A list of an account into the account's own partition (account_objects), one unpaged answer
   * (the notification policies are served whole). Its zones' reads share it (kit.readAccountAnswer):
   * the first to ask reads it; a failure that may pass waits for the repair pass like any read.
   */
  private async readAccountAnswer(accountId: string, endpoint: Endpoint, path: string): Promise<void> {
    const partition = this.partition('account', accountId, endpoint);
    try {
      const answer = await this.clientOf(accountId).get<unknown>(path, { signal: this.signal });
      this.anyReadSucceeded = true;
      if (!Array.isArray(answer.result)) {
        const message = 'the API answered without a list';
        partition.finish({ state: 'failed', pages: 1, items: 0, message });
        this.missing('account', accountId, null, endpoint, 'failed', message);
        return;
      }
      const items = answer.result.filter((i): i is Record<string, unknown> => i !== null && typeof i === 'object' && !Array.isArray(i));
      if (items.length) partition.write(items);
      partition.finish({ state: 'ok', pages: 1, items: items.length });
    } catch (err) {
      if (this.deferred(err, partition, () => this.readAccountAnswer(accountId, endpoint, path))) return;
      this.failed(partition, err, 0, 0, null);
    }
  }

  /**
   * An object of the zone's account, read once per account and scan (the first zone to ask reads
   * it, the others share the answer) and kept with each of its zones (see reads/account-entrypoint.ts).
   */
  private async readAccountObject(zone: ZoneItem, accountId: string, endpoint: Endpoint, path: string, absentCode?: number): Promise<void> {
    const partition = this.partition('zone', zone.id, endpoint);
    const key = partKey(accountId, endpoint);
    let read = this.accountObjects.get(key);
    if (!read) {
      read = this.clientOf(accountId).get<Record<string, unknown>>(path, { signal: this.signal }).then(
        (answer) => (answer.result && typeof answer.result === 'object' ? answer.result : null),
        (err: unknown) => {
          // The code that means there is none is an answer. A failure that may pass is forgotten, so
          // that the repair pass asks again instead of sharing it; a refusal is every zone's answer.
          if (absentCode !== undefined && err instanceof ApiError && err.hasCode(absentCode)) return null;
          if (err instanceof ApiError && err.retryable) this.accountObjects.delete(key);
          throw err;
        },
      );
      this.accountObjects.set(key, read);
    }
    try {
      const result = await read;
      if (result) partition.write([result]);
      partition.finish({ state: 'ok', pages: 1, items: result ? 1 : 0 });
      this.anyReadSucceeded = true;
    } catch (err) {
      if (this.deferred(err, partition, () => this.readAccountObject(zone, accountId, endpoint, path, absentCode))) return;
      this.failed(partition, err, 0, 0, zone.name);
    }
  }

  /**
   * Items of an account into its own partition, once per account and scan: the first zone of the
   * account to ask reads them, the others wait for it. A failure that may pass goes to the repair
   * pass (once, for the account); a refusal is recorded once, as not permitted when the read is optional.
   */
  private readAccountItems(accountId: string, endpoint: Endpoint, fetch: (client: ApiClient, signal: AbortSignal) => Promise<{ items: unknown[]; pages: number }>): Promise<void> {
    const key = partKey(accountId, endpoint);
    let read = this.accountItems.get(key);
    if (!read) {
      read = this.readAccountItemsNow(accountId, endpoint, fetch);
      this.accountItems.set(key, read);
    }
    return read;
  }

  private async readAccountItemsNow(accountId: string, endpoint: Endpoint, fetch: (client: ApiClient, signal: AbortSignal) => Promise<{ items: unknown[]; pages: number }>): Promise<void> {
    const partition = this.partition('account', accountId, endpoint);
    try {
      const { items, pages } = await fetch(this.clientOf(accountId), this.signal);
      partition.write(items);
      partition.finish({ state: 'ok', pages, items: items.length });
      this.answered('account', accountId, endpoint);
    } catch (err) {
      if (this.deferred(err, partition, () => this.readAccountItemsNow(accountId, endpoint, fetch))) return;
      this.failed(partition, err, 0, 0, null);
    }
  }
}

export { ScanCannotStart };
export type { CrawlOptions, CrawlProgress, CrawlResult, MissingPart } from './partition-reads.js';
export { REPAIR_PAUSE_MS } from './partition-reads.js';
