import type { ApiClient } from '../api/client.js';
import type { ClientSet } from '../api/client-set.js';
import { ApiAuthError, ApiNetworkError } from '../api/errors.js';
import type { ScanScope } from '../snapshot/writer.js';
import { startingFailure } from './first-calls.js';

/** The API error an account-owned token gets from `GET /accounts` (and from user-level endpoints). */
export const ACCOUNT_OWNED_TOKEN = 1001;

/** Which credential reads an account's or a zone's parts, and whether a failure of the first calls ends the scan. */
export class ScanCredentials {
  /** Some read has been answered: from then on a refusal is a permission one part lacks. */
  anyReadSucceeded = false;
  /** Each zone's account, as the zone list served it: whose credential a zone part is read with. */
  private readonly zoneAccounts = new Map<string, string | undefined>();

  constructor(
    readonly client: ApiClient,
    readonly clients: ClientSet | undefined,
    private readonly scope: ScanScope,
  ) {}

  /** Without a default credential (every account mapped to its own), nothing is read at the user level. */
  get userLevel(): boolean {
    return !this.clients || this.clients.default !== null;
  }

  /** An account's own credential when the config maps one to it (each with its own budget), else the default one. */
  clientOf(accountId: string | undefined): ApiClient {
    const set = this.clients;
    return set && accountId !== undefined && set.isMapped(accountId) ? set.forAccount(accountId) : this.client;
  }

  listed(zone: { id: string; account?: { id?: string } }): void {
    this.zoneAccounts.set(zone.id, zone.account?.id);
  }

  clientOfZone(zoneId: string): ApiClient {
    return this.clientOf(this.zoneAccounts.get(zoneId));
  }

  /**
   * Refused credentials or an unreachable API on the first calls end the scan. Later, a refusal is
   * a permission this endpoint lacks, and a connection failure one part that could not be read.
   */
  stopIfFirst(err: unknown): void {
    if (this.anyReadSucceeded || !(err instanceof ApiAuthError || (err instanceof ApiNetworkError && err.unreachable))) return;
    // With a credential per account, one refused is its accounts' loss (their parts are denied, its
    // variable named), not the scan's, while another credential may yet be taken.
    if (err instanceof ApiAuthError && this.anotherMayWork()) return;
    throw startingFailure(err, this.client.options, this.refused());
  }

  /** The variables of the scan's credentials the API refused (null: the default credential's). */
  private refused(): Array<string | null> {
    const clients = this.clients?.all() ?? [];
    return clients.filter((c) => c.credentialStanding === 'refused').map((c) => c.options.credentialVariables ?? null);
  }

  /** Whether a credential of the scan has been answered, is being asked, or is unused and holds accounts in scope. */
  private anotherMayWork(): boolean {
    if (!this.clients) return this.client.credentialStanding === 'pending' || this.client.credentialStanding === 'answered';
    const scoped = this.scope.accounts.map((a) => a.toLowerCase());
    const inScope = (accounts: readonly string[] | null) => accounts !== null && accounts.some((a) => scoped.length === 0 || scoped.includes(a.toLowerCase()));
    return this.clients.labelled().some(({ client, accounts }) => {
      const standing = client.credentialStanding;
      return standing === 'pending' || standing === 'answered' || (standing === 'unused' && inScope(accounts));
    });
  }
}
