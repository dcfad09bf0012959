import { setMaxListeners } from 'node:events';
import { LIST_ENDPOINTS } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import { AccountReads } from './account-reads.js';
import { AccountListing } from './accounts.js';
import type { CrawlOptions, CrawlParts } from './crawl-parts.js';
import { ScanCredentials } from './credentials.js';
import { Carrier } from './incremental/carry.js';
import { PermissionStandings } from './incremental/permissions.js';
import { ReadPlan } from './incremental/read-plan.js';
import { CrawlOutcome, type CrawlResult } from './outcome.js';
import { PartitionReader } from './partition-reads.js';
import { PartitionBook } from './partitions.js';
import { ReadKit } from './read-kit.js';
import type { ZoneItem } from './zone-item.js';
import { RepairPass } from './repair.js';
import { TargetResolver } from './resolve/resolver.js';
import { closestNames, describeUnmatched, ScopeMatchedNothing, type UnmatchedName } from './scope-match.js';
import { CrawlTasks } from './tasks.js';
import { ZoneLists } from './zone-lists.js';
import { ZoneQueue } from './zone-queue.js';

/**
 * A scan's crawl, in order: the user's accounts, each account's zones, each zone's reads (reads/),
 * then the repair pass and the check of the scope; this wires the parts that do the work. How much
 * of a zone is read tonight is the incremental plan's (incremental/).
 */
export async function crawl(options: CrawlOptions): Promise<CrawlResult> {
  // Every request in flight listens to the stop signal: more than Node's default of 10 at high concurrency.
  if (options.signal) setMaxListeners(Math.max(10, options.concurrency * 4), options.signal);
  const startedAt = new Date().toISOString();
  const { writer, logger, scope, reads } = options;
  const plan = options.plan ?? ReadPlan.full(writer, logger);
  const outcome = new CrawlOutcome({ incremental: plan.incremental, why: plan.why, base: plan.base?.scanId ?? null }, options.onProgress);
  const tasks = new CrawlTasks(options.concurrency, options.client, options.signal);
  const credentials = new ScanCredentials(options.client, options.clients, scope);
  const permissions = new PermissionStandings(logger);
  const repair = new RepairPass(tasks, outcome, logger, options.client.options.retries, options.repairPauseMs);
  const book = new PartitionBook(writer, outcome, credentials, repair, permissions, logger);
  const reader = new PartitionReader(book, credentials, tasks.signal);
  const parts: CrawlParts = { options, plan, tasks, outcome, credentials, book, reader, unmatched: [] };
  const resolver = options.resolver ? new TargetResolver(options.resolver) : null;
  if (resolver) tasks.signal.addEventListener('abort', () => resolver.cancel(), { once: true });

  const startedHere = performance.now();
  const accounts = new AccountListing(parts);
  const carrier = new Carrier(writer, plan, permissions, reads, book);
  const accountReads = new AccountReads(reader, book, credentials, tasks.signal);
  const migrated = writer.migratedZones();
  const kit = new ReadKit(tasks.signal, reads, writer, book, reader, credentials, accounts, accountReads, carrier, resolver, migrated);
  const queue = new ZoneQueue(parts, kit, permissions);
  const zones = new ZoneLists(parts, accounts, (zone) => queue.enqueue(zone));

  const accountIds = credentials.userLevel ? accounts.withMapped(await accounts.read(() => zones.accountsAndZones())) : accounts.mappedScope();
  // Until some read has succeeded, a refusal of invites would say nothing the zones will not:
  // they are then read once the zones are listed.
  const invitesNow = credentials.anyReadSucceeded || !credentials.userLevel;
  if (invitesNow && credentials.userLevel) tasks.track(accounts.readInvites());
  const listings =
    scope.zones.length > 0
      ? scope.zones.map((name) => tasks.track(tasks.limitOf()(() => zones.named(name))))
      : accountIds === 'from-zones'
        ? [tasks.track(zones.all())]
        : accountIds.map((id) => tasks.track(tasks.limitOf(credentials.clientOf(id))(() => zones.ofAccount(id))));
  if (!invitesNow) {
    await Promise.all(listings);
    if (!tasks.fatal) tasks.track(accounts.readInvites());
  }
  await tasks.settle();
  if (!tasks.fatal) await repair.run();
  if (tasks.fatal) throw tasks.fatal.error;
  await checkScopeMatched(parts);
  const check = await resolver?.checked;
  if (check) outcome.result.resolver = check;
  outcome.result.apiStartedAt = apiTimeAt(options, startedHere, startedAt).toISOString();
  return outcome.finished();
}

/**
 * The API's clock at the scan's start, where the next night's audit-log window starts: the earliest
 * of each credential's first answer; this machine's clock if none answered.
 */
function apiTimeAt(options: CrawlOptions, startedHere: number, startedAt: string): Date {
  const clients = options.clients?.all() ?? [options.client];
  const answered = clients.flatMap((client) => client.serverTimeNearFirstAnswer(startedHere)?.getTime() ?? []);
  return new Date(answered.length ? Math.min(...answered) : startedAt);
}

/**
 * A scope none of whose names matched is an error, not an empty scan; names that matched
 * nothing beside others that did make the scan incomplete, each named in what is missing.
 */
async function checkScopeMatched({ unmatched, options, outcome, book, tasks }: CrawlParts): Promise<void> {
  if (unmatched.length === 0) return;
  const scope = options.scope;
  const count = (option: UnmatchedName['option']) => unmatched.filter((u) => u.option === option).length;
  const nothing = outcome.progress.zonesKnown === 0 && (scope.zones.length > 0 ? count('--zone') === scope.zones.length : count('--account') === scope.accounts.length);
  if (nothing) {
    await suggestZones(options, unmatched.filter((u) => u.option === '--zone'), tasks.signal);
    throw new ScopeMatchedNothing(unmatched);
  }
  for (const u of unmatched) {
    const kind = u.option === '--zone' ? 'zone' : 'account';
    book.missing(kind, '', u.name, kind === 'zone' ? 'zone' : 'zones', 'failed', describeUnmatched(u));
  }
}

/** Zone names to suggest for a typo: those stored and the zone list's first page (all of it would cost hundreds of requests). */
async function suggestZones(options: CrawlOptions, unmatched: UnmatchedName[], signal: AbortSignal): Promise<void> {
  if (unmatched.length === 0) return;
  const names = new Set(options.writer.all<{ name: string }>('SELECT DISTINCT name FROM zones').map((r) => r.name));
  try {
    const answer = await options.client.get<ZoneItem[]>('/zones', { query: { per_page: String(LIST_ENDPOINTS.zones.maxPerPage), order: 'name' }, signal });
    for (const z of Array.isArray(answer.result) ? answer.result : []) if (typeof z?.name === 'string') names.add(z.name);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
  }
  for (const u of unmatched) u.closest = closestNames(u.name, names);
}

export type { CrawlProgress, CrawlResult, MissingPart } from './outcome.js';
