/** A pending invitation of the user (`GET /user/invites`), parsed defensively. */

import { date, parseJson, str } from '../fields.js';

export interface Invite {
  id: string;
  status: string | null;
  organizationId: string | null;
  organizationName: string | null;
  invitedBy: string | null;
  expiresOn: Date | null;
}

export function parseInvite(id: string, raw: string): Invite {
  const i = parseJson(raw);
  return {
    id,
    status: str(i['status']),
    organizationId: str(i['organization_id']),
    organizationName: str(i['organization_name']),
    invitedBy: str(i['invited_by']),
    expiresOn: date(i['expires_on']),
  };
}
