import { defineRule } from '../src/policy/rule.js';
import type { CoverageRow } from '../src/policy/snapshot-view.js';

/** Unread: failed, denied or truncated. Skipped (not asked) and retired (gone for good) had nothing to read. */
const unread = (row: CoverageRow): boolean => row.state === 'failed' || row.state === 'denied' || (row.state === 'ok' && row.truncated);

/** The API's answer to an account-owned token on the list of accounts. */
const ACCOUNT_OWNED_TOKEN = 1001;

const why = (row: CoverageRow): string => `${row.endpoint} (${row.truncated && row.state === 'ok' ? 'truncated' : row.state}: ${row.message ?? 'no reason given'})`;

export default defineRule({
  meta: {
    id: 'scan-coverage',
    title: 'Every part of the organisation was read',
    description:
      'Every other rule judges only what the scan read: a zone whose firewall rules could not be read is not shown as failing, it is missing from the verdicts. A clean report from an incomplete scan is not a clean organisation.',
    severity: 'high',
    category: 'scan',
    scope: 'organisation',
    resource: 'zone',
    messages: {
      accountsNotRead: 'the account list was not read ({{reason}}): accounts and their zones may be missing from the scan',
      invitesNotRead: 'the invites were not read ({{reason}}): pending access to other organisations is not known',
      listingNotRead: "the account's zone list was not read completely ({{reason}}): some of its zones may be missing from the scan",
      zoneIncomplete: '{{count}} part(s) of the zone were not read, so the rules that need them could not judge it: {{parts}}',
    },
    remediation:
      'Look at the reasons: grant the token the missing permissions (for denied parts), wait out rate limits or server errors and scan again (for failed parts). `zonewarden scan` exits 3 and names what is missing.',
    references: ['design.md: A rule (unknown when the data was not read)', 'API spec: Errors, Limits (per_page may time out)'],
  },
  defaultOptions: {},
  check(ctx) {
    const snapshot = ctx.snapshot;
    const scope = ctx.scan.scope;

    const user = { type: 'user', id: 'accounts', name: 'accounts' };
    const accounts = snapshot.accounts();
    // An account-owned token cannot list accounts (API error 1001): its accounts are the ones
    // --account names, or the ones the list of every zone it can see names.
    const accountsRow = snapshot.coverageOf('user', '', 'accounts');
    const accountOwned = !accounts.known && accountsRow?.state === 'denied' && accountsRow.apiCode === ACCOUNT_OWNED_TOKEN;
    const allZones = snapshot.coverageOf('user', '', 'zones');
    if (accounts.known) ctx.pass(user);
    else if (accountOwned && (scope.accounts.length > 0 || scope.zones.length > 0 || (allZones && !unread(allZones)))) ctx.pass(user);
    else if (accountOwned) ctx.fail(user, 'accountsNotRead', { reason: allZones ? why(allZones) : 'the credentials cannot list accounts and the zone list was not read' });
    else ctx.fail(user, 'accountsNotRead', { reason: accounts.reason });

    // Denied invites are normal for an account-scoped token (invite-pending then says unknown).
    const invites = snapshot.coverageOf('user', '', 'invites');
    const invitesUser = { type: 'user', id: 'invites', name: 'invites' };
    if (invites && unread(invites) && invites.state !== 'denied') ctx.fail(invitesUser, 'invitesNotRead', { reason: why(invites) });
    else if (invites?.state === 'ok') ctx.pass(invitesUser);

    // A scan scoped to zone names looks them up by name and lists no account's zones.
    if (scope.zones.length === 0) {
      const listedFromZones = () => snapshot.coverage().filter((r) => r.kind === 'account' && r.endpoint === 'zones').map((r) => r.scopeId);
      const accountIds = scope.accounts.length ? scope.accounts : accounts.known ? accounts.items.map((a) => a.id) : accountOwned ? listedFromZones() : [];
      for (const id of accountIds) {
        const resource = { type: 'account', id, name: snapshot.account(id)?.name ?? null };
        const listing = snapshot.coverageOf('account', id, 'zones');
        if (!listing) ctx.fail(resource, 'listingNotRead', { reason: 'it was not attempted' });
        else if (listing.state !== 'ok' || listing.truncated) ctx.fail(resource, 'listingNotRead', { reason: why(listing) });
        else ctx.pass(resource);
      }
    }

    // Coverage of zones outside the scan's scope (other accounts, earlier scopes) is ignored.
    const problems = new Map<string, CoverageRow[]>();
    for (const zone of snapshot.zones()) problems.set(zone.id, []);
    for (const row of snapshot.coverage(true)) {
      if (row.kind === 'zone' && unread(row)) problems.get(row.scopeId)?.push(row);
    }
    for (const zone of snapshot.zones()) {
      const resource = { type: 'zone', id: zone.id, name: zone.name };
      const rows = (problems.get(zone.id) ?? []).sort((a, b) => a.endpoint.localeCompare(b.endpoint));
      if (rows.length === 0) ctx.pass(resource);
      else ctx.fail(resource, 'zoneIncomplete', { count: rows.length, parts: rows.map(why), endpoints: rows.map((r) => r.endpoint) });
    }
  },
});
