/**
 * The zone's rulesets list, `GET /zones/{zone_id}/rulesets`, over real HTTP: items without rules,
 * cursor paging, phases without an entry point absent, the vendor's managed rulesets a zone can
 * deploy, and versions that move with every write (API PUT, night control) and agree with the
 * entry point GETs. Datasets are inline, except the night's (generated).
 */
import { describe, expect, it } from 'vitest';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import type { NightReport } from '../../src/emulator/night.js';
import type { RulesetListItem } from '../../src/emulator/routes/rulesets-list.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { emulatorPerDescribe, emulatorsClosedAfterEach, freshEmulatorPerTest, get, raw, zoneId } from '../support/http.js';
import { expectFailure, expectOk } from '../support/envelope.js';

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const FREE_MANAGED = '77454fe2d30c4220b5701f6fdfb893ba';
const MANAGED_PHASE = 'http_request_firewall_managed';
const CUSTOM_PHASE = 'http_request_firewall_custom';
const entrypoint = (phase: string) => `/rulesets/phases/${phase}/entrypoint`;
const CODE = { invalidZone: 1003, invalidPagination: 1004, rulesetNotFound: 10003, validation: 10014 };
const ROUTE = 'GET /zones/{zone_id}/rulesets';

type Item = RulesetListItem;

const dataset = (): DatasetFile => ({
  version: 1,
  accounts: [
    {
      name: 'Enterprise',
      type: 'enterprise',
      managed_rules: [{ action: 'execute', expression: 'cf.zone.name eq "both.example"', action_parameters: { id: OWASP } }],
      zones: [
        {
          name: 'both.example',
          plan: 'enterprise',
          migration: { state: 'none' },
          security: { custom_rules: [{ action: 'block', expression: 'ip.src eq 192.0.2.1', description: 'a scanner' }], custom_rules_since: 'now-3d' },
        },
      ],
    },
    {
      name: 'Standard',
      zones: [
        { name: 'free.example', plan: 'free', migration: { state: 'none' } },
        { name: 'free-executes.example', plan: 'free', migration: { state: 'none' }, security: { managed_rules: [{ action: 'execute', expression: 'true', action_parameters: { id: MANAGED } }] } },
        { name: 'not-started.example', plan: 'pro', waf: { enabled: true }, migration: { state: 'start' } },
      ],
    },
  ],
});

const path = (emu: RunningEmulator, zone: string, rest = '') => `/zones/${zoneId(emu, zone)}${rest}`;

async function list(emu: RunningEmulator, zone: string, query = ''): Promise<Item[]> {
  return expectOk(await get(emu, `${path(emu, zone, '/rulesets')}${query}`)) as Item[];
}

/** Every item, following result_info.cursor as the vendor's SDK does, checking each page on the way. */
async function listByCursor(emu: RunningEmulator, zone: string, perPage: number): Promise<{ items: Item[]; pages: number[] }> {
  const items: Item[] = [];
  const pages: number[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const query = `?per_page=${perPage}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const answer = await get(emu, `${path(emu, zone, '/rulesets')}${query}`);
    const page = expectOk(answer) as Item[];
    expect(answer.json.result_info).toMatchObject({ count: page.length, per_page: perPage });
    items.push(...page);
    pages.push(page.length);
    cursor = answer.json.result_info.cursor;
    if (cursor === undefined) return { items, pages };
  }
  throw new Error('the cursor never ran out');
}

describe('GET /zones/{zone_id}/rulesets', () => {
  const emu = emulatorPerDescribe(() => ({ dataset: dataset() }));

  it('lists each ruleset as {id, kind, name, description, phase, version, last_updated}, without rules', async () => {
    // vendor docs, ruleset engine, "List and view rulesets": the list does not include the rules; API
    // reference (list account or zone rulesets): id, kind, last_updated, name, phase, version, description.
    const answer = await get(emu(), path(emu(), 'both.example', '/rulesets'));
    const items = expectOk(answer) as Item[];
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(['description', 'id', 'kind', 'last_updated', 'name', 'phase', 'version']);
      expect(item.version).toMatch(/^[1-9][0-9]*$/);
      // RFC 3339 (the API reference: format date-time).
      expect(item.last_updated).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    }
    // vendor docs, "View rulesets": zone-level phase entry points (kind zone) and the managed rulesets
    // the zone can deploy (kind managed); the order (zone by phase, then managed by id) is the emulator's.
    expect(items.map((i) => [i.kind, i.phase, i.id])).toEqual([
      ['zone', CUSTOM_PHASE, expect.stringMatching(/^[0-9a-f]{32}$/)],
      ['zone', MANAGED_PHASE, expect.stringMatching(/^[0-9a-f]{32}$/)],
      ['managed', MANAGED_PHASE, OWASP],
      ['managed', MANAGED_PHASE, FREE_MANAGED],
      ['managed', MANAGED_PHASE, MANAGED],
    ]);
    expect(items.find((i) => i.id === MANAGED)).toMatchObject({ name: 'Cloudflare Managed Ruleset', kind: 'managed' });
    expect(items.find((i) => i.id === OWASP)).toMatchObject({ name: 'Cloudflare OWASP Core Ruleset', kind: 'managed' });
    // A single page: result_info without a cursor (API reference: cursor paging; the vendor's SDK stops when none comes back).
    expect(answer.json.result_info).toEqual({ count: 5, per_page: 50 });
  });

  it('pages with the cursor: every item once, the last page without a cursor', async () => {
    // API reference (list account or zone rulesets): query `cursor` ("the cursor to use for the next
    // page") and `per_page` (1 to 50); result_info.cursor is what the vendor's SDK passes next.
    const whole = await list(emu(), 'both.example');
    const byTwo = await listByCursor(emu(), 'both.example', 2);
    expect(byTwo.pages).toEqual([2, 2, 1]);
    expect(byTwo.items).toEqual(whole);
    const byOne = await listByCursor(emu(), 'both.example', 1);
    expect(byOne.pages).toEqual([1, 1, 1, 1, 1]);
    expect(byOne.items).toEqual(whole);
    // A page that ends exactly at the end has no next page.
    const exact = await get(emu(), path(emu(), 'both.example', '/rulesets?per_page=5'));
    expect(exact.json.result_info).toEqual({ count: 5, per_page: 5 });
  });

  it('answers a per_page or cursor outside the documented range with 400, and serves a larger per_page as 50', async () => {
    // API reference: per_page minimum 1, maximum 50; cursor minLength 1 (the answers to values outside
    // them are the emulator's guesses: docs/dataset-format.md, "Answers the emulator guesses").
    const base = path(emu(), 'both.example', '/rulesets');
    expectFailure(await get(emu(), `${base}?per_page=0`), 400, CODE.invalidPagination);
    expectFailure(await get(emu(), `${base}?per_page=two`), 400, CODE.invalidPagination);
    expectFailure(await get(emu(), `${base}?cursor=not-a-cursor`), 400, CODE.validation);
    expect((await get(emu(), `${base}?per_page=500`)).json.result_info).toEqual({ count: 5, per_page: 50 });
  });

  it('leaves out a phase without an entry point (the phase whose GET answers 404 code 10003)', async () => {
    // vendor docs, "View rulesets": zone-level phase entry points appear "if configured"; a phase entry
    // point before its first rule answers 404 code 10003 (vendor docs: rulesets API, entry points).
    const items = await list(emu(), 'not-started.example');
    expect(items.filter((i) => i.kind === 'zone')).toEqual([]);
    for (const phase of [MANAGED_PHASE, CUSTOM_PHASE]) {
      expectFailure(await get(emu(), path(emu(), 'not-started.example', entrypoint(phase))), 404, CODE.rulesetNotFound);
    }
    // A paid plan can still deploy the vendor's managed rulesets (vendor docs: WAF, managed rules).
    expect(items.map((i) => i.id)).toEqual([OWASP, FREE_MANAGED, MANAGED]);
  });

  it('gives each zone entry point the id, name, version and last_updated its entry point GET answers', async () => {
    // vendor docs, "List and view rulesets": the list gives each ruleset's properties of its most recent
    // version; "Get a zone entry point ruleset" fetches that latest version.
    const zoneItems = (await list(emu(), 'both.example')).filter((i) => i.kind === 'zone');
    expect(zoneItems).toHaveLength(2);
    for (const item of zoneItems) {
      const { rules, ...ruleset } = expectOk(await get(emu(), path(emu(), 'both.example', entrypoint(item.phase))));
      expect(rules.length).toBeGreaterThan(0);
      expect(item).toEqual(ruleset);
    }
  });

  it('lists a Free zone with the Free Managed Ruleset only, and no entry point it does not have', async () => {
    // vendor docs, WAF managed rules: the Cloudflare Free Managed Ruleset is available on all plans
    // (id 77454fe2...); which rulesets Free may deploy besides it is the emulator's guess: none.
    const items = await list(emu(), 'free.example');
    expect(items).toEqual([
      { id: FREE_MANAGED, kind: 'managed', name: 'Cloudflare Free Managed Ruleset', description: expect.any(String), phase: MANAGED_PHASE, version: expect.any(String), last_updated: expect.any(String) },
    ]);
    // docs/dataset-format.md: a Free zone in state none without managed_rules has no managed entry point.
    expectFailure(await get(emu(), path(emu(), 'free.example', entrypoint(MANAGED_PHASE))), 404, CODE.rulesetNotFound);
  });

  it('lists a managed ruleset a Free zone executes, with the zone entry point that executes it', async () => {
    // vendor docs, "View rulesets": managed rulesets the zone can deploy; one its entry point already
    // executes is one it can (emulator: listed whatever the plan).
    const items = await list(emu(), 'free-executes.example');
    expect(items.map((i) => [i.kind, i.id])).toEqual([
      ['zone', expect.stringMatching(/^[0-9a-f]{32}$/)],
      ['managed', FREE_MANAGED],
      ['managed', MANAGED],
    ]);
  });

  it("does not list the account's root entry point", async () => {
    // vendor docs, "View rulesets": the zone-level list holds managed, zone and custom rulesets; the
    // account entry point (kind root) is read at the account (API reference: account entry point).
    const items = await list(emu(), 'both.example');
    expect(items.some((i) => i.kind === 'root')).toBe(false);
    const account = emu().org.state.accounts.find((a) => a.name === 'Enterprise')!;
    expect(expectOk(await get(emu(), `/accounts/${account.id}${entrypoint(MANAGED_PHASE)}`)).kind).toBe('root');
  });

  it('answers a zone that does not exist as the other zone routes do', async () => {
    // The API's answer for an unknown zone id on the zone routes: 400 code 1003 "Invalid or missing
    // zone id." (docs/api-surface.md); the list answers the same as the entry point GET.
    const missing = '0123456789abcdef0123456789abcdef';
    const answer = await get(emu(), `/zones/${missing}/rulesets`);
    expectFailure(answer, 400, CODE.invalidZone);
    const other = await get(emu(), `/zones/${missing}${entrypoint(MANAGED_PHASE)}`);
    expect(answer.json).toEqual(other.json);
  });

  it('is counted in the emulator stats under its route', async () => {
    // docs/emulator.md, Its own endpoints: GET /__emulator/stats counts requests by route ("METHOD template"), as for every route.
    expect((await raw(emu(), 'DELETE', '/__emulator/stats')).status).toBe(200);
    await list(emu(), 'free.example');
    await get(emu(), path(emu(), 'both.example', '/rulesets?per_page=0'));
    const stats = (await get(emu(), '/__emulator/stats')).json;
    expect(stats.requests.byRoute[ROUTE]).toBe(2);
  });
});

describe('versions in the list move with every write', () => {
  const emu = freshEmulatorPerTest(() => ({ dataset: dataset() }));

  it('a PUT of the managed entry point raises its version by one and sets last_updated; the other entry point keeps its own', async () => {
    // vendor docs: "Update a zone entry point ruleset ... creating a new version"; the ruleset's version
    // increases with each change (ruleset engine: "List all versions of a ruleset").
    const before = await list(emu(), 'both.example');
    const managedBefore = before.find((i) => i.kind === 'zone' && i.phase === MANAGED_PHASE)!;
    const customBefore = before.find((i) => i.kind === 'zone' && i.phase === CUSTOM_PHASE)!;
    const body = { rules: [{ action: 'execute', expression: 'true', action_parameters: { id: MANAGED } }, { action: 'execute', expression: 'true', action_parameters: { id: OWASP } }] };
    const saved = expectOk(await raw(emu(), 'PUT', path(emu(), 'both.example', entrypoint(MANAGED_PHASE)), { body }));
    const after = await list(emu(), 'both.example');
    const managedAfter = after.find((i) => i.kind === 'zone' && i.phase === MANAGED_PHASE)!;
    expect(managedAfter.id).toBe(managedBefore.id);
    expect(managedAfter.version).toBe(String(Number(managedBefore.version) + 1));
    expect(managedAfter.version).toBe(saved.version);
    expect(managedAfter.last_updated).toBe(saved.last_updated);
    expect(Date.parse(managedAfter.last_updated)).toBeGreaterThan(Date.parse(managedBefore.last_updated));
    expect(after.find((i) => i.kind === 'zone' && i.phase === CUSTOM_PHASE)).toEqual(customBefore);
    // The entry point GET answers the same version as the list.
    expect(expectOk(await get(emu(), path(emu(), 'both.example', entrypoint(MANAGED_PHASE)))).version).toBe(managedAfter.version);
  });

  it('the first PUT of a phase without an entry point adds it to the list at version 1', async () => {
    // vendor docs, "View rulesets": an entry point appears once configured; the first PUT creates it.
    const body = { rules: [{ action: 'execute', expression: 'true', action_parameters: { id: MANAGED } }] };
    expect((await list(emu(), 'free.example')).some((i) => i.kind === 'zone')).toBe(false);
    const saved = expectOk(await raw(emu(), 'PUT', path(emu(), 'free.example', entrypoint(MANAGED_PHASE)), { body }));
    const zoneItems = (await list(emu(), 'free.example')).filter((i) => i.kind === 'zone');
    expect(zoneItems).toEqual([{ id: saved.id, kind: 'zone', name: saved.name, description: saved.description, phase: MANAGED_PHASE, version: '1', last_updated: saved.last_updated }]);
  });
});

describe('versions in the list move with the night control', () => {
  const start = emulatorsClosedAfterEach();
  const generated = { dataset: 'generated' as const, generated: { seed: 3, accounts: 4, zones: 200, records: 2000 } };

  async function zoneVersions(emu: RunningEmulator): Promise<Map<string, Item[]>> {
    const byZone = new Map<string, Item[]>();
    for (const zone of emu.org.visibleZones()) {
      byZone.set(zone.id, (expectOk(await get(emu, `/zones/${zone.id}/rulesets`)) as Item[]).filter((i) => i.kind === 'zone'));
    }
    return byZone;
  }

  it("a night's custom rules change raises that entry point's version by one; the zones it did not touch keep theirs", async () => {
    // vendor docs: every update of a ruleset creates a new version (ruleset engine: versions); the
    // night's custom rules change is an update through the dashboard (docs/dataset-format.md, night control).
    const emu = await start(generated);
    const before = await zoneVersions(emu);
    const answer = await raw(emu, 'POST', '/__emulator/night', { body: { share: 0.1, seed: 7 } });
    expect(answer.status).toBe(200);
    const report = answer.json as NightReport;
    const after = await zoneVersions(emu);
    const customChanged = new Set(report.changed.filter((c) => c.change === 'custom_rules').map((c) => c.zone_id));
    expect(customChanged.size).toBeGreaterThan(0);
    for (const zoneId of customChanged) {
      const old = before.get(zoneId)!.find((i) => i.phase === CUSTOM_PHASE);
      const now = after.get(zoneId)!.find((i) => i.phase === CUSTOM_PHASE)!;
      expect(now.version).toBe(old ? String(Number(old.version) + 1) : '1');
      expect(now.last_updated >= report.from && now.last_updated < report.to).toBe(true);
      const served = expectOk(await get(emu, `/zones/${zoneId}${entrypoint(CUSTOM_PHASE)}`));
      expect([served.version, served.last_updated]).toEqual([now.version, now.last_updated]);
    }
    for (const [zoneId, items] of before) {
      if (customChanged.has(zoneId) || !after.has(zoneId)) continue;
      expect(after.get(zoneId)).toEqual(items);
    }
  });
});
