import { LIST_ENDPOINTS } from '../api/endpoints.js';
import { ApiAuthError, ApiError } from '../api/errors.js';
import { entryOf } from '../common/map-entry.js';
import { canonicalZoneName } from '../snapshot/scope.js';
import type { AccountListing } from './accounts.js';
import type { CrawlParts } from './crawl-parts.js';
import { credentialOf } from './first-calls.js';
import { listProblem } from './list-problem.js';
import type { ZoneItem } from './zone-item.js';

/**
 * Which zones the scan reads: by account, by name (--zone), or in one list for a token that cannot
 * list accounts. Each zone listed is handed on to be read; zones a complete listing lost are closed.
 */
export class ZoneLists {
  constructor(
    private readonly parts: CrawlParts,
    private readonly accounts: AccountListing,
    private readonly enqueue: (zone: ZoneItem) => void,
  ) {}

  /** The repair of an account list that failed: its accounts' zones were never listed. */
  async accountsAndZones(): Promise<void> {
    const ids = await this.accounts.read(() => this.accountsAndZones());
    if (ids === 'from-zones') return this.all();
    // One account after another: this runs inside the crawl's concurrency limit already.
    for (const id of ids) await this.ofAccount(id);
  }

  /** Every zone in one list, for tokens that cannot list accounts: each account's listing is recorded with it. */
  async all(): Promise<void> {
    const { book, reader, credentials, outcome, options } = this.parts;
    const whole = book.partition('user', '', 'zones');
    const list = reader.list(LIST_ENDPOINTS.zones, {});
    const byAccount = new Map<string, string[]>();
    try {
      for await (const page of list) {
        for (const zone of page as ZoneItem[]) {
          if (typeof zone?.id !== 'string') continue;
          const account = typeof zone.account?.id === 'string' ? zone.account.id : '';
          entryOf(byAccount, account, () => []).push(zone.id);
          this.enqueue(zone);
        }
        credentials.anyReadSucceeded = true;
      }
    } catch (err) {
      if (!book.deferred(err, whole, () => this.all())) book.failed(whole, err, list.summary.pages, list.summary.items, null);
      return;
    }
    const s = list.summary;
    const problem = book.finishList(whole, s, null);
    credentials.anyReadSucceeded = true;
    byAccount.delete('');
    outcome.progress.accountsKnown = outcome.progress.accountsDone = byAccount.size;
    for (const [accountId, listed] of byAccount) {
      const listing = options.writer.partition('account', accountId, 'zones');
      listing.finish({ state: problem ? 'failed' : 'ok', pages: s.pages, items: listed.length, truncated: s.truncated, message: problem });
      if (!problem) this.closeVanished(accountId, listing.previousOk, listed);
    }
    outcome.report();
  }

  async ofAccount(accountId: string): Promise<void> {
    const { book, reader, credentials, outcome } = this.parts;
    const listing = book.partition('account', accountId, 'zones');
    const list = reader.list(LIST_ENDPOINTS.zones, {}, { 'account.id': accountId }, credentials.clientOf(accountId));
    const listed: string[] = [];
    try {
      for await (const page of list) {
        for (const zone of page as ZoneItem[]) {
          if (typeof zone?.id !== 'string') continue;
          listed.push(zone.id);
          this.enqueue(zone);
        }
      }
      const s = list.summary;
      const unseen = !listProblem(s) && listed.length === 0 ? await this.mappedAccountUnseen(accountId) : null;
      if (unseen) {
        listing.finish({ state: unseen.state, pages: s.pages, items: 0, httpStatus: unseen.status, apiCode: unseen.apiCode, errorCode: unseen.errorCode, message: unseen.message });
        book.missing('account', accountId, null, 'zones', unseen.state, unseen.message);
      } else if (book.finishList(listing, s, null) === null) this.closeVanished(accountId, listing.previousOk, listed);
    } catch (err) {
      if (book.deferred(err, listing, () => this.ofAccount(accountId))) return;
      book.failed(listing, err, list.summary.pages, list.summary.items, null);
    }
    outcome.progress.accountsDone++;
    outcome.report();
  }

  /**
   * Whether an account mapped to a credential of its own is one that credential cannot see: the zone
   * list answers it as an empty list (200), which would close every stored zone of it and pass the
   * scan as complete; the account itself answers 404 (code 1005) or a refusal. Asked only of an empty list.
   */
  private async mappedAccountUnseen(accountId: string): Promise<{ state: 'denied' | 'failed'; status: number | null; apiCode: number | null; errorCode: string; message: string } | null> {
    const { credentials, tasks } = this.parts;
    if (!credentials.clients?.isMapped(accountId)) return null;
    const client = credentials.clientOf(accountId);
    try {
      await client.get(`/accounts/${encodeURIComponent(accountId)}`, { signal: tasks.signal });
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

  /** Zones the previous complete listing had and this one lost: closed, so no version of theirs spans this scan if they come back. */
  private closeVanished(accountId: string, previousOk: number | null, listed: string[]): void {
    if (previousOk === null) return;
    const writer = this.parts.options.writer;
    const current = new Set(listed.map((id) => writer.storedId(id)));
    const vanished = writer.zonesOfAccountAt(accountId, previousOk).filter((id) => !current.has(id));
    if (vanished.length) writer.closeZones(vanished);
  }

  /**
   * The zone of that name: the list filtered by name, then by the exact name here (a proxy may drop
   * the filter; `contains:` matches more). A truncated list may have held it: missing, not absent.
   */
  async named(name: string): Promise<void> {
    const { book, reader, credentials, outcome, options, unmatched } = this.parts;
    const wanted = canonicalZoneName(name);
    const list = reader.list(LIST_ENDPOINTS.zones, {}, { name: wanted });
    try {
      const zones = ((await list.all()) as ZoneItem[]).filter((z) => typeof z?.name === 'string' && canonicalZoneName(z.name) === wanted);
      credentials.anyReadSucceeded = true;
      const accounts = options.scope.accounts;
      const inScope = zones.filter((z) => !accounts.length || accounts.includes(z.account?.id ?? ''));
      for (const zone of inScope) this.enqueue(zone);
      const problem = listProblem(list.summary);
      if (problem && inScope.length === 0) {
        outcome.result.missing.push({ kind: 'zone', scopeId: '', name: wanted, endpoint: 'zone', state: 'failed', reason: `the zone list for ${wanted}: ${problem}` });
      } else if (inScope.length === 0 && !(await this.namedOfMappedAccount(wanted))) {
        const why = zones.length ? `the zone is not in ${accounts.length === 1 ? 'account' : 'accounts'} ${accounts.join(', ')}` : 'no zone of this name is visible to these credentials';
        unmatched.push({ option: '--zone', name: wanted, why, closest: [] });
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (book.deferred(err, null, () => this.named(name))) return;
      outcome.result.missing.push({ kind: 'zone', scopeId: '', name, endpoint: 'zone', state: 'failed', reason: err.message });
    }
  }

  /** The zone of that name in an account mapped to another credential in scope, asked of each when the first found none. */
  private async namedOfMappedAccount(wanted: string): Promise<boolean> {
    const { reader, options } = this.parts;
    const accounts = options.scope.accounts.map((a) => a.toLowerCase());
    for (const entry of options.clients?.labelled() ?? []) {
      if (entry.client === options.client || !entry.accounts) continue;
      const own = entry.accounts.filter((a) => !accounts.length || accounts.includes(a.toLowerCase()));
      if (own.length === 0) continue;
      const zones = ((await reader.list(LIST_ENDPOINTS.zones, {}, { name: wanted }, entry.client).all()) as ZoneItem[]).filter(
        (z) => typeof z?.name === 'string' && canonicalZoneName(z.name) === wanted && own.some((a) => a.toLowerCase() === (z.account?.id ?? '').toLowerCase()),
      );
      for (const zone of zones) this.enqueue(zone);
      if (zones.length > 0) return true;
    }
    return false;
  }
}
