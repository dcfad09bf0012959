import { closestMatches } from '../common/did-you-mean.js';
import { UsageError } from '../common/errors.js';
import { printable } from '../common/printable.js';
import { globToRegExp, isGlob } from '../common/glob.js';
import type { RowReader, ZoneRow } from './row-reader.js';
import { canonicalZoneName, describeScope, isFullScope, sameScope, type ScanScope } from './scope.js';

/**
 * A view of some zones or accounts of a stored scan (issue 32): --zone (names, ids or globs) and
 * --account (ids, names or globs) on audit, report and diff; both: the zones within those accounts.
 * Each must match in the scan, or the command stops and names the closest names it has.
 */

export interface ScanFilter {
  /** Zone ids in the view. */
  zoneIds: ReadonlySet<string>;
  /** Accounts whose own verdicts (on the account, not a zone) are in the view: with --account and no --zone. */
  accountIds: ReadonlySet<string>;
  /** The filter as the user gave it, for messages: "zone example.com". */
  description: string;
  /** The view's zones, by name. */
  zones: ZoneRow[];
}

/** What a filter looks at in a scan: its scope, zones and accounts (a SnapshotReader, or a RowReader when choosing a scan). */
export type ScanContents = Pick<RowReader, 'scan' | 'zones' | 'accounts'>;

interface Named {
  id: string;
  name: string | null;
}

/** Whether `pattern` names this zone: its name (any case, with or without the final dot), its id, or a glob of either. */
function matchesZone(pattern: string, zone: Named): boolean {
  if (isGlob(pattern)) {
    const glob = globToRegExp(canonicalZoneName(pattern));
    return glob.test(zone.id) || (zone.name !== null && glob.test(canonicalZoneName(zone.name)));
  }
  return pattern === zone.id || (zone.name !== null && canonicalZoneName(pattern) === canonicalZoneName(zone.name));
}

/** Whether `pattern` names this account: its id, its name (any case) or a glob of either. */
function matchesAccount(pattern: string, account: Named): boolean {
  if (isGlob(pattern)) {
    const glob = globToRegExp(pattern);
    return glob.test(account.id) || (account.name !== null && glob.test(account.name));
  }
  return pattern === account.id || (account.name !== null && pattern.toLowerCase() === account.name.toLowerCase());
}

/** The accounts a scan knows: its account list where read, and every zone's account. */
function accountsOf(readers: readonly ScanContents[], zones: readonly ZoneRow[]): Named[] {
  const byId = new Map<string, Named>();
  for (const reader of readers) {
    const accounts = reader.accounts();
    if (accounts.known) for (const a of accounts.items) byId.set(a.id, { id: a.id, name: a.name });
  }
  for (const z of zones) if (z.accountId !== null && !byId.has(z.accountId)) byId.set(z.accountId, { id: z.accountId, name: null });
  return [...byId.values()];
}

/** `no zone matching "exampel.com" in scan 6; did you mean example.com?` */
function noMatch(kind: 'zone' | 'account', pattern: string, where: string, names: Iterable<string>, scope: string): UsageError {
  const near = closestMatches(pattern, names);
  const hint = near.length
    ? `; did you mean ${near.map((n) => printable(n)).join(' or ')}?`
    : `; it covers ${scope} (zonewarden scans lists the scans and their scopes)`;
  return new UsageError(`no ${kind} matching ${JSON.stringify(printable(pattern))} in ${where}${hint}`);
}

/**
 * The view `filter` asks for in the scans read by `readers` (one scan; for diff, both of its
 * scans); null when the filter is empty (the whole scan). Throws a usage error naming the closest
 * names when a --zone or --account name matches nothing.
 */
export function resolveFilter(readers: readonly ScanContents[], filter: ScanScope): ScanFilter | null {
  // Scans of just that scope (the config file's, read night after night) are already the view.
  if (isFullScope(filter) || readers.every((r) => sameScope(r.scan.scope, filter))) return null;
  const where = readers.length === 1 ? `scan ${readers[0]!.scan.id}` : `scans ${readers.map((r) => r.scan.id).join(' and ')}`;
  const scope = readers.map((r) => describeScope(r.scan.scope)).join(' and ');
  const byId = new Map<string, ZoneRow>();
  for (const reader of readers) for (const z of reader.zones()) if (!byId.has(z.id)) byId.set(z.id, z);
  const all = [...byId.values()];
  let zones = all;
  if (filter.zones.length) {
    for (const pattern of filter.zones) {
      if (!all.some((z) => matchesZone(pattern, z))) throw noMatch('zone', pattern, where, all.map((z) => z.name), scope);
    }
    zones = all.filter((z) => filter.zones.some((p) => matchesZone(p, z)));
  }
  const accountIds = new Set<string>();
  if (filter.accounts.length) {
    const accounts = accountsOf(readers, all);
    for (const pattern of filter.accounts) {
      const matched = accounts.filter((a) => matchesAccount(pattern, a));
      if (!matched.length) throw noMatch('account', pattern, where, accounts.flatMap((a) => (a.name === null ? [a.id] : [a.name, a.id])), scope);
      for (const a of matched) accountIds.add(a.id);
    }
    zones = zones.filter((z) => z.accountId !== null && accountIds.has(z.accountId));
    if (filter.zones.length && zones.length === 0) {
      throw new UsageError(`no zone matching ${filter.zones.map((z) => JSON.stringify(printable(z))).join(', ')} in account ${filter.accounts.map((a) => JSON.stringify(printable(a))).join(', ')} in ${where}`);
    }
  }
  return {
    zoneIds: new Set(zones.map((z) => z.id)),
    // A zone filter means zones: the accounts' own verdicts only with --account alone.
    accountIds: filter.zones.length ? new Set() : accountIds,
    description: describeScope(filter),
    zones: zones.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}

/** Whether a finding on this zone and account is in the view. */
export function inFilter(filter: ScanFilter | null, zoneId: string | null, accountId: string | null): boolean {
  if (filter === null) return true;
  if (zoneId !== null) return filter.zoneIds.has(zoneId);
  return accountId !== null && filter.accountIds.has(accountId);
}

/** The same test as SQL on findings rows (zone_id, account_id; of the table `alias` names, if given), with its parameters. */
export function filterCondition(filter: ScanFilter, alias = ''): { sql: string; params: unknown[] } {
  const [zone, account] = alias ? [`${alias}.zone_id`, `${alias}.account_id`] : ['zone_id', 'account_id'];
  return {
    sql: `(${zone} IN (SELECT value FROM json_each(?)) OR (${zone} IS NULL AND ${account} IN (SELECT value FROM json_each(?))))`,
    params: [JSON.stringify([...filter.zoneIds]), JSON.stringify([...filter.accountIds])],
  };
}

/**
 * Whether a scan of `scope` holds all of what `filter` asks for: a scan of the whole organisation
 * holds everything; a scan of some accounts, the zones it read and those accounts; a scan of some
 * zones, those zones when named (not globbed: a glob may name zones it did not read).
 */
export function covers(reader: ScanContents, filter: ScanScope): boolean {
  const scope = reader.scan.scope;
  if (isFullScope(scope)) return true;
  if (isFullScope(filter)) return false;
  const zones = reader.zones();
  const zoneNamed = (pattern: string) => !isGlob(pattern) && zones.some((z) => matchesZone(pattern, z));
  if (filter.zones.length) {
    // The named zones, each read by this scan (an account filter beside them only narrows them).
    return filter.zones.every(zoneNamed);
  }
  if (scope.zones.length) return false;
  // A scan of accounts holds the accounts it was limited to, whole: named by id, or by a name it read.
  const scanned = accountsOf([reader], zones).filter((a) => scope.accounts.includes(a.id));
  return filter.accounts.every((pattern) => !isGlob(pattern) && (scope.accounts.includes(pattern) || scanned.some((a) => matchesAccount(pattern, a))));
}
