import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../src/emulator/datasets/index.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorFor, emulatorsClosedAfterEach, get, raw, zoneId } from '../support/http.js';

/**
 * The emulator answers as the real API does where the spec is silent: how bad credentials, an
 * account-owned token, a missing permission and a retired endpoint are refused, and list answers
 * without totals. The codes and messages are the ones seen from the real API unless a comment says
 * the emulator guesses.
 */

const emulator = emulatorsClosedAfterEach();

describe('bad credentials', () => {
  // docs/api-surface.md, answers beyond the spec: 403 9109 "Invalid access token" for a junk token
  // (measured on GET /accounts); 401 code 10000 "Authentication error" on some endpoints.
  it.each([
    ['9109', 403, 9109, 'Invalid access token'],
    ['401', 401, 10000, 'Authentication error'],
    ['10000', 403, 10000, 'Authentication error'],
  ] as const)('--bad-credentials %s answers HTTP %i code %i', async (answer, status, code, message) => {
    const emu = await emulator({ dataset: caseDataset(), badCredentials: answer });
    const r = await raw(emu, 'GET', '/accounts', { auth: false, headers: { authorization: 'Bearer junk-token' } });
    expect(r.status).toBe(status);
    expect(r.json).toMatchObject({ success: false, result: null, errors: [{ code, message }] });
  });
});

describe('an account-owned token (--token-kind account)', () => {
  it('cannot list accounts: 400 code 1001, as the real API answers', async () => {
    // docs/api-surface.md, answers beyond the spec: "List accounts endpoint does not support account owned tokens."
    const emu = await emulator({ dataset: caseDataset(), tokenKind: 'account' });
    const r = await get(emu, '/accounts');
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ success: false, errors: [{ code: 1001, message: 'List accounts endpoint does not support account owned tokens.' }], messages: [], result: null });
  });

  it('sees the zones of its own account only, and is refused the user-level invites (403 9109, a guess)', async () => {
    const emu = await emulator({ dataset: caseDataset(), tokenKind: 'account' });
    const zones = await get(emu, '/zones?per_page=50');
    const owners = new Set((zones.json.result as Array<{ account: { id: string } }>).map((z) => z.account.id));
    expect(owners.size).toBe(1);
    expect(zones.json.result.length).toBe(emu.org.visibleZones().length);
    const invites = await get(emu, '/user/invites');
    expect(invites.status).toBe(403);
    expect(invites.json.errors).toEqual([{ code: 9109, message: 'Unauthorized to access requested resource' }]);
  });

  it('belongs to the account --token-account names, and refuses one the dataset lacks', async () => {
    const plain = await emulator({ dataset: caseDataset() });
    const second = plain.org.visibleAccounts()[1]!.id;
    const emu = await emulator({ dataset: caseDataset(), tokenKind: 'account', tokenAccount: second });
    expect(emu.org.visibleZones().every((z) => z.accountId === second)).toBe(true);
    await expect(emulatorFor({ dataset: caseDataset(), tokenKind: 'account', tokenAccount: 'no-such-account' })).rejects.toThrow(DatasetError);
  });
});

describe('a permission the token lacks (--deny-route)', () => {
  it('answers 403 code 9109 on the named route only', async () => {
    // docs/api-surface.md, answers beyond the spec: missing permission: 403 9109 "Unauthorized to access requested resource".
    const emu = await emulator({ dataset: caseDataset(), denyRoutes: ['GET /zones/{zone_id}/filters'] });
    const id = zoneId(emu, 'acme-bank.example');
    const denied = await get(emu, `/zones/${id}/filters`);
    expect(denied.status).toBe(403);
    expect(denied.json.errors).toEqual([{ code: 9109, message: 'Unauthorized to access requested resource' }]);
    expect((await get(emu, `/zones/${id}/firewall/rules`)).status).toBe(200);
  });
});

describe('the retired previous managed rules (--api-era retired)', () => {
  it('answers 410 Gone with a message and no code on every legacy WAF endpoint', async () => {
    // vendor SDK (cloudflare 7.x, firewall/waf/overrides.d.ts): "deprecated and returns 410 Gone";
    // its error item carries a message only. The other legacy endpoints answering alike is the
    // emulator's assumption (docs/dataset-format.md says so).
    const emu = await emulator({ dataset: caseDataset(), apiEra: 'retired' });
    const id = zoneId(emu, 'acme-bank.example');
    for (const path of [`/zones/${id}/firewall/waf/overrides`, `/zones/${id}/firewall/waf/packages`, `/zones/${id}/firewall/waf/packages/any/groups`]) {
      const r = await get(emu, path);
      expect(r.status, path).toBe(410);
      expect(r.json.success).toBe(false);
      expect(r.json.errors).toHaveLength(1);
      expect(r.json.errors[0].code).toBeUndefined();
      expect(r.json.errors[0].message).toMatch(/410 Gone/);
    }
  });

  it('serves them as before in the default era', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    expect((await get(emu, `/zones/${zoneId(emu, 'acme-bank.example')}/firewall/waf/overrides`)).status).toBe(200);
  });
});

describe('list answers without totals (--no-totals)', () => {
  it('carry page, per_page and count only', async () => {
    // docs/api-surface.md, answers beyond the spec: total_pages is often absent (accounts, firewall rules, filters); a client must compute it.
    const emu = await emulator({ dataset: caseDataset(), noTotals: true });
    const r = await get(emu, '/zones?per_page=5');
    expect(r.json.result_info).toEqual({ page: 1, per_page: 5, count: 5 });
  });
});
