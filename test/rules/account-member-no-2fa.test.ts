import { describe, expect, it } from 'vitest';
import rule from '../../rules/account-member-no-2fa.js';
import { type FixtureZone, type Item } from '../support/snapshot-fixture.js';
import { runRule, testRule } from '../support/rule-tester.js';

// vendor docs: List Members (GET /accounts/{account_id}/members): each member has `id`, `status`
// (accepted, pending, rejected), `user` {id, email, first_name, last_name,
// two_factor_authentication_enabled}, `roles` [{id, name, description, permissions {<part>: {read,
// write}}}] and `policies` [{id, access (allow, deny), permission_groups [{id, name}], resource_groups}].
// vendor docs: Roles: Super Administrator - All Privileges and Administrator have the whole account;
// Administrator Read Only reads it all.

const ACCOUNT = 'acc0000000000000000000000000000a';
const OTHER = 'acc0000000000000000000000000000b';
const accounts = [
  { id: ACCOUNT, name: 'Example Org', type: 'standard' },
  { id: OTHER, name: 'Other Org', type: 'standard' },
];
const zones: FixtureZone[] = [{ name: 'example.com' }, { name: 'other.example', account: OTHER }];

const FULL = { read: true, write: true };
const READ = { read: true, write: false };
const role = (name: string, permissions: Record<string, { read: boolean; write: boolean }>): Item => ({
  id: `role-${name.replace(/\W+/g, '-').toLowerCase()}`,
  name,
  description: `${name} role`,
  permissions,
});
const SUPER = role('Super Administrator - All Privileges', { organization: FULL, zones: FULL, billing: FULL });
const ADMIN = role('Administrator', { organization: READ, zones: FULL, dns_records: FULL });
const READ_ONLY = role('Administrator Read Only', { organization: READ, zones: READ, analytics: READ });
const DNS = role('DNS', { dns_records: FULL, zones: READ });

let seq = 0;
function member(email: string, twoFactor: boolean | undefined, roles: Item[], extra: Item = {}): Item {
  seq++;
  const user: Item = { id: `user${seq.toString(16).padStart(28, '0')}`, email, first_name: 'Pat', last_name: 'Example' };
  if (twoFactor !== undefined) user['two_factor_authentication_enabled'] = twoFactor;
  return { id: `mem${seq.toString(16).padStart(29, '0')}`, status: 'accepted', user, roles, policies: [], ...extra };
}

const idOf = (m: Item) => m['id'] as string;
const adminWith2fa = member('alice@example.com', true, [SUPER]);
const adminNo2fa = member('bob.ops@example.com', false, [ADMIN]);
const superNo2fa = member('carol@example.com', false, [SUPER]);
const readerNo2fa = member('dave@example.com', false, [READ_ONLY]);
const dnsEditorNo2fa = member('erin@example.com', false, [DNS]);
const readerWith2fa = member('frank@example.com', true, [READ_ONLY]);
const pendingNo2fa = member('grace@example.com', false, [ADMIN], { status: 'pending' });
const rejected = member('heidi@example.com', false, [ADMIN], { status: 'rejected' });
const flagAbsent = member('ivan@example.com', undefined, [ADMIN]);
const noStatus = member('judy@example.com', false, [ADMIN], { status: undefined });
const noRoles = member('mallory@example.com', false, []);
// The vendor's newer model: no roles, a policy allowing permission groups.
const policyAdmin = member('niaj@example.com', false, [], { policies: [{ id: 'pol1', access: 'allow', permission_groups: [{ id: 'pg1', name: 'Super Administrator - All Privileges' }], resource_groups: [] }] });
const policyReader = member('olivia@example.com', false, [], { policies: [{ id: 'pol2', access: 'allow', permission_groups: [{ id: 'pg2', name: 'Administrator Read Only' }], resource_groups: [] }] });
const deniedAdminGroup = member('peggy@example.com', false, [READ_ONLY], { policies: [{ id: 'pol3', access: 'deny', permission_groups: [{ id: 'pg1', name: 'Administrator' }], resource_groups: [] }] });

const snapshot = (members: Record<string, Item[] | 'denied' | 'failed'>) => ({ accounts, zones, members });

testRule(rule, {
  valid: [
    { name: 'every accepted member has two-factor authentication', snapshot: snapshot({ [ACCOUNT]: [adminWith2fa, readerWith2fa], [OTHER]: [adminWith2fa] }) },
    // Not applicable: an invitation is not a user of the account yet (judged once accepted), a rejected one never will be.
    { name: 'pending and rejected members are not judged', snapshot: snapshot({ [ACCOUNT]: [adminWith2fa, pendingNo2fa, rejected], [OTHER]: [] }) },
    { name: 'an account with no members but invitations passes on the account', snapshot: snapshot({ [ACCOUNT]: [pendingNo2fa], [OTHER]: [readerWith2fa] }) },
    { name: 'accounts with no zone in the scan are not judged', snapshot: { accounts, zones: [{ name: 'example.com' }], members: { [ACCOUNT]: [adminWith2fa] } } },
  ],
  invalid: [
    {
      name: 'an administrator without two-factor: high, named by masked e-mail',
      snapshot: snapshot({ [ACCOUNT]: [adminWith2fa, adminNo2fa], [OTHER]: [] }),
      findings: [
        {
          messageId: 'canChange',
          severity: 'high',
          resourceType: 'account_member',
          resourceId: idOf(adminNo2fa),
          resourceName: 'b***@example.com',
          message: 'b***@example.com (Administrator) can change account Example Org and signs in without two-factor authentication',
          data: { access: 'administrator', account: 'Example Org' },
        },
      ],
    },
    {
      name: 'a read-only member without two-factor: medium',
      snapshot: snapshot({ [ACCOUNT]: [readerNo2fa], [OTHER]: [] }),
      findings: [{ messageId: 'readOnly', severity: 'medium', resourceId: idOf(readerNo2fa), message: '(Administrator Read Only) can read account Example Org', data: { access: 'read' } }],
    },
    {
      name: 'a role granting write on part of the account (DNS) counts as one who can change it',
      snapshot: snapshot({ [ACCOUNT]: [dnsEditorNo2fa], [OTHER]: [] }),
      findings: [{ messageId: 'canChange', severity: 'high', data: { access: 'write' } }],
    },
    {
      name: 'a member whose roles the API did not name is not taken for read-only',
      snapshot: snapshot({ [ACCOUNT]: [noRoles], [OTHER]: [] }),
      findings: [{ messageId: 'canChange', severity: 'high', message: '(no role named by the API)', data: { access: 'unknown' } }],
    },
    {
      name: 'policies: an allowed administrator group is an administrator, a read-only group reads, a denied group grants nothing',
      snapshot: snapshot({ [ACCOUNT]: [policyAdmin, policyReader, deniedAdminGroup], [OTHER]: [] }),
      findings: [
        { messageId: 'canChange', severity: 'high', resourceId: idOf(policyAdmin), data: { access: 'administrator' } },
        { messageId: 'readOnly', severity: 'medium', resourceId: idOf(policyReader) },
        { messageId: 'readOnly', severity: 'medium', resourceId: idOf(deniedAdminGroup), message: '(Administrator Read Only)' },
      ],
    },
    {
      name: 'one finding per member without two-factor, in each account',
      snapshot: snapshot({ [ACCOUNT]: [superNo2fa, readerNo2fa, adminWith2fa], [OTHER]: [adminNo2fa] }),
      findings: [
        { resourceId: idOf(superNo2fa), severity: 'high', message: 'account Example Org' },
        { resourceId: idOf(readerNo2fa), severity: 'medium' },
        { resourceId: idOf(adminNo2fa), severity: 'high', message: 'account Other Org' },
      ],
    },
    {
      name: 'memberNames email names the member by the whole address',
      options: { memberNames: 'email' },
      snapshot: snapshot({ [ACCOUNT]: [adminNo2fa], [OTHER]: [] }),
      findings: [{ resourceName: 'bob.ops@example.com', message: 'bob.ops@example.com (Administrator)' }],
    },
    {
      name: 'memberNames id names the member by the membership id only',
      options: { memberNames: 'id' },
      snapshot: snapshot({ [ACCOUNT]: [adminNo2fa], [OTHER]: [] }),
      findings: [{ resourceName: `member ${idOf(adminNo2fa)}`, message: `member ${idOf(adminNo2fa)} (Administrator)` }],
    },
    {
      name: 'unknown when the two-factor flag is absent, or the membership has no status',
      snapshot: snapshot({ [ACCOUNT]: [flagAbsent, noStatus], [OTHER]: [] }),
      findings: [
        { status: 'unknown', resourceId: idOf(flagAbsent), message: 'the API did not say whether the member has two-factor authentication' },
        { status: 'unknown', resourceId: idOf(noStatus), message: 'no status' },
      ],
    },
    {
      name: 'unknown for an account whose members the token may not read (Account Settings Read), the other judged',
      snapshot: snapshot({ [ACCOUNT]: 'denied', [OTHER]: [adminNo2fa] }),
      findings: [
        { status: 'unknown', resourceType: 'account', resourceId: ACCOUNT, resourceName: 'Example Org', message: 'members were not read (account_members: account_members could not be read (denied))' },
        { resourceId: idOf(adminNo2fa) },
      ],
    },
    {
      name: 'unknown for an account whose members were not read at all, or failed',
      snapshot: { accounts, zones, members: { [OTHER]: 'failed' } },
      findings: [
        { status: 'unknown', resourceId: ACCOUNT, message: 'account_members was not read' },
        { status: 'unknown', resourceId: OTHER, message: 'failed' },
      ],
    },
    { name: 'the configured severity wins', severity: 'low', snapshot: snapshot({ [ACCOUNT]: [adminNo2fa, readerNo2fa], [OTHER]: [] }), findings: [{ severity: 'low' }, { severity: 'low' }] },
  ],
});

describe('rule account-member-no-2fa names members without giving their e-mail away', () => {
  const all = [adminWith2fa, adminNo2fa, readerNo2fa, flagAbsent, pendingNo2fa, policyAdmin];
  const emails = all.map((m) => (m['user'] as Item)['email'] as string);

  it('by default, no finding (nor pass) carries a whole e-mail address anywhere', () => {
    const findings = runRule(rule, { name: 'masked', snapshot: snapshot({ [ACCOUNT]: all, [OTHER]: [] }) }).findings;
    expect(findings.length).toBeGreaterThan(4);
    const text = JSON.stringify(findings);
    for (const email of emails) expect(text).not.toContain(email);
  });

  it('passes each accepted member with two-factor, on the member', () => {
    const passes = runRule(rule, { name: 'passes', snapshot: snapshot({ [ACCOUNT]: [adminWith2fa, adminNo2fa], [OTHER]: [] }) }).findings.filter((f) => f.status === 'pass');
    // Other Org lists no member to judge: it passes on the account itself.
    expect(passes.map((f) => [f.resource.type, f.resource.id, f.resource.name])).toEqual([
      ['account', OTHER, 'Other Org'],
      ['account_member', idOf(adminWith2fa), 'a***@example.com'],
    ]);
  });

  it('refuses a memberNames value it does not know, naming the choices', () => {
    expect(() => runRule(rule, { name: 'bad', options: { memberNames: 'full' }, snapshot: snapshot({ [ACCOUNT]: [adminNo2fa] }) })).toThrow('"full" is not one of masked, email, id');
  });
});
