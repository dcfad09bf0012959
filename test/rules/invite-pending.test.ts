import { describe, expect, it } from 'vitest';
import rule from '../../rules/invite-pending.js';
import { days, type Item } from '../support/snapshot-fixture.js';
import { runRule, testRule } from '../support/rule-tester.js';

let seq = 0;
function invite(status: string, expiresInDays: number | null, extra: Item = {}): Item {
  seq++;
  return {
    id: `inv${seq.toString(16).padStart(29, '0')}`,
    organization_id: `org${seq.toString(16).padStart(29, '0')}`,
    organization_name: `Org ${seq}`,
    invited_by: 'it@globex.example',
    invited_member_email: 'auditor@example.com',
    invited_on: days(-2),
    expires_on: expiresInDays === null ? null : days(expiresInDays),
    roles: [{ name: 'Administrator Read Only' }],
    status,
    ...extra,
  };
}

const globex = invite('pending', 5, { organization_name: 'Globex Partners <img src=x onerror=alert(1)>' });
const closed = [invite('accepted', -43), invite('rejected', -393), invite('expired', -53)];
const stale = invite('pending', -1);
const expiringNow = invite('pending', 0);
const lastMinute = invite('pending', 1 / 1440);
const longSender = invite('pending', 5, { invited_by: 'Å'.repeat(300) });
const noExpiry = invite('pending', null);
const unnamed = invite('pending', 3, { organization_name: null, invited_by: null });

testRule(rule, {
  valid: [
    { name: 'no invites at all', snapshot: { invites: [] } },
    { name: 'accepted, rejected and expired invites', snapshot: { invites: closed } },
    { name: 'a pending invite past its expiry can no longer be accepted', snapshot: { invites: [stale] } },
    { name: 'a pending invite expiring exactly now is past', snapshot: { invites: [expiringNow] } },
  ],
  invalid: [
    {
      name: 'a pending invite, among closed ones',
      snapshot: { invites: [globex, ...closed] },
      findings: [
        {
          messageId: 'pending',
          severity: 'low',
          resourceType: 'invite',
          resourceId: globex['id'] as string,
          resourceName: 'Globex Partners <img src=x onerror=alert(1)>',
          message: [
            `a pending invite to Globex Partners <img src=x onerror=alert(1)> from it@globex.example (expires ${days(5)})`,
            "cannot see that account's zones until it is accepted",
            '`zonewarden invites accept`',
          ],
        },
      ],
    },
    { name: 'one minute before expiry it is still open', snapshot: { invites: [lastMinute] }, findings: [{ messageId: 'pending', resourceId: lastMinute['id'] as string }] },
    {
      name: 'a long sender is shortened to 80 characters',
      snapshot: { invites: [longSender] },
      findings: [{ messageId: 'pending', message: `from ${'Å'.repeat(79)}… (expires` }],
    },
    { name: 'a pending invite without an expiry', snapshot: { invites: [noExpiry] }, findings: [{ messageId: 'pending', message: 'expires at an unknown time' }] },
    {
      name: 'no organisation name or sender: the organisation id stands in',
      snapshot: { invites: [unnamed] },
      findings: [{ messageId: 'pending', message: `to ${unnamed['organization_id'] as string} from an unknown sender` }],
    },
    {
      name: 'every open invite, one finding each',
      snapshot: { invites: [globex, lastMinute, stale, ...closed] },
      findings: [{ resourceId: globex['id'] as string }, { resourceId: lastMinute['id'] as string }],
    },
    {
      name: 'unknown when the invites could not be read (an account-scoped token is denied them)',
      snapshot: { unread: { invites: 'denied' } },
      findings: [{ status: 'unknown', resourceType: 'user', resourceId: 'invites', resourceName: 'invites', message: 'invites could not be read (denied)' }],
    },
    { name: 'unknown when reading the invites failed', snapshot: { unread: { invites: 'failed' } }, findings: [{ status: 'unknown', resourceId: 'invites' }] },
    { name: 'the configured severity wins', severity: 'medium', snapshot: { invites: [globex] }, findings: [{ severity: 'medium' }] },
    {
      // docs/api-surface.md, answers beyond the spec: invite status is pending, accepted, rejected or expired; without one the invite cannot be judged.
      name: 'an invite without a status is unknown, not a pass',
      snapshot: { invites: [{ ...invite('pending', 5), status: undefined }, invite('accepted', -3)] },
      findings: [{ status: 'unknown', resourceType: 'invite', message: 'the invite has no status' }],
    },
  ],
});

describe('rule invite-pending passes', () => {
  const passes = (invites: Item[]) =>
    runRule(rule, { name: 'passes', snapshot: { invites } })
      .findings.filter((f) => f.status === 'pass')
      .map((f) => `${f.resource.type}/${f.resource.id}/${f.resource.name}`);

  it('passes each invite that is not open, on the invite', () => {
    expect(passes([globex, stale, ...closed]).sort()).toEqual([stale, ...closed].map((i) => `invite/${i['id'] as string}/${i['organization_name'] as string}`).sort());
  });

  it('names an invite without an organisation name by nothing', () => {
    const findings = runRule(rule, { name: 'unnamed', snapshot: { invites: [unnamed] } }).findings;
    expect(findings.map((f) => [f.status, f.resource.id, f.resource.name])).toEqual([['fail', unnamed['id'], null]]);
  });

  it('passes on the user when there are no invites', () => {
    expect(passes([])).toEqual(['user/invites/invites']);
  });
});
