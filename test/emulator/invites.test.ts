/**
 * Conformance of the emulator's user invites over real HTTP: the unpaginated list, accepting (which
 * makes the invited account and its zones visible), rejecting, expiry, and the refusals. Each test
 * gets a fresh emulator because answering an invite changes what the user can see.
 */
import { describe, expect, it } from 'vitest';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { freshEmulatorPerTest, get, raw, zoneId, type RawAnswer } from '../support/http.js';
import { expectFailure, expectOk } from '../support/envelope.js';

/** Emulator error codes (src/emulator/http/envelope.ts), spelled out so a renumbering fails here. */
const CODE = { invalidZone: 1003, notFound: 1005, validation: 10014, inviteState: 10700 };

/**
 * One account the user belongs to, and four it does not (`member: false`), each with one invite
 * in a different situation: pending, pending but past its expiry, already rejected.
 */
function dataset(): DatasetFile {
  return {
    version: 1,
    user: { email: 'me@home.example' },
    accounts: [
      { id: 'acc-home', name: 'Home Org', zones: [{ name: 'home.example' }] },
      { id: 'acc-partner', name: 'Partner Org', member: false, zones: [{ name: 'partner.example' }, { name: 'partner-shop.example' }] },
      { id: 'acc-vendor', name: 'Vendor Org', member: false, zones: [{ name: 'vendor.example' }] },
      { id: 'acc-stale', name: 'Stale Org', member: false, zones: [{ name: 'stale.example' }] },
      { id: 'acc-old', name: 'Old Org', member: false, zones: [{ name: 'old.example' }] },
    ],
    invites: [
      { id: 'inv-partner', account: 'Partner Org', invited_by: 'alice@partner.example', invited_on: 'now-1d', expires_on: 'now+6d' },
      { id: 'inv-vendor', account: 'Vendor Org', invited_by: 'bob@vendor.example', roles: [{ id: 'role-ro', name: 'Read only' }] },
      // Stored as pending, but its expiry has passed: the API shows it as expired.
      { id: 'inv-stale', account: 'Stale Org', invited_by: 'carol@stale.example', invited_on: 'now-10d', expires_on: 'now-3d' },
      { id: 'inv-old', account: 'Old Org', invited_by: 'dave@old.example', status: 'rejected' },
    ],
  };
}

const answer = (emu: RunningEmulator, id: string, body: unknown) => raw(emu, 'PATCH', `/user/invites/${id}`, { body });

async function accountIds(emu: RunningEmulator): Promise<string[]> {
  return expectOk(await get(emu, '/accounts')).map((a: { id: string }) => a.id);
}

async function zoneNames(emu: RunningEmulator): Promise<string[]> {
  return expectOk(await get(emu, '/zones')).map((z: { name: string }) => z.name);
}

async function inviteStatus(emu: RunningEmulator, id: string): Promise<string> {
  const invites: Array<{ id: string; status: string }> = expectOk(await get(emu, '/user/invites'));
  const invite = invites.find((i) => i.id === id);
  if (!invite) throw new Error(`invite ${id} not listed`);
  return invite.status;
}

describe('user invites', () => {
  const emu = freshEmulatorPerTest(() => ({ dataset: dataset() }));

  it('lists every invite in one unpaginated answer (no result_info), expiry applied', async () => {
    const r = await get(emu(), '/user/invites');
    const invites = expectOk(r);
    expect(r.json).not.toHaveProperty('result_info');
    expect(invites.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([
      ['inv-partner', 'pending'],
      ['inv-vendor', 'pending'],
      ['inv-stale', 'expired'],
      ['inv-old', 'rejected'],
    ]);
    // Even asking for a page does not paginate it.
    const paged = await get(emu(), '/user/invites?per_page=1&page=2');
    expect(expectOk(paged)).toHaveLength(4);
    expect(paged.json).not.toHaveProperty('result_info');
  });

  it('describes an invite with its organization, inviter, addressee, dates and roles', async () => {
    const invite = expectOk(await get(emu(), '/user/invites/inv-partner'));
    expect(invite).toEqual({
      id: 'inv-partner',
      organization_id: 'acc-partner',
      organization_name: 'Partner Org',
      invited_by: 'alice@partner.example',
      // Defaults to the user's address.
      invited_member_email: 'me@home.example',
      // now-1d and now+6d against NOW = 2026-11-01T12:00:00Z.
      invited_on: '2026-10-31T12:00:00.000000Z',
      expires_on: '2026-11-07T12:00:00.000000Z',
      roles: [expect.objectContaining({ name: 'Administrator' })],
      status: 'pending',
    });
    expect(expectOk(await get(emu(), '/user/invites/inv-vendor')).roles).toEqual([{ id: 'role-ro', name: 'Read only', description: '' }]);
  });

  it('accepting a pending invite makes its account and the account zones visible', async () => {
    const partnerZone = zoneId(emu(), 'partner.example');
    // Before: the account and its zones do not exist as far as the user can tell.
    expect(await accountIds(emu())).toEqual(['acc-home']);
    expect(await zoneNames(emu())).toEqual(['home.example']);
    expectFailure(await get(emu(), `/zones/${partnerZone}`), 400, CODE.invalidZone);

    const accepted = expectOk(await answer(emu(), 'inv-partner', { status: 'accepted' }));
    expect(accepted).toMatchObject({ id: 'inv-partner', status: 'accepted', organization_id: 'acc-partner' });

    expect(await inviteStatus(emu(), 'inv-partner')).toBe('accepted');
    expect(await accountIds(emu())).toEqual(['acc-home', 'acc-partner']);
    expect(await zoneNames(emu())).toEqual(['home.example', 'partner-shop.example', 'partner.example']);
    expect(expectOk(await get(emu(), `/zones/${partnerZone}`))).toMatchObject({ name: 'partner.example', account: { id: 'acc-partner', name: 'Partner Org' } });
    expect(expectOk(await get(emu(), '/accounts/acc-partner'))).toMatchObject({ id: 'acc-partner', name: 'Partner Org' });
    // Only that account: the other invited ones stay hidden.
    expectFailure(await get(emu(), `/zones/${zoneId(emu(), 'vendor.example')}`), 400, CODE.invalidZone);
  });

  it('rejecting a pending invite keeps the account hidden', async () => {
    expect(expectOk(await answer(emu(), 'inv-vendor', { status: 'rejected' }))).toMatchObject({ id: 'inv-vendor', status: 'rejected' });
    expect(await inviteStatus(emu(), 'inv-vendor')).toBe('rejected');
    expect(await accountIds(emu())).toEqual(['acc-home']);
    expectFailure(await get(emu(), `/zones/${zoneId(emu(), 'vendor.example')}`), 400, CODE.invalidZone);
  });

  it('refuses to answer an invite that is no longer pending (400 code 10700)', async () => {
    // Rejected in the dataset.
    expectFailure(await answer(emu(), 'inv-old', { status: 'accepted' }), 400, CODE.inviteState);
    // Answered over HTTP: neither the same answer nor the other one is taken again.
    expectOk(await answer(emu(), 'inv-partner', { status: 'accepted' }));
    expectFailure(await answer(emu(), 'inv-partner', { status: 'accepted' }), 400, CODE.inviteState);
    expectFailure(await answer(emu(), 'inv-partner', { status: 'rejected' }), 400, CODE.inviteState);
    expect(await inviteStatus(emu(), 'inv-partner')).toBe('accepted');
    expect(await accountIds(emu())).toEqual(['acc-home', 'acc-partner']);
    expect(await inviteStatus(emu(), 'inv-old')).toBe('rejected');
  });

  it('an expired invite shows as expired and cannot be accepted', async () => {
    expect(expectOk(await get(emu(), '/user/invites/inv-stale')).status).toBe('expired');
    const r = await answer(emu(), 'inv-stale', { status: 'accepted' });
    expectFailure(r, 400, CODE.inviteState);
    expect(r.json.errors[0].message).toContain('expired');
    expect(await accountIds(emu())).toEqual(['acc-home']);
    expectFailure(await get(emu(), `/zones/${zoneId(emu(), 'stale.example')}`), 400, CODE.invalidZone);
  });

  it('rejects a body without a valid status (400) and leaves the invite pending', async () => {
    for (const body of [{}, { status: 'maybe' }, { status: 'pending' }, { status: 'ACCEPTED' }, { status: true }, ['accepted']]) {
      expectFailure(await answer(emu(), 'inv-partner', body), 400, CODE.validation);
    }
    expect(await inviteStatus(emu(), 'inv-partner')).toBe('pending');
    expect(await accountIds(emu())).toEqual(['acc-home']);
  });

  it('answers an unknown invite with 404, for GET and PATCH', async () => {
    expectFailure(await get(emu(), '/user/invites/inv-nope'), 404, CODE.notFound);
    expectFailure(await answer(emu(), 'inv-nope', { status: 'accepted' }), 404, CODE.notFound);
  });
});
