import type { ApiClient } from '../api/client.js';
import { LIST_ENDPOINTS } from '../api/endpoints.js';
import { str } from '../cloudflare/fields.js';
import { listAll } from './lists.js';
import type { ActionLog } from './log.js';

/** Invitations to other organisations: listed from /user/invites, answered by PATCH. */

export interface PendingInvite {
  id: string;
  organizationId: string | null;
  organizationName: string | null;
  invitedBy: string | null;
  expiresOn: string | null;
}

interface InviteItem {
  id?: unknown;
  status?: unknown;
  organization_id?: unknown;
  organization_name?: unknown;
  invited_by?: unknown;
  expires_on?: unknown;
}

/** Pending invites that have not expired: the only ones that can still be accepted. */
export async function pendingInvites(client: ApiClient, now = new Date()): Promise<PendingInvite[]> {
  const answer = await client.get<InviteItem[]>('/user/invites');
  const items = Array.isArray(answer.result) ? answer.result : [];
  return items
    .filter((i) => i.status === 'pending' && typeof i.id === 'string')
    .filter((i) => typeof i.expires_on !== 'string' || Date.parse(i.expires_on) > now.getTime())
    .map((i) => ({
      id: i.id as string,
      organizationId: str(i.organization_id),
      organizationName: str(i.organization_name),
      invitedBy: str(i.invited_by),
      expiresOn: str(i.expires_on),
    }));
}

export interface AcceptOutcome {
  invite: PendingInvite;
  ok: boolean;
  error?: string;
}

/** Accepts each invite in turn; one refusal does not stop the others. Every answer is logged. */
export async function acceptInvites(client: ApiClient, log: ActionLog, invites: readonly PendingInvite[], command: string): Promise<AcceptOutcome[]> {
  const outcomes: AcceptOutcome[] = [];
  for (const invite of invites) {
    const entry = { command, action: 'invite.accept', target: { type: 'invite', id: invite.id, name: invite.organizationName } };
    try {
      await client.request('PATCH', `/user/invites/${encodeURIComponent(invite.id)}`, { body: { status: 'accepted' } });
      log.record({ ...entry, outcome: 'ok', detail: { organizationId: invite.organizationId } });
      outcomes.push({ invite, ok: true });
    } catch (err) {
      log.recordFailure({ ...entry, detail: { organizationId: invite.organizationId } }, err);
      outcomes.push({ invite, ok: false, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return outcomes;
}

/** The zones of the organisations just joined, so they can be scanned at once. */
export async function zonesOfAccounts(client: ApiClient, accountIds: readonly string[]): Promise<string[]> {
  const names: string[] = [];
  for (const id of accountIds) {
    for (const z of await listAll<{ name?: unknown }>(client, LIST_ENDPOINTS.zones, {}, { 'account.id': id })) if (typeof z.name === 'string') names.push(z.name);
  }
  return names;
}
