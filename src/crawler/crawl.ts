import { setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import type { ApiClient } from '../api/client.js';
import { fillPath, LIST_ENDPOINTS, ZONE_OBJECT_READS, type ListEndpoint, type ZoneReads } from '../api/endpoints.js';
import { ApiAuthError, ApiError, ApiGoneError, ApiNetworkError, ApiRequestError } from '../api/errors.js';
import type { ListSummary, PagedList } from '../api/paginate.js';
import type { Logger } from '../shared/logger.js';
import { ScanCannotStart, startingFailure } from './first-calls.js';
import type { PartitionWriter, ScanScope, ScanWriter } from '../snapshot/writer.js';
import type { Endpoint, PartitionKind } from '../snapshot/tables.js';

/**
 * What to read for the user, each account and each zone, and in what order: the crawler fetches,
 * the snapshot writer stores, and every partition ends with a record of what happened. Answers
 * already known are not asked for again: a migrated zone's legacy WAF is gone for good, URI-based
 * overrides exist on Enterprise zones only, and only a zone that has started migrating has an
 * entry point. The previous managed rules exist on Pro plans and above, so a Free zone's are
 * never asked for, and an endpoint the API answers as retired (410 Gone) is recorded as such: a
 * permanent answer, never a gap in the scan.
 */

export interface CrawlOptions {
  client: ApiClient;
  writer: ScanWriter;
  scope: ScanScope;
  concurrency: number;
  logger: Logger;
  signal?: AbortSignal;
  onProgress?: (progress: CrawlProgress) => void;
  /** The settings and objects the catalogue's rules declare (`meta.reads`); none when omitted. */
  reads?: ZoneReads;
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
  /** Parts the API answered as retired for good (410 Gone): not missing, nothing to retry. */
  retired: MissingPart[];
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

export async function crawl(options: CrawlOptions): Promise<CrawlResult> {
  // Every request in flight listens to the stop signal: more than Node's default of 10 at high concurrency.
  if (options.signal) setMaxListeners(Math.max(10, options.concurrency * 4), options.signal);
  return new Crawler(options).run();
}

class Crawler {
  private readonly limit;
  private readonly result: CrawlResult = { accounts: 0, zones: 0, missing: [], notPermitted: [], retired: [], skipped: 0 };
  private readonly progress: CrawlProgress = { zonesDone: 0, zonesKnown: 0, accountsDone: 0, accountsKnown: 0 };
  private readonly zoneTasks: Array<Promise<void>> = [];
  private readonly seenZones = new Set<string>();
  private migratedBefore = new Set<string>();
  private anyReadSucceeded = false;
  /** Zones whose WAF packages endpoint answered as retired: their groups and rules went with it. */
  private readonly retiredPackages = new Map<string, { status: number | null; message: string }>();

  constructor(private readonly o: CrawlOptions) {
    this.limit = pLimit(o.concurrency);
  }

  async run(): Promise<CrawlResult> {
    this.migratedBefore = this.o.writer.migratedZones();
    const accountIds = await this.readAccounts();
    // Until some read has succeeded, a refusal of invites would say nothing the zones will not.
    const invites = this.anyReadSucceeded ? this.readInvites() : null;
    if (this.o.scope.zones.length > 0) {
      await Promise.all(this.o.scope.zones.map((name) => this.limit(() => this.readNamedZone(name))));
    } else if (accountIds === 'from-zones') {
      await this.readAllZones();
    } else {
      await Promise.all(accountIds.map((id) => this.limit(() => this.readAccountZones(id))));
    }
    await (invites ?? this.readInvites());
    await Promise.all(this.zoneTasks);
    return this.result;
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
      const answer = await this.o.client.get<Record<string, unknown>>(path, { query, signal: this.o.signal });
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
    const optional = partition.endpoint === 'invites' && state === 'denied';
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
    this.o.writer.partition('zone', zone.id, endpoint).finish({ state: 'skipped', pages: 0, items: 0, message: why });
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

  /**
   * The account list, or `from-zones` when the credentials cannot list accounts (an account-owned
   * token answers 1001) and no --account names them: the zone list then says which accounts exist.
   */
  private async readAccounts(): Promise<string[] | 'from-zones'> {
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
      if (err instanceof ApiError && err.hasCode(ACCOUNT_OWNED_TOKEN)) return this.accountOwnedToken(partition, err);
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
    const whole = this.o.writer.partition('user', '', 'zones');
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
      this.failed(whole, err, list.summary.pages, list.summary.items, null);
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

  private async readInvites(): Promise<void> {
    const partition = this.o.writer.partition('user', '', 'invites');
    try {
      // Not paginated: one call answers the whole list.
      const answer = await this.o.client.get<unknown[]>('/user/invites', this.o.signal ? { signal: this.o.signal } : {});
      const items = Array.isArray(answer.result) ? answer.result : [];
      partition.write(items);
      partition.finish({ state: 'ok', pages: 1, items: items.length });
    } catch (err) {
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
    const current = new Set(listed);
    const vanished = this.o.writer.zonesOfAccountAt(accountId, previousOk).filter((id) => !current.has(id));
    if (vanished.length) this.o.writer.closeZones(vanished);
  }

  private async readNamedZone(name: string): Promise<void> {
    const query: Record<string, string> = { name };
    const list = this.list(LIST_ENDPOINTS.zones, {}, query);
    try {
      const zones = (await list.all()) as ZoneItem[];
      this.anyReadSucceeded = true;
      const inScope = zones.filter((z) => !this.o.scope.accounts.length || this.o.scope.accounts.includes(z.account?.id ?? ''));
      if (inScope.length === 0) this.o.logger.warn(`--zone ${name}: no such zone is visible to these credentials`);
      for (const zone of inScope) this.enqueueZone(zone);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      this.stopIfFirst(err);
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
    this.zoneTasks.push(
      this.limit(async () => {
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
    const migrated = state === 'complete' || (state === null && this.migratedBefore.has(zone.id));
    const plan = zone.plan?.legacy_id;

    if (migrated) {
      const why = 'the zone has migrated: the previous managed rules no longer exist';
      for (const e of ['migration_check', 'migration_config', ...LEGACY_WAF] as const) this.skip(zone, e, why);
    } else {
      await this.readObject(zone, 'migration_check', `/zones/${encodeURIComponent(zone.id)}/waf_migration/check`, { phase_two: '1' });
      await this.readObject(zone, 'migration_config', `/zones/${encodeURIComponent(zone.id)}/waf_migration/config`, { phase_two: '1' });
      if (plan === 'free') {
        // Whatever the API would answer there (an error) says nothing about the zone.
        for (const e of LEGACY_WAF) this.skip(zone, e, 'the previous managed rules exist on Pro plans and above; a Free zone has none');
      } else {
        await this.readLegacyWaf(zone);
        if (plan === 'enterprise') await read('wafOverrides', 'waf_overrides');
        else this.skip(zone, 'waf_overrides', 'URI-based overrides exist on Enterprise zones only');
      }
    }
    if (state === 'validation' || migrated) {
      // 10003: no entry point has been written yet.
      const entrypoint = `/zones/${encodeURIComponent(zone.id)}/rulesets/phases/http_request_firewall_managed/entrypoint`;
      await this.readObject(zone, 'entrypoint', entrypoint, {}, 10003);
    } else {
      this.skip(zone, 'entrypoint', 'the zone has not started migrating: it has no managed-rules entry point');
    }
    await this.readSecurity(zone, migrated);
  }

  /**
   * The security settings and objects the rules declare, one call each. The legacy `waf` switch
   * is not asked of a migrated zone (gone with the previous managed rules) nor of a Free zone
   * (never offered); the rule reading it knows both from the zone.
   */
  private async readSecurity(zone: ZoneItem, migrated: boolean): Promise<void> {
    const reads = this.o.reads;
    if (!reads) return;
    const settings = reads.settings.filter((s) => s !== 'waf' || (!migrated && zone.plan?.legacy_id !== 'free'));
    if (settings.length) await this.readSettings(zone, settings);
    const params = { zone_id: zone.id };
    // 10003: the phase has no entry point yet, that is no custom rules.
    for (const o of reads.objects) await this.readObject(zone, o, fillPath(ZONE_OBJECT_READS[o], params), {}, o === 'custom_entrypoint' ? 10003 : undefined);
  }

  /**
   * Settings one by one into one partition. A setting the zone's plan does not offer is answered
   * with a request error (4xx other than a refusal): stored as `{id, not_offered}`, an answer,
   * never a gap. Any other failure leaves the partition failed with what was read before it.
   */
  private async readSettings(zone: ZoneItem, settings: readonly string[]): Promise<void> {
    const partition = this.o.writer.partition('zone', zone.id, 'zone_settings');
    const items: Array<Record<string, unknown>> = [];
    for (const id of settings) {
      try {
        const answer = await this.o.client.get<Record<string, unknown>>(`/zones/${encodeURIComponent(zone.id)}/settings/${id}`, this.o.signal ? { signal: this.o.signal } : {});
        const r = answer.result;
        items.push(r && typeof r === 'object' ? { ...r, id } : { id, value: r });
        this.anyReadSucceeded = true;
      } catch (err) {
        if (err instanceof ApiRequestError && (err.status === 400 || err.status === 404)) {
          items.push({ id, not_offered: err.apiErrors.map((e) => e.message).join('; ') || `HTTP ${err.status}` });
          continue;
        }
        partition.write(items);
        this.failed(partition, err, items.length, items.length, zone.name);
        return;
      }
    }
    partition.write(items);
    partition.finish({ state: 'ok', pages: settings.length, items: items.length });
  }

  /** Packages, then each package's groups and rules, each kind as one partition of the zone. */
  private async readLegacyWaf(zone: ZoneItem): Promise<void> {
    const packagesOk = await this.readList('zone', zone.id, 'waf_packages', this.list(LIST_ENDPOINTS.wafPackages, { zone_id: zone.id }), zone.name);
    if (!packagesOk) {
      const retired = this.retiredPackages.get(zone.id);
      for (const e of ['waf_groups', 'waf_rules'] as const) {
        // Groups and rules live under the packages: retired with them, else unreadable without them.
        if (retired) {
          this.o.writer.partition('zone', zone.id, e).finish({ state: 'retired', pages: 0, items: 0, httpStatus: retired.status, message: retired.message });
          this.missing('zone', zone.id, zone.name, e, 'retired', retired.message, 'retired');
          continue;
        }
        this.o.writer.partition('zone', zone.id, e).finish({ state: 'failed', pages: 0, items: 0, message: 'the WAF packages could not be read' });
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

/** The API error an account-owned token gets from `GET /accounts` (and from user-level endpoints). */
const ACCOUNT_OWNED_TOKEN = 1001;

/** The previous managed rules' endpoints, all gone once a zone migrates, none on a Free zone. */
const LEGACY_WAF = ['waf_packages', 'waf_groups', 'waf_rules', 'waf_overrides'] as const;

function retiredReason(err: ApiGoneError): string {
  const said = err.apiErrors.map((e) => e.message).join('; ');
  return `the API retired this endpoint (HTTP ${err.status ?? '?'}${said ? `: ${said}` : ''}); the data it served no longer exists there`;
}

export { ScanCannotStart };
