import { seededRandom } from './http/faults.js';
import { stableId } from './ids.js';

/**
 * Account members (vendor's API reference: List Members), with the vendor's legacy account roles
 * (vendor docs: Roles); the parts each role may read and write are the emulator's model.
 */

export interface MemberRole {
  id: string;
  name: string;
  description: string;
  permissions: Record<string, { read: boolean; write: boolean }>;
}

export interface Member {
  id: string;
  status: 'accepted' | 'pending' | 'rejected';
  user: { id: string; email: string; first_name: string | null; last_name: string | null; two_factor_authentication_enabled?: boolean };
  roles: MemberRole[];
}

const PARTS = ['analytics', 'billing', 'cache_purge', 'dns', 'dns_records', 'lb', 'logs', 'organization', 'ssl', 'waf', 'zone_settings', 'zones'] as const;

function role(name: string, description: string, writes: readonly string[] | 'all', reads: readonly string[] | 'all' = 'all'): MemberRole {
  const permissions: MemberRole['permissions'] = {};
  for (const part of PARTS) {
    const write = writes === 'all' || writes.includes(part);
    permissions[part] = { read: write || reads === 'all' || reads.includes(part), write };
  }
  return { id: stableId('role', name), name, description, permissions };
}

/** The vendor's account roles the datasets may name (a member's `roles`), by name. */
export const MEMBER_ROLES: ReadonlyMap<string, MemberRole> = new Map(
  [
    role('Super Administrator - All Privileges', 'Can edit any Cloudflare setting, make purchases, update billing, and manage memberships.', 'all'),
    role('Administrator', 'Can access the full account, except for membership management and billing.', PARTS.filter((p) => p !== 'billing' && p !== 'organization')),
    role('Administrator Read Only', 'Can access the full account in read-only mode.', []),
    role('Analytics', 'Can read Analytics.', [], ['analytics', 'zones']),
    role('Billing', 'Can edit the account’s billing profile and subscriptions.', ['billing'], ['billing', 'zones']),
    role('DNS', 'Can edit DNS records.', ['dns', 'dns_records'], ['dns', 'dns_records', 'zones']),
    role('Firewall', 'Can edit WAF, IP Firewall, and Zone Lockdown settings.', ['waf'], ['waf', 'zones', 'zone_settings']),
    role('SSL/TLS, Caching, Performance, Page Rules, and Customization', 'Can edit most Cloudflare settings except for DNS and Firewall.', ['ssl', 'cache_purge', 'zone_settings'], ['ssl', 'cache_purge', 'zone_settings', 'zones']),
  ].map((r) => [r.name, r]),
);

export const MEMBER_STATUSES = ['accepted', 'pending', 'rejected'] as const;

/** A membership of the account for an e-mail, its ids derived from the account and the address. */
export function memberOf(accountId: string, email: string, roles: readonly MemberRole[], twoFactor: boolean | null, status: Member['status'] = 'accepted', names: { first: string | null; last: string | null } = { first: null, last: null }): Member {
  const user: Member['user'] = { id: stableId('user', email), email, first_name: names.first, last_name: names.last };
  // null: the API leaves the flag out (it is optional in the reference), which a client must not read as false.
  if (twoFactor !== null) user.two_factor_authentication_enabled = twoFactor;
  return { id: stableId('member', accountId, email), status, user, roles: [...roles] };
}

/** The user alone, Super Administrator with two-factor on (as GET /user says). */
export function defaultMembers(accountId: string, userEmail: string): Member[] {
  return [memberOf(accountId, userEmail, [MEMBER_ROLES.get('Super Administrator - All Privileges')!], true)];
}

const FIRST = ['Ana', 'Ben', 'Chen', 'Dara', 'Eli', 'Fatima', 'Goran', 'Hana', 'Ivo', 'Jun', 'Kemal', 'Lea'];
const LAST = ['Nowak', 'Okafor', 'Park', 'Quinn', 'Rossi', 'Silva', 'Tanaka', 'Ulrich', 'Varga', 'Weber'];
const GENERATED_ROLES = ['Administrator', 'Administrator', 'Administrator Read Only', 'DNS', 'Firewall', 'Analytics', 'Billing'];

/** A generated account's members: the user and 2 to 9 others; a random sequence of its own, so a seed's zones stay as they were. */
export function generatedMembers(seed: number, accountId: string, index: number, userEmail: string): Member[] {
  const random = seededRandom((seed * 7919 + index * 104_729 + 17) >>> 0);
  const others = 2 + Math.floor(random() * 8);
  const members = defaultMembers(accountId, userEmail);
  for (let i = 0; i < others; i++) {
    const first = FIRST[Math.floor(random() * FIRST.length)]!;
    const last = LAST[Math.floor(random() * LAST.length)]!;
    const roleName = GENERATED_ROLES[Math.floor(random() * GENERATED_ROLES.length)]!;
    const twoFactor = random() >= 0.2;
    const status = random() < 1 / 12 ? 'pending' : 'accepted';
    const email = `${first}.${last}${i}@account${index + 1}.example`.toLowerCase();
    members.push(memberOf(accountId, email, [MEMBER_ROLES.get(roleName)!], twoFactor, status, { first, last }));
  }
  return members;
}

/** A member as the List Members answer carries it (policies: none; the emulator models roles). */
export function serializeMember(m: Member): Record<string, unknown> {
  return { id: m.id, email: m.user.email, status: m.status, user: { ...m.user }, roles: m.roles.map((r) => ({ ...r, permissions: { ...r.permissions } })), policies: [] };
}
