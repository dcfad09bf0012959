/**
 * What a scan covers: the whole organisation the credentials see, or the accounts and zones it was
 * limited to, so a one-zone rescan is never taken for the whole. Kept canonical (zone names
 * lower-case without a final dot, lists sorted and unique): two spellings compare equal.
 */

export interface ScanScope {
  accounts: string[];
  zones: string[];
}

export const FULL_SCOPE: Readonly<ScanScope> = Object.freeze({ accounts: [], zones: [] });

/** A zone name as DNS compares it: case-insensitive, with or without the root's final dot. */
export function canonicalZoneName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

export function normalizeScope(scope: { accounts?: readonly string[]; zones?: readonly string[] } | null | undefined): ScanScope {
  const unique = (values: string[]) => [...new Set(values.filter((v) => v !== ''))].sort();
  return {
    accounts: unique((scope?.accounts ?? []).map((a) => a.trim())),
    zones: unique((scope?.zones ?? []).map(canonicalZoneName)),
  };
}

/** The stored form (the scans.scope column), read back tolerantly: older scans stored it unsorted. */
export function parseScope(text: string | null): ScanScope {
  try {
    const parsed = JSON.parse(text ?? '{}') as Partial<ScanScope> | null;
    return normalizeScope(parsed);
  } catch {
    return normalizeScope(null);
  }
}

export function scopeKey(scope: ScanScope): string {
  const s = normalizeScope(scope);
  return JSON.stringify({ accounts: s.accounts, zones: s.zones });
}

export function sameScope(a: ScanScope, b: ScanScope): boolean {
  return scopeKey(a) === scopeKey(b);
}

export function isFullScope(scope: ScanScope): boolean {
  return scope.accounts.length === 0 && scope.zones.length === 0;
}

/** One line for people: "the whole organisation", or the filter. */
export function describeScope(scope: ScanScope): string {
  if (isFullScope(scope)) return 'the whole organisation';
  const parts: string[] = [];
  if (scope.accounts.length) parts.push(`account${scope.accounts.length === 1 ? '' : 's'} ${scope.accounts.join(', ')}`);
  if (scope.zones.length) parts.push(`zone${scope.zones.length === 1 ? '' : 's'} ${scope.zones.join(', ')}`);
  return parts.join('; ');
}

/** What a report says at its top: which accounts and zones the scan covered, and whether it read them all. */
export function scopeStatement(scope: ScanScope, zonesRead: number, unreadParts: number): string {
  const what = isFullScope(scope) ? 'the whole organisation (every account and zone the credentials see)' : `only ${describeScope(scope)}`;
  const read = `${zonesRead} zone${zonesRead === 1 ? '' : 's'} read`;
  const missing = unreadParts ? `${unreadParts} part${unreadParts === 1 ? '' : 's'} could not be read (see scan health)` : 'everything in scope was read';
  return `Scope: ${what}; ${read}; ${missing}.`;
}

/** The same scope as command-line flags, for messages that tell the user how to ask for it. */
export function scopeFlags(scope: ScanScope): string {
  const flags: string[] = [];
  if (scope.accounts.length) flags.push(`--account ${scope.accounts.join(',')}`);
  if (scope.zones.length) flags.push(`--zone ${scope.zones.join(',')}`);
  return flags.join(' ');
}
