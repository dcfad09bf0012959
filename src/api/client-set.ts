import { CREDENTIAL_ENV, VENDOR_CREDENTIAL_ENV } from '../config/options.js';
import type { ApiClient } from './client.js';
import type { PacerStatus } from './pacer.js';
import { StatsRecorder, type ClientStats } from './stats.js';

/**
 * One API client per credential: the API keeps a request budget per user or account-owned token
 * (the vendor's rate limits page: 1,200 requests per 5 minutes "per user/account token"), so each
 * gets its own pacer, budget and connections, and a zone is read with its account's client.
 */
export interface LabelledClient {
  /** The variable holding the credential, e.g. ZW_TOKEN_ACME (never the value). */
  label: string;
  client: ApiClient;
  /** The accounts mapped to it; null for the default client, which reads every other account. */
  accounts: readonly string[] | null;
}

/** A zone or account whose account has no mapped credential, when there is no default credential either. */
export class NoCredentialForAccount extends Error {
  constructor(readonly accountId: string) {
    super(
      `no credential for account ${accountId}: it is not listed in the config file's "credentials" and the default credential ` +
        `(${CREDENTIAL_ENV.token} or ${VENDOR_CREDENTIAL_ENV.token}, or a key pair) is not set`,
    );
    this.name = 'NoCredentialForAccount';
  }
}

export class ClientSet {
  readonly default: ApiClient | null;
  private readonly byAccount = new Map<string, ApiClient>();
  private readonly entries: LabelledClient[];

  constructor(defaultClient: { label: string; client: ApiClient } | null, mapped: ReadonlyArray<{ label: string; client: ApiClient; accounts: readonly string[] }>) {
    this.default = defaultClient?.client ?? null;
    this.entries = [...(defaultClient ? [{ ...defaultClient, accounts: null }] : []), ...mapped.map((m) => ({ ...m, accounts: [...m.accounts] }))];
    for (const m of mapped) {
      for (const id of m.accounts) {
        const key = id.toLowerCase();
        if (this.byAccount.has(key)) throw new Error(`account ${id} is mapped to two credentials`);
        this.byAccount.set(key, m.client);
      }
    }
    if (this.entries.length === 0) throw new Error('a client set needs a default client or a mapped one');
  }

  /** The client for an account's requests: the mapped one, else the default. */
  forAccount(accountId: string): ApiClient {
    const client = this.byAccount.get(accountId.toLowerCase()) ?? this.default;
    if (!client) throw new NoCredentialForAccount(accountId);
    return client;
  }

  /** Whether the account has a credential of its own (else it is read with the default). */
  isMapped(accountId: string): boolean {
    return this.byAccount.has(accountId.toLowerCase());
  }

  /** Every mapped account id, in the order the configuration lists them. */
  mappedAccounts(): string[] {
    return [...this.byAccount.keys()];
  }

  /** The default client, or the first mapped one when there is no default: for what is not an account's (the base URL, a scan's record). */
  get primary(): ApiClient {
    return this.default ?? this.entries[0]!.client;
  }

  /** Every client, the default first. */
  all(): ApiClient[] {
    return this.entries.map((e) => e.client);
  }

  /** Every client with its label and accounts, the default first. */
  labelled(): LabelledClient[] {
    return this.entries.map((e) => ({ ...e, accounts: e.accounts && [...e.accounts] }));
  }

  /** The traffic of all clients together, for the scan summary. */
  snapshotStats(): ClientStats {
    return mergeStats(this.all().map((c) => c.snapshotStats()));
  }

  /** Each credential's budget, by label, for a progress line that names the one holding requests back. */
  budgets(): Array<{ label: string; status: PacerStatus }> {
    return this.entries.map((e) => ({ label: e.label, status: e.client.pacer.status() }));
  }

  /** The budgets summed over the credentials (their windows are of one length), for a time-left estimate. */
  budgetStatus(): PacerStatus {
    const all = this.budgets();
    const statuses = all.map((b) => b.status);
    const sum = {
      used: statuses.reduce((n, s) => n + s.used, 0),
      allowed: statuses.reduce((n, s) => n + s.allowed, 0),
      windowMs: Math.max(...statuses.map((s) => s.windowMs)),
      heldBack: statuses.reduce((n, s) => n + s.heldBack, 0),
    };
    if (all.length < 2 || sum.heldBack === 0) return sum;
    const most = all.reduce((a, b) => (b.status.heldBack > a.status.heldBack ? b : a));
    return { ...sum, holding: { label: most.label, used: most.status.used, allowed: most.status.allowed, windowMs: most.status.windowMs } };
  }

  async close(): Promise<void> {
    await Promise.all(this.all().map((c) => c.close()));
  }
}

/** Sums the counters of several clients, route by route. */
export function mergeStats(stats: ClientStats[]): ClientStats {
  const routes = new StatsRecorder();
  const totals = new StatsRecorder();
  for (const s of stats) {
    totals.add('total', s.total);
    for (const [route, c] of Object.entries(s.byRoute)) routes.add(route, c);
  }
  return { ...routes.snapshot(stats.reduce((ms, s) => ms + s.pacedMs, 0)), total: totals.total };
}
