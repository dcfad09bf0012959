import { arr, bool, obj, parseJson, str } from '../fields.js';

/**
 * A member of an account as the scan keeps it (src/snapshot/tables.ts, keptMember): what says who
 * the member is, whether they joined, what they may change, and whether their login has two-factor
 * authentication (vendor's API reference: List Members; `two_factor_authentication_enabled` does
 * not apply to API authentication).
 */
export interface AccountMember {
  id: string;
  /** `accepted`, `pending` (invited, not joined yet) or `rejected`; null when the API gave none. */
  status: string | null;
  userId: string | null;
  /** Personal data: never logged, and shown in findings only as the rule's `memberNames` says. */
  email: string | null;
  /** Null when the API did not say. */
  twoFactor: boolean | null;
  roles: Array<{ id: string | null; name: string | null; writes: string[] }>;
  /** The member's policies (the vendor's newer model), allowing or denying permission groups. */
  policies: Array<{ access: string | null; permissionGroups: string[] }>;
}

export function parseAccountMember(id: string, raw: string): AccountMember {
  const m = parseJson(raw);
  const user = obj(m['user']);
  return {
    id,
    status: str(m['status']),
    userId: str(user['id']),
    email: str(user['email']) ?? str(m['email']),
    twoFactor: bool(user['two_factor_authentication_enabled']),
    roles: arr(m['roles']).map((r) => {
      const role = obj(r);
      const writes = Object.entries(obj(role['permissions'])).filter(([, grant]) => obj(grant)['write'] === true).map(([key]) => key);
      return { id: str(role['id']), name: str(role['name']), writes };
    }),
    policies: arr(m['policies']).map((p) => {
      const policy = obj(p);
      return { access: str(policy['access']), permissionGroups: arr(policy['permission_groups']).flatMap((g) => str(obj(g)['name']) ?? []) };
    }),
  };
}
