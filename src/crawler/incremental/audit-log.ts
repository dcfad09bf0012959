import { PARTITIONS } from '../../cloudflare/reads.js';
import type { ApiClient } from '../../api/client.js';
import { readCursorList } from '../../api/cursor-list.js';
import { ApiAuthError, ApiError } from '../../api/errors.js';
import { credentialOf } from '../first-calls.js';

/**
 * The zones an account's audit log (version 2) names since the last scan. It records every write by
 * people, tokens and the vendor's systems (vendor docs: audit logs): a zone it does not name kept
 * what was stored, but for what changes unlogged, which the reads declared by date cover.
 */
export type AccountChanges =
  | { kind: 'zones'; zones: Set<string>; entries: number; pages: number }
  /** Every zone of the account is read: the log could not be read, or named a change it could not place. */
  | { kind: 'all'; why: string; denied?: boolean; error?: ApiError };

const TRUNCATED = {
  'repeated-cursor': 'the API served one cursor twice',
  'page-cap': 'more pages than the reader takes',
  'no-cursor': 'a full page came without the cursor of the next',
  'empty-pages': 'empty pages kept naming a next one',
} as const;

const PAGE = PARTITIONS.audit_log.paging.perPage;

export async function accountChanges(client: ApiClient, accountId: string, since: Date, before: Date, signal: AbortSignal): Promise<AccountChanges> {
  const path = `/accounts/${encodeURIComponent(accountId)}/logs/audit`;
  let read;
  try {
    read = await readCursorList<Record<string, unknown>>(client, path, {
      pageSize: { param: 'limit', value: PAGE },
      query: { since: since.toISOString(), before: before.toISOString() },
      signal,
      // A log cut short would hide changes: a full page must say where the next one starts.
      fullPageNeedsCursor: true,
    });
  } catch (err) {
    if (!(err instanceof ApiError) || err.code === 'ZW_API_ABORTED') throw err;
    // A 403 or 401: a permission the credentials lack; any other answer: the log says nothing tonight.
    const denied = err instanceof ApiAuthError;
    const why = denied
      ? `${credentialOf(client)} may not read the account audit log (it needs the "Account Settings Read" or audit logs read permission)`
      : `the account audit log could not be read (${err.message})`;
    return { kind: 'all', why, denied, error: err };
  }
  if (read.truncated) return { kind: 'all', why: `the account audit log could not be read whole (${TRUNCATED[read.truncatedReason ?? 'page-cap']})` };
  const zones = new Set<string>();
  for (const entry of read.items) {
    const zone = entry?.['zone'];
    const id = zone && typeof zone === 'object' ? (zone as Record<string, unknown>)['id'] : undefined;
    if (typeof id === 'string' && id !== '') {
      zones.add(id);
      continue;
    }
    // A change to a zone's resources that names no zone cannot be placed: every zone is read.
    const resource = entry?.['resource'];
    const scope = resource && typeof resource === 'object' ? (resource as Record<string, unknown>)['scope'] : undefined;
    if (scope === 'zones') return { kind: 'all', why: 'the account audit log records a change to a zone it does not name' };
  }
  return { kind: 'zones', zones, entries: read.items.length, pages: read.pages };
}
