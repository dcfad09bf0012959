import { defineRule, type ResourceRef, type Severity } from '../src/policy/rule.js';
import type { AccountMember } from '../src/cloudflare/accounts/member.js';
import { shorten } from '../src/common/printable.js';

/** How a finding names a member: the e-mail, the e-mail masked, or the membership id only. */
const MEMBER_NAMES = ['masked', 'email', 'id'] as const;
type MemberNames = (typeof MEMBER_NAMES)[number];

/** The roles that give the whole account (vendor docs: Roles; the first also manages members and billing). */
const ADMINISTRATOR_ROLES = new Set(['super administrator - all privileges', 'administrator']);

/** Permission group names that grant reading only (`Administrator Read Only`, `Audit Logs Viewer`, `Log Share Reader`...). */
const READ_ONLY_NAME = /read[ -]?only|viewer|reader|\bread\b/i;

/** What the member may do in the account; `unknown` (the API named no role) is judged as one who can change things. */
function memberAccess(m: AccountMember): 'administrator' | 'write' | 'read' | 'unknown' {
  const allowed = m.policies.filter((p) => p.access !== 'deny').flatMap((p) => p.permissionGroups);
  const names = [...m.roles.map((r) => r.name ?? ''), ...allowed].map((n) => n.trim().toLowerCase());
  if (names.some((n) => ADMINISTRATOR_ROLES.has(n))) return 'administrator';
  if (m.roles.some((r) => r.writes.length > 0) || allowed.some((g) => !READ_ONLY_NAME.test(g))) return 'write';
  if (m.roles.length === 0 && allowed.length === 0) return 'unknown';
  return 'read';
}

/** A member's e-mail with its local part hidden but its first character, the domain kept: `j***@example.com`. */
function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${[...email.slice(0, at)][0]}***${email.slice(at)}`;
}

function memberName(m: AccountMember, shown: MemberNames): string {
  if (shown === 'id' || m.email === null) return `member ${m.id}`;
  return shown === 'email' ? m.email : maskedEmail(m.email);
}

function rolesText(m: AccountMember): string {
  const names = [...m.roles.flatMap((r) => r.name ?? []), ...m.policies.filter((p) => p.access !== 'deny').flatMap((p) => p.permissionGroups)];
  return names.length === 0 ? 'no role named by the API' : shorten([...new Set(names)].join(', '), 160);
}

export default defineRule({
  meta: {
    id: 'account-member-no-2fa',
    title: 'Every member of an account signs in with two-factor authentication',
    description:
      "A member who signs in to the dashboard with a password alone is one phished or reused password away from someone else changing the account's zones: their DNS, certificates, firewall and WAF. An administrator without two-factor authentication can also add members and create API tokens.",
    severity: 'high',
    category: 'account',
    scope: 'organisation',
    resource: 'account_member',
    messages: {
      canChange: '{{member}} ({{roles}}) can change account {{account}} and signs in without two-factor authentication',
      readOnly: '{{member}} ({{roles}}) can read account {{account}} and signs in without two-factor authentication',
    },
    remediation:
      "Ask the member to turn on two-factor authentication (My Profile > Authentication), or remove them from the account. Better: require it of every member (the account's Members page, Enforce two-factor authentication). Two-factor authentication does not cover API tokens: audit those separately.",
    references: [
      'vendor docs: List Members (GET /accounts/{account_id}/members: status, roles, policies, user.two_factor_authentication_enabled)',
      'vendor docs: Enforce two-factor authentication; Roles',
      "vendor docs: Security Insights (users without two-factor authentication)",
    ],
    optionHelp: {
      memberNames:
        'how a finding names the member: "masked" (default: the first character of the e-mail and its domain, enough for the account\'s administrators to recognise them, since reports are shared outside the security team), "email" (the whole address), or "id" (the membership id only)',
    },
    optionChoices: { memberNames: MEMBER_NAMES },
    reads: ['account_members'],
  },
  defaultOptions: { memberNames: 'masked' as string },
  check(ctx) {
    const shown = (MEMBER_NAMES as readonly string[]).includes(ctx.options.memberNames) ? (ctx.options.memberNames as MemberNames) : 'masked';
    // The accounts of the scan's zones: members are read once per account a zone of the scan belongs to.
    const accountIds = [...new Set(ctx.snapshot.zones().flatMap((z) => z.accountId ?? []))].sort();
    for (const accountId of accountIds) {
      const accountName = ctx.snapshot.account(accountId)?.name ?? null;
      const account: ResourceRef = { type: 'account', id: accountId, name: accountName };
      const members = ctx.snapshot.accountMembers(accountId);
      if (!members.known) {
        ctx.unknown(account, `the account's members were not read (${members.reason})`);
        continue;
      }
      let judged = 0;
      for (const m of members.items) {
        const resource: ResourceRef = { type: 'account_member', id: m.id, name: memberName(m, shown) };
        // Pending (invited, not joined) and rejected members cannot sign in to the account: judged once they accept.
        if (m.status !== null && m.status !== 'accepted') continue;
        judged++;
        if (m.status === null) ctx.unknown(resource, 'the API gave no status for the membership');
        else if (m.twoFactor === null) ctx.unknown(resource, 'the API did not say whether the member has two-factor authentication');
        else if (m.twoFactor) ctx.pass(resource);
        else {
          const access = memberAccess(m);
          const severity: Severity | undefined = access === 'read' ? 'medium' : undefined;
          ctx.fail(resource, access === 'read' ? 'readOnly' : 'canChange', { member: resource.name, roles: rolesText(m), account: accountName ?? accountId, access }, severity);
        }
      }
      // No member to judge (only invitations): the account itself has no one signing in without it.
      if (judged === 0) ctx.pass(account);
    }
  },
});
