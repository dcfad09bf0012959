import { setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import type { ApiClient } from '../api/client.js';
import { fillPath, LIST_ENDPOINTS, type ListEndpoint } from '../api/endpoints.js';
import { ApiAuthError, ApiError } from '../api/errors.js';
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
 */

export interface CrawlOptions {
  client: ApiClient;
  writer: ScanWriter;
  scope: ScanScope;
  concurrency: number;
  logger: Logger;
  signal?: AbortSignal;
  onProgress?: (progress: CrawlProgress) => void;
}

export interface CrawlProgress {
  zonesDone: number;
  zonesKnown: number;
  accountsDone: number;
  accountsKnown: number;
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
  private readonly result: CrawlResult = { accounts: 0, zones: 0, missing: [], notPermitted: [], skipped: 0 };
  private readonly progress: CrawlProgress = { zonesDone: 0, zonesKnown: 0, accountsDone: 0, accountsKnown: 0 };
  /** Every task started, each settling without throwing (see track). */
  private readonly tasks: Array<Promise<void>> = [];
  private fatal: { error: unknown } | null = null;
  /** Stops the tasks after a fatal failure; `signal` also carries the caller's stop. */
  private readonly stopper = new AbortController();
  private readonly signal: AbortSignal;
  private readonly seenZones = new Set<string>();
  private migratedBefore = new Set<string>();
  private anyReadSucceeded = false;

  constructor(private readonly o: CrawlOptions) {
    this.limit = pLimit(o.concurrency);
    this.signal = o.signal ? AbortSignal.any([o.signal, this.stopper.signal]) : this.stopper.signal;
    setMaxListeners(Math.max(10, o.concurrency * 4), this.signal);
  }

  async run(): Promise<CrawlResult> {
    this.migratedBefore = this.o.writer.migratedZones();
    const accountIds = await this.readAccounts();
    this.track(this.readInvites());
    if (this.o.scope.zones.length > 0) {
      for (const name of this.o.scope.zones) this.track(this.limit(() => this.readNamedZone(name)));
    } else {
      for (const id of accountIds) this.track(this.limit(() => this.readAccountZones(id)));
    }
    // Tasks enqueue zone tasks while this loop waits: it runs until the list stops growing.
    for (let i = 0; i < this.tasks.length; i++) await this.tasks[i];
    if (this.fatal) throw this.fatal.error;
    return this.result;
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

  private report(): void {
    this.o.onProgress?.({ ...this.progress });
  }

  /** Reads a list into a partition, page by page, and records the outcome. */
  private async readList(kind: PartitionKind, scopeId: string, endpoint: Endpoint, list: PagedList<unknown>, name: string | null): Promise<boolean> {
    const partition = this.o.writer.partition(kind, scopeId, endpoint);
    try {
      for await (const page of list) partition.write(page);
      const s = list.summary;
      const problem = listProblem(s);
      partition.finish({ state: problem ? 'failed' : 'ok', pages: s.pages, items: s.items, truncated: s.truncated, message: problem });
      if (problem) this.missing(kind, scopeId, name, endpoint, 'failed', problem);
      else this.anyReadSucceeded = true;
      return problem === null;
    } catch (err) {
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
  ): Promise<Record<string, unknown> | null> {
    const partition = this.o.writer.partition('zone', zone.id, endpoint);
    try {
      const answer = await this.o.client.get<Record<string, unknown>>(path, { query, signal: this.signal });
      partition.write([answer.result]);
      partition.finish({ state: 'ok', pages: 1, items: 1 });
      this.anyReadSucceeded = true;
      return answer.result && typeof answer.result === 'object' ? answer.result : null;
    } catch (err) {
      if (absentCode !== undefined && err instanceof ApiError && err.hasCode(absentCode)) {
        partition.finish({ state: 'ok', pages: 1, items: 0, httpStatus: err.status, apiCode: absentCode });
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
    this.o.writer.partition('zone', zone.id, endpoint).finish({ state: 'skipped', pages: 0, items: 0, message: why });
    this.result.skipped++;
  }

  private list(endpoint: ListEndpoint, params: Record<string, string>, query: Record<string, string> = {}): PagedList<unknown> {
    return this.o.client.list(fillPath(endpoint.template, params), {
      perPage: endpoint.crawlPerPage ?? endpoint.maxPerPage,
      minPerPage: endpoint.minPerPage,
      query: { ...endpoint.query, ...query },
      signal: this.signal,
    });
  }

  private async readAccounts(): Promise<string[]> {
    const partition = this.o.writer.partition('user', '', 'accounts');
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
      this.failed(partition, err, list.summary.pages, list.summary.items, null);
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

  private async readInvites(): Promise<void> {
    const partition = this.o.writer.partition('user', '', 'invites');
    try {
      // Not paginated: one call answers the whole list.
      const answer = await this.o.client.get<unknown[]>('/user/invites', { signal: this.signal });
      const items = Array.isArray(answer.result) ? answer.result : [];
      partition.write(items);
      partition.finish({ state: 'ok', pages: 1, items: items.length });
    } catch (err) {
      if (err instanceof ApiAuthError && !this.anyReadSucceeded) {
        // The account list answered, so the credentials work: invites are just not permitted.
        this.anyReadSucceeded = true;
      }
      this.failed(partition, err, 0, 0, null);
    }
  }

  private async readAccountZones(accountId: string): Promise<void> {
    const listing = this.o.writer.partition('account', accountId, 'zones');
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
      this.result.missing.push({ kind: 'zone', scopeId: '', name, endpoint: 'zone', state: 'failed', reason: err.message });
    }
  }

  private enqueueZone(zone: ZoneItem): void {
    if (this.seenZones.has(zone.id)) return;
    this.seenZones.add(zone.id);
    const partition = this.o.writer.partition('zone', zone.id, 'zone');
    partition.write([zone]);
    partition.finish({ state: 'ok', pages: 1, items: 1 });
    this.result.zones++;
    this.progress.zonesKnown++;
    this.track(
      this.limit(async () => {
        if (this.signal.aborted) return;
        await this.readZone(zone);
        this.progress.zonesDone++;
        this.report();
      }),
    );
  }

  private async readZone(zone: ZoneItem): Promise<void> {
    const params = { zone_id: zone.id };
    const read = (key: keyof typeof LIST_ENDPOINTS, endpoint: Endpoint) => this.readList('zone', zone.id, endpoint, this.list(LIST_ENDPOINTS[key], params), zone.name);
    await read('dnsRecords', 'dns_records');
    await read('certificatePacks', 'certificate_packs');
    await read('firewallRules', 'firewall_rules');
    await read('filters', 'filters');

    const status = await this.readObject(zone, 'migration_status', `/zones/${encodeURIComponent(zone.id)}/waf_migration/status`);
    const state = typeof status?.['migration_state'] === 'string' ? status['migration_state'] : null;
    const migrated = state === 'complete' || (state === null && this.migratedBefore.has(this.o.writer.storedId(zone.id)));
    const enterprise = zone.plan?.legacy_id === 'enterprise';

    if (migrated) {
      const why = 'the zone has migrated: the previous managed rules no longer exist';
      for (const e of ['migration_check', 'migration_config', 'waf_packages', 'waf_groups', 'waf_rules', 'waf_overrides'] as const) this.skip(zone, e, why);
    } else {
      await this.readObject(zone, 'migration_check', `/zones/${encodeURIComponent(zone.id)}/waf_migration/check`, { phase_two: '1' });
      await this.readObject(zone, 'migration_config', `/zones/${encodeURIComponent(zone.id)}/waf_migration/config`, { phase_two: '1' });
      await this.readLegacyWaf(zone);
      if (enterprise) await read('wafOverrides', 'waf_overrides');
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
    const packagesOk = await this.readList('zone', zone.id, 'waf_packages', this.list(LIST_ENDPOINTS.wafPackages, { zone_id: zone.id }), zone.name);
    if (!packagesOk) {
      for (const e of ['waf_groups', 'waf_rules'] as const) {
        this.o.writer.partition('zone', zone.id, e).finish({ state: 'failed', pages: 0, items: 0, message: 'the WAF packages could not be read' });
        this.missing('zone', zone.id, zone.name, e, 'failed', 'the WAF packages could not be read');
      }
      return;
    }
    const packageIds = this.o.writer
      .all<{ item_id: string }>('SELECT item_id FROM waf_packages WHERE zone_id = ? AND last_scan = ?', this.o.writer.storedId(zone.id), this.o.writer.ref)
      .map((r) => r.item_id);
    for (const [endpoint, key] of [
      ['waf_groups', 'wafGroups'],
      ['waf_rules', 'wafRules'],
    ] as const) {
      const partition = this.o.writer.partition('zone', zone.id, endpoint);
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
        this.failed(partition, err, pages, items, zone.name);
      }
    }
  }
}

export { CredentialsRejected };
