import type { AccountRow, CoverageRow, Readout, SnapshotReader, ZoneRow } from '../snapshot/reader.js';

// A coverage row as coverage() hands it to the rules: part of the view's vocabulary.
export type { CoverageRow };
import { parseInvite, type Invite } from './models.js';

/** The scan as organisation rules see it: the user's accounts, invites, zones and what was read. */
export class SnapshotView {
  private accountsCache: Readout<AccountRow> | null = null;
  private invitesCache: Readout<Invite> | null = null;
  private zonesCache: ZoneRow[] | null = null;
  private accountsById: Map<string, AccountRow> | null = null;

  constructor(private readonly reader: SnapshotReader) {}

  accounts(): Readout<AccountRow> {
    return (this.accountsCache ??= this.reader.accounts());
  }

  /** An account by id, when the account list was read. */
  account(id: string | null): AccountRow | null {
    if (id === null) return null;
    if (!this.accountsById) {
      const accounts = this.accounts();
      this.accountsById = new Map(accounts.known ? accounts.items.map((a) => [a.id, a]) : []);
    }
    return this.accountsById.get(id) ?? null;
  }

  invites(): Readout<Invite> {
    if (this.invitesCache) return this.invitesCache;
    const r = this.reader.invites();
    return (this.invitesCache = r.known ? { known: true, items: r.items.map((i) => parseInvite(i.id, i.raw)) } : r);
  }

  /** The zones the scan read, by name, within its scope. */
  zones(): ZoneRow[] {
    return (this.zonesCache ??= this.reader.zones());
  }

  /** Every coverage row of the scan; with `onlyUnread`, those of parts failed, denied or cut short. */
  coverage(onlyUnread = false): CoverageRow[] {
    return this.reader.coverage(onlyUnread);
  }

  coverageOf(kind: CoverageRow['kind'], scopeId: string, endpoint: CoverageRow['endpoint']): CoverageRow | undefined {
    return this.reader.coverageOf(kind, scopeId, endpoint);
  }
}
