import { setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import type { ApiClient } from '../api/client.js';
import { fillPath, LIST_ENDPOINTS, type ListEndpoint } from '../api/endpoints.js';
import { ApiAbortedError, ApiAuthError, ApiError } from '../api/errors.js';
import { abortableSleep } from '../api/pacer.js';
import type { ListSummary, PagedList } from '../api/paginate.js';
import type { Logger } from '../shared/logger.js';
import type { PartitionWriter, ScanScope, ScanWriter } from '../snapshot/writer.js';
import type { Endpoint, PartitionKind } from '../snapshot/tables.js';

/**
 * What to read for the user, each account and each zone, and in what order: the crawler fetches,
 * the snapshot writer stores, and every partition ends with a record of what happened. Answers
 * already known are not asked for again: a migrated zone's legacy WAF is gone for good, URI-based
 * overrides exist on Enterprise zones only, and only a zone that has started migrating has an
 * entry point.
 *
 * A read that still fails after the client's retries with a failure that may pass (5xx, timeouts,
 * resets, malformed answers) is not recorded yet: it waits for a repair pass at the end of the
 * scan, after a pause, which reads it again with the same partition writer (items the first attempt
 * stored are not stored twice). Only what fails again there makes the scan incomplete.
 */

export interface CrawlOptions {
  client: ApiClient;
  writer: ScanWriter;
  scope: ScanScope;
  concurrency: number;
  logger: Logger;
  signal?: AbortSignal;
  onProgress?: (progress: CrawlProgress) => void;
  /** Pause before the repair pass (default 30 s), so that a short outage can pass. */
  repairPauseMs?: number;
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
  skipped: number;
  /** Reads that failed after their retries and were read again at the end; `recovered` of them answered. */
  repairs: { attempted: number; recovered: number };
}

interface ZoneItem {
  id: string;
  name: string;
  plan?: { legacy_id?: string };
  account?: { id?: string };
}

/** Whether a finished list is whole, and if not, why: truncated, or items listed but not served. */
function listProblem(s: ListSummary): string | null {
  if (s.truncated) return `list truncated (${s.truncatedReason})`;
  if (s.shortfall > 0) return `the server listed ${s.totalCount} items but served ${s.items}`;
  return null;
}

/** An auth failure on the first calls means the credentials are wrong: the whole scan stops. */
/** A read left for the repair pass. */
const DEFERRED = Symbol('deferred');

class CredentialsRejected extends Error {
  constructor(readonly error: ApiAuthError) {
    super(error.message);
  }
}

export async function crawl(options: CrawlOptions): Promise<CrawlResult> {
  // Every request in flight listens to the stop signal: more than Node's default of 10 at high concurrency.
  if (options.signal) setMaxListeners(Math.max(10, options.concurrency * 4), options.signal);
  return new Crawler(options).run();
}

class Crawler {
  private readonly limit;
  private readonly result: CrawlResult = { accounts: 0, zones: 0, missing: [], notPermitted: [], skipped: 0, repairs: { attempted: 0, recovered: 0 } };
  private readonly progress: CrawlProgress = { zonesDone: 0, zonesKnown: 0, accountsDone: 0, accountsKnown: 0 };
  private readonly zoneTasks: Array<Promise<void>> = [];
  private readonly seenZones = new Set<string>();
  private migratedBefore = new Set<string>();
  private anyReadSucceeded = false;
  /** Reads to try again at the end of the scan, and the partitions they write, kept open until then. */
  private repairs: Array<() => Promise<void>> = [];
  private readonly held = new Map<string, PartitionWriter>();
  private repairing = false;
  /** Reads of the repair pass that failed in a way that may pass: the ones it did not recover. */
  private failedAgain = 0;

  constructor(private readonly o: CrawlOptions) {
    this.limit = pLimit(o.concurrency);
  }

  async run(): Promise<CrawlResult> {
    this.migratedBefore = this.o.writer.migratedZones();
    const accountIds = await this.readAccounts();
    const invites = this.readInvites();
    if (this.o.scope.zones.length > 0) {
      await Promise.all(this.o.scope.zones.map((name) => this.limit(() => this.readNamedZone(name))));
    } else {
      await Promise.all(accountIds.map((id) => this.limit(() => this.readAccountZones(id))));
    }
    await invites;
    await Promise.all(this.zoneTasks);
    await this.repairPass();
    return this.result;
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
      await abortableSleep(pause, this.o.signal);
    } catch {
      throw new ApiAbortedError('the repair pass');
    }
    this.repairing = true;
    await Promise.all(todo.map((redo) => this.limit(redo)));
    await Promise.all(this.zoneTasks);
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
  ): Promise<Record<string, unknown> | null | typeof DEFERRED> {
    const partition = this.partition('zone', zone.id, endpoint);
    try {
      const answer = await this.o.client.get<Record<string, unknown>>(path, { query, signal: this.o.signal });
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

  private failed(partition: PartitionWriter, err: unknown, pages: number, items: number, name: string | null): void {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === 'ZW_API_ABORTED') throw err;
    // The first answers decide whether the credentials work at all; later 403s are permissions.
    if (err instanceof ApiAuthError && !this.anyReadSucceeded) throw new CredentialsRejected(err);
    const state = err instanceof ApiAuthError ? 'denied' : 'failed';
    const apiCode = err.apiErrors.find((e) => e.code !== undefined)?.code ?? null;
    partition.finish({ state, pages, items, httpStatus: err.status, apiCode, errorCode: err.code, message: err.message });
    const optional = partition.endpoint === 'invites' && state === 'denied';
    this.missing(partition.kind, partition.scopeId, name, partition.endpoint, state, err.message, optional);
  }

  private missing(kind: PartitionKind, scopeId: string, name: string | null, endpoint: Endpoint, state: string, reason: string, optional = false): void {
    const part: MissingPart = { kind, scopeId, name, endpoint, state, reason };
    if (optional) this.result.notPermitted.push(part);
    else this.result.missing.push(part);
    this.o.logger.debug(`could not read ${endpoint} of ${name ?? (scopeId || 'the user')}: ${reason}`);
  }

  private skip(zone: ZoneItem, endpoint: Endpoint, why: string): void {
    this.partition('zone', zone.id, endpoint).finish({ state: 'skipped', pages: 0, items: 0, message: why });
    this.result.skipped++;
  }

  private list(endpoint: ListEndpoint, params: Record<string, string>, query: Record<string, string> = {}): PagedList<unknown> {
    return this.o.client.list(fillPath(endpoint.template, params), {
      perPage: endpoint.crawlPerPage ?? endpoint.maxPerPage,
      minPerPage: endpoint.minPerPage,
      query: { ...endpoint.query, ...query },
      ...(this.o.signal ? { signal: this.o.signal } : {}),
    });
  }

  private async readAccounts(): Promise<string[]> {
    const partition = this.partition('user', '', 'accounts');
    const list = this.list(LIST_ENDPOINTS.accounts, {});
    const ids: string[] = [];
    try {
      for await (const page of list) {
        partition.write(page);
        for (const a of page as Array<{ id?: unknown }>) if (typeof a.id === 'string') ids.push(a.id);
      }
      const problem = listProblem(list.summary);
      partition.finish({ state: problem ? 'failed' : 'ok', pages: list.summary.pages, items: list.summary.items, truncated: list.summary.truncated, message: problem });
      if (problem) this.missing('user', '', null, 'accounts', 'failed', problem);
      this.anyReadSucceeded = true;
    } catch (err) {
      if (err instanceof ApiAuthError && !this.anyReadSucceeded) throw new CredentialsRejected(err);
      // Unscoped, the zones come from the accounts: the repair pass reads both.
      const repair = this.o.scope.accounts.length ? () => this.readAccounts() : () => this.readAccountsAndZones();
      if (!this.deferred(err, partition, repair)) this.failed(partition, err, list.summary.pages, list.summary.items, null);
      // Without the account list, scoped account ids can still be read.
    }
    const scoped = this.o.scope.accounts;
    const chosen = scoped.length ? scoped : ids;
    for (const id of scoped) if (ids.length && !ids.includes(id)) this.o.logger.warn(`--account ${id} is not among the accounts these credentials see`);
    this.result.accounts = chosen.length;
    this.progress.accountsKnown = chosen.length;
    this.report();
    return chosen;
  }

  /** The repair of an account list that failed: its accounts' zones were never listed. */
  private async readAccountsAndZones(): Promise<void> {
    // One account after another: this runs inside the crawl's concurrency limit already.
    for (const id of await this.readAccounts()) await this.readAccountZones(id);
  }

  private async readInvites(): Promise<void> {
    const partition = this.partition('user', '', 'invites');
    try {
      // Not paginated: one call answers the whole list.
      const answer = await this.o.client.get<unknown[]>('/user/invites', this.o.signal ? { signal: this.o.signal } : {});
      const items = Array.isArray(answer.result) ? answer.result : [];
      partition.write(items);
      partition.finish({ state: 'ok', pages: 1, items: items.length });
    } catch (err) {
      if (err instanceof ApiAuthError && !this.anyReadSucceeded) {
        // The account list answered, so the credentials work: invites are just not permitted.
        this.anyReadSucceeded = true;
      }
      if (!this.deferred(err, partition, () => this.readInvites())) this.failed(partition, err, 0, 0, null);
    }
  }

  private async readAccountZones(accountId: string): Promise<void> {
    const listing = this.partition('account', accountId, 'zones');
    const list = this.list(LIST_ENDPOINTS.zones, {}, { 'account.id': accountId });
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
    const current = new Set(listed);
    const vanished = this.o.writer.zonesOfAccountAt(accountId, previousOk).filter((id) => !current.has(id));
    if (vanished.length) this.o.writer.closeZones(vanished);
  }

  private async readNamedZone(name: string): Promise<void> {
    const query: Record<string, string> = { name };
    const list = this.list(LIST_ENDPOINTS.zones, {}, query);
    try {
      const zones = (await list.all()) as ZoneItem[];
      const inScope = zones.filter((z) => !this.o.scope.accounts.length || this.o.scope.accounts.includes(z.account?.id ?? ''));
      if (inScope.length === 0) this.o.logger.warn(`--zone ${name}: no such zone is visible to these credentials`);
      for (const zone of inScope) this.enqueueZone(zone);
    } catch (err) {
      if (err instanceof ApiAuthError && !this.anyReadSucceeded) throw new CredentialsRejected(err);
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
    this.result.zones++;
    this.progress.zonesKnown++;
    this.zoneTasks.push(
      this.limit(async () => {
        await this.readZone(zone);
        this.progress.zonesDone++;
        this.report();
      }),
    );
  }

  private readZoneList(zone: ZoneItem, key: keyof typeof LIST_ENDPOINTS, endpoint: Endpoint, repair?: () => Promise<unknown>): Promise<boolean | null> {
    return this.readList('zone', zone.id, endpoint, () => this.list(LIST_ENDPOINTS[key], { zone_id: zone.id }), zone.name, repair);
  }

  private async readZone(zone: ZoneItem): Promise<void> {
    await this.readZoneList(zone, 'dnsRecords', 'dns_records');
    await this.readZoneList(zone, 'certificatePacks', 'certificate_packs');
    await this.readZoneList(zone, 'firewallRules', 'firewall_rules');
    await this.readZoneList(zone, 'filters', 'filters');
    await this.readMigration(zone);
  }

  /** The migration status, then what it says is there to read. */
  private async readMigration(zone: ZoneItem): Promise<void> {
    const statusPath = `/zones/${encodeURIComponent(zone.id)}/waf_migration/status`;
    // Which reads follow depends on the status: an unreadable one defers them all to the repair pass.
    const status = await this.readObject(zone, 'migration_status', statusPath, {}, undefined, () => this.readMigration(zone));
    if (status === DEFERRED) return;
    const state = typeof status?.['migration_state'] === 'string' ? status['migration_state'] : null;
    const migrated = state === 'complete' || (state === null && this.migratedBefore.has(zone.id));
    const enterprise = zone.plan?.legacy_id === 'enterprise';

    if (migrated) {
      const why = 'the zone has migrated: the previous managed rules no longer exist';
      for (const e of ['migration_check', 'migration_config', 'waf_packages', 'waf_groups', 'waf_rules', 'waf_overrides'] as const) this.skip(zone, e, why);
    } else {
      await this.readObject(zone, 'migration_check', `/zones/${encodeURIComponent(zone.id)}/waf_migration/check`, { phase_two: '1' });
      await this.readObject(zone, 'migration_config', `/zones/${encodeURIComponent(zone.id)}/waf_migration/config`, { phase_two: '1' });
      await this.readLegacyWaf(zone);
      if (enterprise) await this.readZoneList(zone, 'wafOverrides', 'waf_overrides');
      else this.skip(zone, 'waf_overrides', 'URI-based overrides exist on Enterprise zones only');
    }
    if (state === 'validation' || migrated) {
      // 10003: no entry point has been written yet.
      const entrypoint = `/zones/${encodeURIComponent(zone.id)}/rulesets/phases/http_request_firewall_managed/entrypoint`;
      await this.readObject(zone, 'entrypoint', entrypoint, {}, 10003);
    } else {
      this.skip(zone, 'entrypoint', 'the zone has not started migrating: it has no managed-rules entry point');
    }
  }

  /** Packages, then each package's groups and rules, each kind as one partition of the zone. */
  private async readLegacyWaf(zone: ZoneItem): Promise<void> {
    // Groups and rules are read per package: they wait with the packages for the repair pass.
    const packagesOk = await this.readZoneList(zone, 'wafPackages', 'waf_packages', () => this.readLegacyWaf(zone));
    if (packagesOk === null) return;
    if (!packagesOk) {
      for (const e of ['waf_groups', 'waf_rules'] as const) {
        this.partition('zone', zone.id, e).finish({ state: 'failed', pages: 0, items: 0, message: 'the WAF packages could not be read' });
        this.missing('zone', zone.id, zone.name, e, 'failed', 'the WAF packages could not be read');
      }
      return;
    }
    const packageIds = this.o.writer
      .all<{ item_id: string }>('SELECT item_id FROM waf_packages WHERE zone_id = ? AND last_scan = ?', zone.id, this.o.writer.ref)
      .map((r) => r.item_id);
    for (const [endpoint, key] of [
      ['waf_groups', 'wafGroups'],
      ['waf_rules', 'wafRules'],
    ] as const) {
      await this.readPackageLists(zone, packageIds, endpoint, key);
    }
  }

  /** Groups or rules of every package, as one partition of the zone. */
  private async readPackageLists(zone: ZoneItem, packageIds: string[], endpoint: 'waf_groups' | 'waf_rules', key: 'wafGroups' | 'wafRules'): Promise<void> {
    const partition = this.partition('zone', zone.id, endpoint);
    let pages = 0;
    let items = 0;
    let problem: string | null = null;
    try {
      for (const packageId of packageIds) {
        const list = this.list(LIST_ENDPOINTS[key], { zone_id: zone.id, package_id: packageId });
        for await (const page of list) partition.write(page);
        pages += list.summary.pages;
        items += list.summary.items;
        problem ??= listProblem(list.summary);
      }
      partition.finish({ state: problem ? 'failed' : 'ok', pages, items, truncated: problem !== null, message: problem });
      if (problem) this.missing('zone', zone.id, zone.name, endpoint, 'failed', problem);
    } catch (err) {
      if (this.deferred(err, partition, () => this.readPackageLists(zone, packageIds, endpoint, key))) return;
      this.failed(partition, err, pages, items, zone.name);
    }
  }
}

export { CredentialsRejected };

function partitionKey(kind: PartitionKind, scopeId: string, endpoint: Endpoint): string {
  return `${kind}\u0000${scopeId}\u0000${endpoint}`;
}
