import { LIST_ENDPOINTS } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import type { PartitionWriter } from '../snapshot/writer.js';
import type { CrawlParts } from './crawl-parts.js';
import { ACCOUNT_OWNED_TOKEN } from './credentials.js';
import { closestNames } from './scope-match.js';

/**
 * The user-level reads that say which accounts the scan covers (the account list, or what --account
 * or the zones name), with the accounts mapped to credentials of their own, and the user's invites.
 */
export class AccountListing {
  /** Each account's type as the account list says it (`enterprise` accounts have account-level entry points). */
  private readonly types = new Map<string, string>();

  constructor(private readonly parts: CrawlParts) {}

  accountType(accountId: string): string | undefined {
    return this.types.get(accountId);
  }

  /**
   * The account list, or `from-zones` when the credentials cannot list accounts (an account-owned
   * token answers 1001) and no --account names them: the zone list then says which accounts exist.
   * `zonesToo`: the repair when unscoped, where the zones come from the accounts (both are read again).
   */
  async read(zonesToo: () => Promise<void>): Promise<string[] | 'from-zones'> {
    const { book, reader, credentials, outcome, options } = this.parts;
    const partition = book.partition('user', '', 'accounts');
    const list = reader.list(LIST_ENDPOINTS.accounts, {});
    const ids: string[] = [];
    let whole = false;
    try {
      for await (const page of list) {
        partition.write(page);
        for (const a of page as Array<{ id?: unknown; type?: unknown }>) {
          if (typeof a.id !== 'string') continue;
          ids.push(a.id);
          if (typeof a.type === 'string') this.types.set(a.id, a.type);
        }
      }
      whole = book.finishList(partition, list.summary, null) === null;
      credentials.anyReadSucceeded = true;
    } catch (err) {
      if (err instanceof ApiError && err.hasCode(ACCOUNT_OWNED_TOKEN)) return this.accountOwnedToken(partition, err);
      const repair = options.scope.accounts.length ? () => this.read(zonesToo) : zonesToo;
      if (!book.deferred(err, partition, repair)) book.failed(partition, err, list.summary.pages, list.summary.items, null);
      // Without the account list, scoped account ids can still be read.
    }
    const scoped = options.scope.accounts;
    let chosen = scoped.length ? scoped : ids;
    if (scoped.length && whole) {
      // The account list is whole: an id not in it is not visible to these credentials.
      for (const id of scoped.filter((id) => !ids.includes(id))) {
        this.parts.unmatched.push({ option: '--account', name: id, why: 'no account with this id is visible to these credentials', closest: closestNames(id, ids) });
      }
      chosen = scoped.filter((id) => ids.includes(id));
    }
    outcome.progress.accountsKnown = chosen.length;
    outcome.report();
    return chosen;
  }

  /** An account-owned token may not list accounts (400, code 1001): not a gap, the accounts are --account's or the zones'. */
  private accountOwnedToken(partition: PartitionWriter, err: ApiError): string[] | 'from-zones' {
    const { book, outcome, options } = this.parts;
    const scoped = options.scope.accounts;
    const from = scoped.length ? 'the accounts --account names' : 'the zones it can read';
    const message = `these credentials are an account-owned token, which cannot list accounts (API error ${ACCOUNT_OWNED_TOKEN}); the accounts were taken from ${from}`;
    partition.finish({ state: 'denied', pages: 0, items: 0, httpStatus: err.status, apiCode: ACCOUNT_OWNED_TOKEN, errorCode: err.code, message });
    book.missing('user', '', null, 'accounts', 'denied', message, 'notPermitted');
    if (!scoped.length) return 'from-zones';
    outcome.progress.accountsKnown = scoped.length;
    outcome.report();
    return [...scoped];
  }

  /** Accounts mapped to a credential of their own that the default credential's list does not show: read with their own. */
  withMapped(ids: string[] | 'from-zones'): string[] | 'from-zones' {
    const { options, outcome, unmatched } = this.parts;
    const mapped = options.clients?.mappedAccounts() ?? [];
    if (ids === 'from-zones' || mapped.length === 0) return ids;
    const scoped = options.scope.accounts;
    const extra = mapped.filter((id) => !ids.includes(id) && (scoped.length === 0 || scoped.includes(id)));
    if (extra.length === 0) return ids;
    unmatched.splice(0, unmatched.length, ...unmatched.filter((u) => !(u.option === '--account' && extra.includes(u.name))));
    outcome.progress.accountsKnown += extra.length;
    return [...ids, ...extra];
  }

  /** The accounts to read when every one has its own credential: --account's, else every mapped one. */
  mappedScope(): string[] {
    const { options, outcome } = this.parts;
    const scoped = options.scope.accounts;
    const ids = scoped.length ? scoped : (options.clients?.mappedAccounts() ?? []);
    outcome.progress.accountsKnown = ids.length;
    return [...ids];
  }

  async readInvites(): Promise<void> {
    const { book, options, tasks } = this.parts;
    const partition = book.partition('user', '', 'invites');
    try {
      const answer = await options.client.get<unknown[]>('/user/invites', { signal: tasks.signal });
      const items = Array.isArray(answer.result) ? answer.result : [];
      partition.write(items);
      partition.finish({ state: 'ok', pages: 1, items: items.length });
    } catch (err) {
      if (!book.deferred(err, partition, () => this.readInvites())) book.failed(partition, err, 0, 0, null);
    }
  }
}
