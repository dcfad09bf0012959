import Cloudflare, { APIError, NotFoundError } from 'cloudflare';
import { V4PagePaginationArray } from 'cloudflare/core/pagination';
import pLimit from 'p-limit';
import type { LIST_ENDPOINTS } from '../../src/api/endpoints.js';

/**
 * What a user would write with the official SDK instead of `zonewarden scan`: the same reads as the
 * crawler (src/crawler/crawl.ts), through the SDK's resource methods and auto-pagination, keeping
 * only counts. Zones come from one listing of /zones, not one per account as zonewarden does.
 * No call is guarded but the entry point's documented 404: the first error ends the script, as it
 * would end a user's.
 */

export type PagedList = keyof typeof LIST_ENDPOINTS;

export interface ScriptSettings {
  /** Zones read at once; 1 reads them one after another. */
  concurrency: number;
  /** per_page asked for, per list; a list not named sends none, so the server's default applies. */
  perPage: Partial<Record<PagedList, number>>;
}

export const ITEM_KINDS = [
  'accounts',
  'zones',
  'invites',
  'dns_records',
  'certificate_packs',
  'firewall_rules',
  'filters',
  'waf_packages',
  'waf_groups',
  'waf_rules',
  'waf_overrides',
  'zone_objects',
] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

function noItems(): Record<ItemKind, number> {
  return Object.fromEntries(ITEM_KINDS.map((k) => [k, 0])) as Record<ItemKind, number>;
}

/** The one JSON line an entry script prints on stdout. */
export interface SdkScriptReport {
  requests: number;
  rateLimited: number;
  errors: number;
  items: Record<ItemKind, number>;
  seconds: number;
  maxRssKiB: number;
  completed: boolean;
  failure: string | null;
}

interface Counters {
  requests: number;
  rateLimited: number;
  errors: number;
}

/**
 * Counts what goes over the wire, each retry included: the SDK retries 429s and 5xx itself and
 * never says so. A fetch that throws (refused, reset, the SDK's own timeout) is an error too.
 */
function countingFetch(counters: Counters, finished: () => boolean): typeof globalThis.fetch {
  return async (input, init) => {
    // Zones still in flight when another failed must not send more than the report says.
    if (finished()) throw new Error('the script has finished');
    counters.requests++;
    try {
      const answer = await globalThis.fetch(input, init);
      if (answer.status === 429) counters.rateLimited++;
      else if (!answer.ok) counters.errors++;
      return answer;
    } catch (err) {
      counters.errors++;
      throw err;
    }
  };
}

/** The generic `client.get` answers the whole envelope, not its `result`. */
interface Envelope<T> {
  result: T | null;
}

interface ZoneRef {
  id: string;
  enterprise: boolean;
  free: boolean;
  /** The owning account's id, whose managed entry point may deploy managed rules to the zone. */
  accountId: string | null;
}

const ENTRYPOINT_ABSENT = 10003;
/**
 * The zone settings zonewarden's catalogue reads (the rules' `meta.reads`): security_level is not
 * among them, no rule judging it any more (vendor docs: the threat score is always 0).
 */
const SECURITY_SETTINGS = ['ssl', 'min_tls_version', 'tls_1_3', 'always_use_https', 'automatic_https_rewrites', 'security_header', 'browser_check', 'waf'];
const MANAGED_PHASE = 'http_request_firewall_managed';

/**
 * A zone created with the new managed rules: its status has no migration_state, the new managed
 * rules enabled and the previous ones not (as the crawler reads it).
 */
function bornOnNewManagedRules(status: Record<string, unknown> | null): boolean {
  return status !== null && typeof status['migration_state'] !== 'string' && status['new_waf_status'] === 'enabled' && status['old_waf_status'] !== 'enabled';
}

class OrganisationReader {
  readonly items = noItems();
  /** Each listed account's type: Enterprise accounts have an account-level managed entry point. */
  private readonly accountTypes = new Map<string, string | undefined>();
  /** Each Enterprise account's entry point, asked once and shared by its zones. */
  private readonly accountEntrypoints = new Map<string, Promise<void>>();

  constructor(
    private readonly client: Cloudflare,
    private readonly counters: Counters,
    private readonly settings: ScriptSettings,
  ) {}

  async run(): Promise<void> {
    for await (const account of this.client.accounts.list(this.page('accounts'))) {
      this.items.accounts++;
      this.accountTypes.set(account.id, account.type);
    }
    await this.count('invites', this.client.user.invites.list());
    const zones: ZoneRef[] = [];
    for await (const zone of this.client.zones.list(this.page('zones'))) {
      this.items.zones++;
      zones.push({ id: zone.id, enterprise: zone.plan?.legacy_id === 'enterprise', free: zone.plan?.legacy_id === 'free', accountId: zone.account?.id ?? null });
    }
    const limit = pLimit(this.settings.concurrency);
    try {
      await Promise.all(zones.map((zone) => limit(() => this.readZone(zone))));
    } finally {
      // After the first failure, queued zones are not started.
      limit.clearQueue();
    }
  }

  private page(list: PagedList): { per_page?: number } {
    const perPage = this.settings.perPage[list];
    return perPage === undefined ? {} : { per_page: perPage };
  }

  private async count(kind: ItemKind, list: AsyncIterable<unknown>): Promise<void> {
    for await (const _ of list) this.items[kind]++;
  }

  private async object<T>(path: string, query: Record<string, string> = {}): Promise<T | null> {
    const answer = await this.client.get<Envelope<T>>(path, { query });
    this.items.zone_objects++;
    return answer.result;
  }

  private async readZone(zone: ZoneRef): Promise<void> {
    const c = this.client;
    const zone_id = zone.id;
    const base = `/zones/${encodeURIComponent(zone_id)}`;
    await this.count('dns_records', c.dns.records.list({ zone_id, ...this.page('dnsRecords') }));
    await this.count('certificate_packs', c.ssl.certificatePacks.list({ zone_id, status: 'all', ...this.page('certificatePacks') }));
    await this.count('firewall_rules', c.firewall.rules.list({ zone_id, ...this.page('firewallRules') }));
    await this.count('filters', c.filters.list({ zone_id, ...this.page('filters') }));

    // The SDK has no waf_migration methods: the generic get reads them.
    const status = await this.object<Record<string, unknown>>(`${base}/waf_migration/status`);
    const state = status?.['migration_state'];
    // A zone born on the new managed rules has no previous WAF, migration check or configuration.
    const migrated = state === 'complete' || bornOnNewManagedRules(status);
    if (!migrated) {
      await this.object(`${base}/waf_migration/check`, { phase_two: '1' });
      await this.object(`${base}/waf_migration/config`, { phase_two: '1' });
      await this.readLegacyWaf(zone_id);
      // The SDK's overrides.list is typed void and reads one page: its generic paginated list is what works.
      if (zone.enterprise) await this.count('waf_overrides', c.getAPIList(`${base}/firewall/waf/overrides`, V4PagePaginationArray<unknown>, { query: this.page('wafOverrides') }));
    }
    // Every paid zone's managed phase, and a Free zone's once it has started migrating.
    if (state === 'validation' || migrated || !zone.free) await this.readEntrypoint({ zone_id }, MANAGED_PHASE);
    // Once per Enterprise account; by the zone's plan when the account list did not say the type.
    const accountType = zone.accountId === null ? undefined : this.accountTypes.get(zone.accountId);
    if (zone.accountId !== null && (accountType === 'enterprise' || (accountType === undefined && zone.enterprise))) await this.readAccountEntrypoint(zone.accountId);
    await this.readSecurity(zone, base, migrated);
  }

  /** The account's managed entry point, once per account however many of its zones ask. */
  private readAccountEntrypoint(account_id: string): Promise<void> {
    let read = this.accountEntrypoints.get(account_id);
    if (!read) {
      read = this.readEntrypoint({ account_id }, MANAGED_PHASE);
      this.accountEntrypoints.set(account_id, read);
    }
    return read;
  }

  /**
   * The security reads zonewarden's rules declare, as a script would make them: each setting with
   * the generic get (the batch settings endpoint is retired), DNSSEC, universal SSL and the
   * custom-rules entry point; the legacy WAF switch not on Free or migrated zones.
   */
  private async readSecurity(zone: ZoneRef, base: string, migrated: boolean): Promise<void> {
    for (const id of SECURITY_SETTINGS) {
      if (id === 'waf' && (zone.free || migrated)) continue;
      await this.object(`${base}/settings/${id}`);
    }
    await this.object(`${base}/dnssec`);
    await this.object(`${base}/ssl/universal/settings`);
    await this.readEntrypoint({ zone_id: zone.id }, 'http_request_firewall_custom');
  }

  private async readLegacyWaf(zone_id: string): Promise<void> {
    const packages = this.client.firewall.waf.packages;
    const ids: string[] = [];
    for await (const p of packages.list({ zone_id, ...this.page('wafPackages') })) {
      this.items.waf_packages++;
      // The SDK types a package list item as `unknown`.
      const id = (p as { id?: unknown } | null)?.id;
      if (typeof id === 'string') ids.push(id);
    }
    for (const id of ids) await this.count('waf_groups', packages.groups.list(id, { zone_id, ...this.page('wafGroups') }));
    for (const id of ids) await this.count('waf_rules', packages.rules.list(id, { zone_id, ...this.page('wafRules') }));
  }

  private async readEntrypoint(scope: { zone_id: string } | { account_id: string }, phase: 'http_request_firewall_managed' | 'http_request_firewall_custom'): Promise<void> {
    try {
      await this.client.rulesets.phases.get(phase, scope);
      this.items.zone_objects++;
    } catch (err) {
      if (!(err instanceof NotFoundError && err.errors.some((e) => e.code === ENTRYPOINT_ABSENT))) throw err;
      // No entry point yet is an answer, not an error; the fetch counted it before anyone knew.
      this.counters.errors--;
    }
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Runs a script to the end and prints its report: base URL and token from the environment, as the
 * CLI takes them. Exits 0 whatever happened, with any failure in the report, and reports early if
 * the harness stops it with SIGTERM.
 */
export async function runScript(settings: ScriptSettings): Promise<void> {
  const started = performance.now();
  const counters: Counters = { requests: 0, rateLimited: 0, errors: 0 };
  let reader: OrganisationReader | null = null;
  let finished = false;
  const finish = (completed: boolean, failure: string | null): void => {
    // One report only: a SIGTERM and the run's own end can both come.
    if (finished) return;
    finished = true;
    const report: SdkScriptReport = {
      ...counters,
      items: reader?.items ?? noItems(),
      seconds: (performance.now() - started) / 1000,
      maxRssKiB: process.resourceUsage().maxRSS,
      completed,
      failure,
    };
    process.stdout.write(`${JSON.stringify(report)}\n`, () => process.exit(0));
  };
  process.once('SIGTERM', () => finish(false, 'stopped by SIGTERM before finishing'));

  const baseURL = process.env['ZONEWARDEN_BASE_URL'];
  const apiToken = process.env['ZONEWARDEN_API_TOKEN'];
  if (!baseURL || !apiToken) return finish(false, 'ZONEWARDEN_BASE_URL and ZONEWARDEN_API_TOKEN must be set');
  // Explicit nulls keep CLOUDFLARE_* variables of the environment from adding credentials.
  const client = new Cloudflare({ baseURL, apiToken, apiKey: null, apiEmail: null, userServiceKey: null, fetch: countingFetch(counters, () => finished) });
  reader = new OrganisationReader(client, counters, settings);
  try {
    await reader.run();
    finish(true, null);
  } catch (err) {
    // HTTP failures were counted by the fetch; anything else (a body that is not JSON, a bug) here.
    if (!(err instanceof APIError)) counters.errors++;
    finish(false, message(err));
  }
}
