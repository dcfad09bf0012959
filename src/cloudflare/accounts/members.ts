import { obj, type Item } from '../item.js';

/**
 * A member as stored: its id and status; its user's id, e-mail and two-factor flag (no names); its
 * roles' ids and names with only the permissions they grant write on; its policies' access and
 * permission groups (ids and names). The rest (role descriptions, every read grant, resource
 * groups) says nothing of whether an account without two-factor can change things, and a member
 * list holds personal data: stored is what a verdict needs.
 */
export function keptMember(i: Item): Item {
  const user = obj(i['user']);
  const list = (v: unknown) => (Array.isArray(v) ? v.map(obj) : []);
  const writes = (permissions: unknown) =>
    Object.fromEntries(Object.entries(obj(permissions)).filter(([, grant]) => obj(grant)['write'] === true).map(([key]) => [key, { write: true }]));
  const named = (v: Item) => ({ id: v['id'] ?? null, name: v['name'] ?? null });
  return {
    id: i['id'] ?? null,
    status: i['status'] ?? null,
    user: { id: user['id'] ?? null, email: user['email'] ?? i['email'] ?? null, two_factor_authentication_enabled: user['two_factor_authentication_enabled'] ?? null },
    roles: list(i['roles']).map((r) => ({ ...named(r), permissions: writes(r['permissions']) })),
    policies: list(i['policies']).map((p) => ({ id: p['id'] ?? null, access: p['access'] ?? null, permission_groups: list(p['permission_groups']).map(named) })),
  };
}
