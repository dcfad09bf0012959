import { bool, obj, objects, parseJson, str } from '../fields.js';

/**
 * An account member as the scan keeps it (keptMember): who, joined or not, what they may change, and two-factor
 * (vendor's API reference: List Members; `two_factor_authentication_enabled` does not apply to API authentication).
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

/** The permissions a role's `permissions` grants write on. */
const writeGrants = (permissions: unknown): string[] =>
  Object.entries(obj(permissions))
    .filter(([, grant]) => obj(grant)['write'] === true)
    .map(([key]) => key);

export function parseAccountMember(id: string, raw: string): AccountMember {
  const m = parseJson(raw);
  const user = obj(m['user']);
  return {
    id,
    status: str(m['status']),
    userId: str(user['id']),
    email: str(user['email']) ?? str(m['email']),
    twoFactor: bool(user['two_factor_authentication_enabled']),
    roles: objects(m['roles']).map((role) => ({ id: str(role['id']), name: str(role['name']), writes: writeGrants(role['permissions']) })),
    policies: objects(m['policies']).map((p) => ({
      access: str(p['access']),
      permissionGroups: objects(p['permission_groups']).flatMap((g) => str(g['name']) ?? []),
    })),
  };
}

/**
 * A member as stored: ids, status, e-mail, two-factor, write grants, policies' access and groups. The rest says
 * nothing of whether an account without two-factor can change things, and a member list is personal data.
 */
export function keptMember(i: Record<string, unknown>): Record<string, unknown> {
  const user = obj(i['user']);
  const writes = (permissions: unknown) => Object.fromEntries(writeGrants(permissions).map((key) => [key, { write: true }]));
  const named = (v: Record<string, unknown>) => ({ id: v['id'] ?? null, name: v['name'] ?? null });
  return {
    id: i['id'] ?? null,
    status: i['status'] ?? null,
    user: { id: user['id'] ?? null, email: user['email'] ?? i['email'] ?? null, two_factor_authentication_enabled: user['two_factor_authentication_enabled'] ?? null },
    roles: objects(i['roles']).map((r) => ({ ...named(r), permissions: writes(r['permissions']) })),
    policies: objects(i['policies']).map((p) => ({
      id: p['id'] ?? null,
      access: p['access'] ?? null,
      permission_groups: objects(p['permission_groups']).map(named),
    })),
  };
}
