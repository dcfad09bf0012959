import type { AccountRow, CoverageRow, Readout, SnapshotReader, ZoneRow } from '../snapshot/reader.js';

// A coverage row as coverage() hands it to the rules, and a zone as zones() does: part of the view's vocabulary.
export type { CoverageRow, ZoneRow };
import { parseInvite, type Invite } from '../cloudflare/accounts/invite.js';
import { parseAccountMember, type AccountMember } from '../cloudflare/accounts/member.js';
import { parseNotificationPolicy, type NotificationPolicy } from '../cloudflare/alerting/notification-policy.js';
import { parsePageShield, type PageShieldSettings } from '../cloudflare/page-shield/client-side.js';
import { mapReadout, type ObjectReadout } from './zone-view.js';

type PageShieldReadout = ObjectReadout<PageShieldSettings>;

/** The scan as organisation rules see it: the user's accounts, invites, zones and what was read. */
export class SnapshotView {
  private accountsCache: Readout<AccountRow> | null = null;
  private invitesCache: Readout<Invite> | null = null;
  private zonesCache: ZoneRow[] | null = null;
  private accountsById: Map<string, AccountRow> | null = null;
  /** Each zone's client-side security settings once read, so an organisation rule need not read each zone again. */
  private readonly pageShields = new Map<string, PageShieldReadout>();

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
    return (this.invitesCache ??= mapReadout(this.reader.invites(), (i) => parseInvite(i.id, i.raw)));
  }

  /** An account's members, when the scan read them (rules declaring `account_members`). */
  accountMembers(accountId: string): Readout<AccountMember> {
    return mapReadout(this.reader.accountMembers(accountId), (m) => parseAccountMember(m.id, m.raw));
  }

  /** An account's notification policies (unknown when not read, refused or failed). */
  notificationPolicies(accountId: string): Readout<NotificationPolicy> {
    return mapReadout(this.reader.accountObjects(accountId, 'notification_policies'), (i) => parseNotificationPolicy(i.id, i.raw));
  }

  /** A zone's client-side security settings; null: the API answered none. */
  pageShieldOf(zoneId: string): PageShieldReadout {
    let read = this.pageShields.get(zoneId);
    if (read === undefined) {
      const r = this.reader.zoneObject(zoneId, 'page_shield');
      read = r.known ? { known: true, value: r.items[0] ? parsePageShield(r.items[0].raw) : null } : r;
      this.pageShields.set(zoneId, read);
    }
    return read;
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
