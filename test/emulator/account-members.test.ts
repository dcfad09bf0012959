/**
 * The emulator's account members over real HTTP (vendor's API reference: List Members,
 * `GET /accounts/{account_id}/members`): the documented member shape, page paging of 5 to 50 (20 by
 * default), the status filter and ordering, the refusal of a token lacking the permission, an
 * account the user is not a member of, and members for every kind of dataset.
 */
import { describe, expect, it } from 'vitest';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import { expectFailure, expectOk } from '../support/envelope.js';
import { emulatorsClosedAfterEach, get, raw } from '../support/http.js';

const emulator = emulatorsClosedAfterEach();
const ROUTE = 'GET /accounts/{account_id}/members';
/** Emulator error codes (src/emulator/http/envelope.ts). */
const CODE = { notFound: 1005, validation: 10014, unauthorized: 9109 };

const staff = Array.from({ length: 23 }, (_, i) => ({ email: `staff${String(i).padStart(2, '0')}@org.example`, roles: ['Administrator Read Only'] }));
const dataset: DatasetFile = {
  version: 1,
  user: { email: 'me@org.example' },
  accounts: [
    {
      id: 'acc-org',
      name: 'Org',
      members: [
        { email: 'me@org.example', roles: ['Super Administrator - All Privileges'] },
        { email: 'zed@org.example', first_name: 'Zed', last_name: 'Ames', roles: ['DNS'], two_factor: false },
        { email: 'quiet@org.example', roles: ['Firewall'], two_factor: null },
        { email: 'new@org.example', status: 'pending', two_factor: false },
        ...staff,
      ],
      zones: [{ name: 'org.example' }],
    },
    { id: 'acc-plain', name: 'Plain', zones: [{ name: 'plain.example' }] },
    { id: 'acc-other', name: 'Other', member: false, zones: [{ name: 'other.example' }] },
  ],
};

type Member = { id: string; email: string; status: string; user: Record<string, unknown>; roles: Array<{ id: string; name: string; description: string; permissions: Record<string, { read: boolean; write: boolean }> }>; policies: unknown[] };

describe('GET /accounts/{account_id}/members', () => {
  it('serves the documented shape, 20 a page by default, and the pages add up to every member', async () => {
    const emu = await emulator({ dataset });
    const first = await get(emu, '/accounts/acc-org/members');
    const members = expectOk(first) as Member[];
    expect(members).toHaveLength(20);
    expect(first.json.result_info).toMatchObject({ page: 1, per_page: 20, count: 20, total_count: 27, total_pages: 2 });
    const second = expectOk(await get(emu, '/accounts/acc-org/members?page=2')) as Member[];
    expect(second).toHaveLength(7);
    const all = [...members, ...second];
    expect(new Set(all.map((m) => m.id)).size).toBe(27);
    const zed = all.find((m) => m.user['email'] === 'zed@org.example')!;
    expect(Object.keys(zed).sort()).toEqual(['email', 'id', 'policies', 'roles', 'status', 'user']);
    expect(zed.user).toEqual({ id: expect.stringMatching(/^[0-9a-f]{32}$/), email: 'zed@org.example', first_name: 'Zed', last_name: 'Ames', two_factor_authentication_enabled: false });
    expect(zed.roles.map((r) => [r.name, r.permissions['dns_records'], r.permissions['billing']])).toEqual([['DNS', { read: true, write: true }, { read: false, write: false }]]);
    // null in the dataset: the answer leaves the flag out.
    const quiet = all.find((m) => m.user['email'] === 'quiet@org.example')!;
    expect('two_factor_authentication_enabled' in quiet.user).toBe(false);
    // per_page is clamped to 5..50.
    expect((await get(emu, '/accounts/acc-org/members?per_page=100')).json.result_info.per_page).toBe(50);
    expect((await get(emu, '/accounts/acc-org/members?per_page=1')).json.result_info.per_page).toBe(5);
  });

  it('filters by status and orders by e-mail in either direction', async () => {
    const emu = await emulator({ dataset });
    const pending = expectOk(await get(emu, '/accounts/acc-org/members?status=pending')) as Member[];
    expect(pending.map((m) => [m.email, m.status])).toEqual([['new@org.example', 'pending']]);
    expectFailure(await get(emu, '/accounts/acc-org/members?status=member'), 400, CODE.validation);
    const desc = expectOk(await get(emu, '/accounts/acc-org/members?order=user.email&direction=desc&per_page=5')) as Member[];
    expect(desc.map((m) => m.email)).toEqual(['zed@org.example', 'staff22@org.example', 'staff21@org.example', 'staff20@org.example', 'staff19@org.example']);
  });

  it('gives an account the dataset says nothing of its user alone, a Super Administrator with two-factor', async () => {
    const emu = await emulator({ dataset });
    const members = expectOk(await get(emu, '/accounts/acc-plain/members')) as Member[];
    expect(members.map((m) => [m.email, m.status, m.user['two_factor_authentication_enabled'], m.roles.map((r) => r.name)])).toEqual([
      ['me@org.example', 'accepted', true, ['Super Administrator - All Privileges']],
    ]);
  });

  it('refuses a token without the permission (403 9109) and hides an account the user is not a member of (404)', async () => {
    const denied = await emulator({ dataset, denyRoutes: [ROUTE] });
    expectFailure(await get(denied, '/accounts/acc-org/members'), 403, CODE.unauthorized);
    const emu = await emulator({ dataset });
    expectFailure(await get(emu, '/accounts/acc-other/members'), 404, CODE.notFound);
    expectFailure(await raw(emu, 'GET', '/accounts/acc-org/members', { auth: false }), 403, CODE.unauthorized);
  });

  it('serves a realistic mix in a generated organisation and in the demo', async () => {
    const generated = await emulator({ dataset: 'generated', generated: { seed: 3, accounts: 4, zones: 8, records: 40 } });
    const accounts = expectOk(await get(generated, '/accounts')) as Array<{ id: string }>;
    const all: Member[] = [];
    for (const a of accounts) all.push(...(expectOk(await get(generated, `/accounts/${a.id}/members?per_page=50`)) as Member[]));
    expect(all.length).toBeGreaterThanOrEqual(accounts.length * 3);
    expect(all.some((m) => m.status === 'accepted' && m.user['two_factor_authentication_enabled'] === false)).toBe(true);
    expect(all.some((m) => m.user['two_factor_authentication_enabled'] === true)).toBe(true);
    const demo = await emulator({ dataset: 'demo' });
    const demoAccounts = expectOk(await get(demo, '/accounts')) as Array<{ id: string; name: string }>;
    const marketing = demoAccounts.find((a) => a.name === 'Tailspin Toys Marketing')!;
    const without = (expectOk(await get(demo, `/accounts/${marketing.id}/members`)) as Member[]).filter((m) => m.status === 'accepted' && m.user['two_factor_authentication_enabled'] === false);
    expect(without.map((m) => [m.email, m.roles.map((r) => r.name)])).toEqual([['mia.cole@brightwave-agency.example', ['Analytics']]]);
  });
});

