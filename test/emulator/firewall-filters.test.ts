/**
 * Conformance of the emulator's firewall rules and filters endpoints, over real HTTP.
 *
 * The contract is the spec ("Firewall rules", "Errors" 4 and 5) and the gaps it leaves are filled
 * by docs/api-surface.md, answers beyond the spec: filters CRUD, duplicate filters answer 10102 with meta.id, parse errors carry a
 * message starting "Filter parsing error" and no code, rule quotas per plan, and pagination of both
 * lists (per_page 25 by default, clamped to 5..100, no total_pages). Codes that the real API does
 * not publish are the emulator's own (envelope.ts); they are written out here as literals on
 * purpose, so that renumbering them breaks this file instead of silently following along.
 *
 * Every assertion about state re-reads it through GET, never through emulator internals.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DatasetFile, DatasetFirewallRule } from '../../src/emulator/datasets/format.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { emulatorPerDescribe, freshEmulatorPerTest, get, listAll, raw, zoneId, type RawAnswer } from '../support/http.js';

// Error codes (docs/api-surface.md, answers beyond the spec for 10102; the emulator's stable choices for the rest).

const INVALID_ZONE = 1003;
const BAD_PAGINATION = 1004;
const NOT_FOUND = 1005;
const MALFORMED_JSON = 6007;
const VALIDATION = 10014;
const QUOTA_EXCEEDED = 10019;
const NOT_ENTITLED = 10020;
const DUPLICATE_FILTER = 10102;

// The dataset.

const FREE = 'free.example';
const PRO = 'pro.example';
const BUSINESS = 'business.example';
const ENTERPRISE = 'enterprise.example';

/** The free zone starts one rule short of its quota of 5. */
const FREE_RULES = 4;
/** Enough for five pages of 25 (the last one partial) and two of 100. */
const PAGED = 120;
const pagedExpression = (i: number) => `http.request.uri.path eq "/paged/${i}"`;
// Every 10th rule and every 8th filter is paused, so that the `paused` filters differ per list.
const PAGED_PAUSED_RULES = 12;
const PAGED_PAUSED_FILTERS = 15;

/** Fixed ids on the pro zone make the rule/filter relations of the tests readable. */
const P = {
  adminFilter: 'f0000000000000000000000000000a01',
  ipFilter: 'f0000000000000000000000000000a02',
  sharedFilter: 'f0000000000000000000000000000a03',
  adminRule: 'e0000000000000000000000000000b01',
  ipRule: 'e0000000000000000000000000000b02',
  sharedRule1: 'e0000000000000000000000000000b03',
  sharedRule2: 'e0000000000000000000000000000b04',
} as const;
const ADMIN_EXPRESSION = 'http.request.uri.path eq "/admin"';
const IP_EXPRESSION = 'ip.src eq 203.0.113.7';
const SHARED_EXPRESSION = 'http.host eq "shared.pro.example"';

const REGEX_EXPRESSION = 'http.request.uri.path matches "^/api/v[0-9]+/"';
const BOT_EXPRESSION = 'cf.bot_management.score lt 30';

function dataset(): DatasetFile {
  const freeRules: DatasetFirewallRule[] = Array.from({ length: FREE_RULES }, (_, i) => ({
    action: 'block',
    filter: { expression: `http.request.uri.path eq "/free/${i}"` },
  }));
  const pagedRules: DatasetFirewallRule[] = Array.from({ length: PAGED }, (_, i) => ({
    action: 'block',
    paused: i % 10 === 0,
    filter: { expression: pagedExpression(i), paused: i % 8 === 0 },
  }));
  return {
    version: 1,
    accounts: [
      {
        name: 'Conformance',
        zones: [
          { name: FREE, plan: 'free', firewall_rules: freeRules },
          {
            name: PRO,
            plan: 'pro',
            filters: [
              { id: P.adminFilter, expression: ADMIN_EXPRESSION },
              { id: P.ipFilter, expression: IP_EXPRESSION },
              { id: P.sharedFilter, expression: SHARED_EXPRESSION },
            ],
            firewall_rules: [
              { id: P.adminRule, action: 'block', filter: P.adminFilter },
              { id: P.ipRule, action: 'challenge', filter: P.ipFilter },
              // Two rules on one filter: delete_filter_if_unused must keep it while one remains.
              { id: P.sharedRule1, action: 'log', filter: P.sharedFilter },
              { id: P.sharedRule2, action: 'block', filter: P.sharedFilter },
            ],
          },
          { name: BUSINESS, plan: 'business' },
          { name: ENTERPRISE, plan: 'enterprise', firewall_rules: pagedRules },
        ],
      },
    ],
  };
}

// Wire shapes.

interface ApiFilter {
  id: string;
  expression: string;
  paused: boolean;
  description: string;
  ref?: string;
}

interface ApiRule {
  id: string;
  action: string;
  paused: boolean;
  priority: number | null;
  description: string;
  products?: string[];
  filter: ApiFilter | { id: string; deleted: true };
}

interface ApiError {
  code?: number;
  message: string;
  source?: { pointer: string };
  meta?: { id?: string };
}

// Helpers.

/** Requests against one zone, paths relative to /zones/{zone_id}. */
function zoneApi(emu: RunningEmulator, zone: string) {
  const base = `/zones/${zoneId(emu, zone)}`;
  return {
    base,
    get: (path: string) => get(emu, `${base}${path}`),
    post: (path: string, body: unknown) => raw(emu, 'POST', `${base}${path}`, { body }),
    put: (path: string, body: unknown) => raw(emu, 'PUT', `${base}${path}`, { body }),
    del: (path: string) => raw(emu, 'DELETE', `${base}${path}`),
    filters: async () => (await listAll(emu, `${base}/filters`, 100)) as ApiFilter[],
    rules: async () => (await listAll(emu, `${base}/firewall/rules`, 100)) as ApiRule[],
  };
}
type ZoneApi = ReturnType<typeof zoneApi>;

/** A success envelope; returns its result. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function expectOk(r: RawAnswer, status = 200): any {
  expect(r.status, r.text).toBe(status);
  expect(r.json.success).toBe(true);
  expect(r.json.errors).toEqual([]);
  expect(r.json.messages).toEqual([]);
  expect(r.json.result).not.toBeUndefined();
  return r.json.result;
}

/** A failure envelope with the given status; returns its errors. */
function expectFailure(r: RawAnswer, status: number): ApiError[] {
  expect(r.status, r.text).toBe(status);
  expect(r.json.success).toBe(false);
  expect(r.json.result).toBeNull();
  expect(Array.isArray(r.json.messages)).toBe(true);
  const errors = r.json.errors as ApiError[];
  expect(errors.length).toBeGreaterThan(0);
  for (const e of errors) expect(typeof e.message).toBe('string');
  return errors;
}

/** A failure whose only error carries `code`; returns that error. */
function expectSingleError(r: RawAnswer, status: number, code: number): ApiError {
  const errors = expectFailure(r, status);
  expect(errors.map((e) => e.code)).toEqual([code]);
  return errors[0]!;
}

/** A rules-language parse error: message only, no code (docs/api-surface.md, answers beyond the spec). */
function expectParseError(r: RawAnswer, pointer: string): ApiError {
  const errors = expectFailure(r, 400);
  expect(errors).toHaveLength(1);
  const e = errors[0]!;
  expect(e).not.toHaveProperty('code');
  expect(e.message.startsWith('Filter parsing error')).toBe(true);
  expect(e.source?.pointer).toBe(pointer);
  return e;
}

const inlineRule = (expression: string, action = 'block', extra: Record<string, unknown> = {}) => ({
  action,
  filter: { expression },
  ...extra,
});
const ruleOn = (filterId: string, action = 'block', extra: Record<string, unknown> = {}) => ({
  action,
  filter: { id: filterId },
  ...extra,
});

const ids = (items: Array<{ id: string }>) => items.map((x) => x.id).sort();
const expressions = (filters: ApiFilter[]) => filters.map((f) => f.expression).sort();

/** What a zone holds, to compare before and after a refused request. */
async function snapshot(api: ZoneApi) {
  return { filters: await api.filters(), rules: await api.rules() };
}

// Lists.

describe.each([
  { list: 'filters', path: '/filters', paused: PAGED_PAUSED_FILTERS },
  { list: 'firewall rules', path: '/firewall/rules', paused: PAGED_PAUSED_RULES },
])('GET $list (read only)', ({ path, paused }) => {
  const emu = emulatorPerDescribe(() => ({ dataset: dataset() }));
  let api: ZoneApi;
  beforeAll(() => {
    api = zoneApi(emu(), ENTERPRISE);
  });

  it('serves 25 items by default, without total_pages', async () => {
    const r = await api.get(path);
    expect(expectOk(r)).toHaveLength(25);
    expect(r.json.result_info).toEqual({ page: 1, per_page: 25, count: 25, total_count: PAGED });
    expect(r.json.result_info).not.toHaveProperty('total_pages');
  });

  it('clamps per_page=500 to 100 and reports it', async () => {
    const r = await api.get(`${path}?per_page=500`);
    expect(expectOk(r)).toHaveLength(100);
    expect(r.json.result_info).toEqual({ page: 1, per_page: 100, count: 100, total_count: PAGED });
  });

  it('clamps per_page=1 to 5 and reports it', async () => {
    const r = await api.get(`${path}?per_page=1`);
    expect(expectOk(r)).toHaveLength(5);
    expect(r.json.result_info).toEqual({ page: 1, per_page: 5, count: 5, total_count: PAGED });
  });

  it('serves a partial last page, then an empty page past the end', async () => {
    const last = await api.get(`${path}?page=5`);
    expect(expectOk(last)).toHaveLength(PAGED - 4 * 25);
    expect(last.json.result_info).toEqual({ page: 5, per_page: 25, count: 20, total_count: PAGED });

    const past = await api.get(`${path}?page=6`);
    expect(expectOk(past)).toEqual([]);
    expect(past.json.result_info).toEqual({ page: 6, per_page: 25, count: 0, total_count: PAGED });
  });

  it('pages without overlap or gaps', async () => {
    const pages = await Promise.all([1, 2, 3].map((p) => api.get(`${path}?page=${p}&per_page=50`)));
    const seen = pages.flatMap((r) => (expectOk(r) as Array<{ id: string }>).map((x) => x.id));
    expect(seen).toHaveLength(PAGED);
    expect(new Set(seen).size).toBe(PAGED);
  });

  it.each(['page=0', 'page=-1', 'page=abc', 'page=1.5', 'per_page=0', 'per_page=2.5', 'per_page=ten'])(
    'refuses %s with 400 code 1004',
    async (query) => {
      const e = expectSingleError(await api.get(`${path}?${query}`), 400, BAD_PAGINATION);
      expect(e.message).toMatch(/^(page|per_page) must be a positive whole number/);
    },
  );

  it('filters by id, repeated or comma-separated', async () => {
    const page = expectOk(await api.get(`${path}?page=3&per_page=10`)) as Array<{ id: string }>;
    const wanted = [page[0]!.id, page[7]!.id];
    for (const query of [`id=${wanted[0]}&id=${wanted[1]}`, `id=${wanted.join(',')}`]) {
      const r = await api.get(`${path}?${query}`);
      expect(ids(expectOk(r))).toEqual([...wanted].sort());
      expect(r.json.result_info.total_count).toBe(2);
    }
  });

  it('filters by paused', async () => {
    const on = expectOk(await api.get(`${path}?paused=true&per_page=100`)) as Array<{ paused: boolean }>;
    expect(on).toHaveLength(paused);
    expect(on.every((x) => x.paused)).toBe(true);

    const off = await api.get(`${path}?paused=false&per_page=100`);
    expect(off.json.result_info.total_count).toBe(PAGED - paused);
    expect((expectOk(off) as Array<{ paused: boolean }>).every((x) => !x.paused)).toBe(true);
  });

  it('refuses a paused value that is not a boolean', async () => {
    expectSingleError(await api.get(`${path}?paused=maybe`), 400, VALIDATION);
  });

  it('gets one item by id, and answers 404 code 1005 for an unknown id', async () => {
    const [first] = expectOk(await api.get(`${path}?page=2`)) as Array<{ id: string }>;
    const one = expectOk(await api.get(`${path}/${first!.id}`));
    expect(one.id).toBe(first!.id);
    expect(one).toEqual(first);

    expectSingleError(await api.get(`${path}/00000000000000000000000000000000`), 404, NOT_FOUND);
  });

  it('answers 400 code 1003 for an unknown zone', async () => {
    expectSingleError(await get(emu(), `/zones/0123456789abcdef0123456789abcdef${path}`), 400, INVALID_ZONE);
  });
});

describe('GET firewall rules embeds each rule’s filter', () => {
  const emu = emulatorPerDescribe(() => ({ dataset: dataset() }));

  it('every rule carries the full filter that the filters list also serves', async () => {
    const api = zoneApi(emu(), ENTERPRISE);
    const [rules, filters] = [await api.rules(), await api.filters()];
    expect(rules).toHaveLength(PAGED);
    const byId = new Map(filters.map((f) => [f.id, f]));
    for (const rule of rules) expect(rule.filter).toEqual(byId.get(rule.filter.id));
    expect(new Set(rules.map((r) => (r.filter as ApiFilter).expression))).toEqual(
      new Set(Array.from({ length: PAGED }, (_, i) => pagedExpression(i))),
    );
  });
});

// Filters: create.

describe('POST /filters', () => {
  const emu = freshEmulatorPerTest(() => ({ dataset: dataset() }));

  it('creates every filter of the array and serves them back', async () => {
    const api = zoneApi(emu(), PRO);
    const created = expectOk(
      await api.post('/filters', [
        { expression: 'http.host eq "a.pro.example"' },
        { expression: 'ip.src in {10.0.0.0/8}', paused: true, description: 'internal', ref: 'net-10' },
      ]),
    ) as ApiFilter[];
    expect(created).toHaveLength(2);
    expect(created[0]).toEqual({ id: expect.any(String), expression: 'http.host eq "a.pro.example"', paused: false, description: '' });
    expect(created[1]).toEqual({ id: expect.any(String), expression: 'ip.src in {10.0.0.0/8}', paused: true, description: 'internal', ref: 'net-10' });
    expect(created[0]!.id).not.toBe(created[1]!.id);

    expect(await api.filters()).toHaveLength(5);
    for (const f of created) expect(expectOk(await api.get(`/filters/${f.id}`))).toEqual(f);
  });

  it.each([
    ['an object', { expression: 'ssl' }],
    ['an empty array', []],
    // `raw` sends strings verbatim, so this is the JSON string "ssl".
    ['a JSON string', '"ssl"'],
  ])('refuses a body that is %s (400 code 10014), creating nothing', async (_, body) => {
    const api = zoneApi(emu(), PRO);
    const e = expectSingleError(await api.post('/filters', body), 400, VALIDATION);
    expect(e.message).toBe('request body must be a non-empty JSON array');
    expect(await api.filters()).toHaveLength(3);
  });

  it('is all or nothing: one unparsable item in three creates none', async () => {
    const api = zoneApi(emu(), PRO);
    const r = await api.post('/filters', [
      { expression: 'http.host eq "one.pro.example"' },
      { expression: 'http.host eq' },
      { expression: 'http.host eq "three.pro.example"' },
    ]);
    expectParseError(r, '/1/expression');
    expect(expressions(await api.filters())).toEqual([ADMIN_EXPRESSION, IP_EXPRESSION, SHARED_EXPRESSION].sort());
  });

  it.each([
    ['a non-string expression', { expression: 42 }, '/2/expression'],
    ['a non-boolean paused', { expression: 'ssl', paused: 'yes' }, '/2/paused'],
    ['a description over 500 characters', { expression: 'ssl', description: 'd'.repeat(501) }, '/2/description'],
    ['a ref over 50 characters', { expression: 'ssl', ref: 'r'.repeat(51) }, '/2/ref'],
  ])('is all or nothing: %s in the last item creates none (code 10014)', async (_, bad, pointer) => {
    const api = zoneApi(emu(), PRO);
    const r = await api.post('/filters', [{ expression: 'http.host eq "one.pro.example"' }, { expression: 'http.host eq "two.pro.example"' }, bad]);
    expect(expectSingleError(r, 400, VALIDATION).source?.pointer).toBe(pointer);
    expect(await api.filters()).toHaveLength(3);
  });

  it('answers a parse error with no code and a message starting "Filter parsing error"', async () => {
    const api = zoneApi(emu(), PRO);
    const e = expectParseError(await api.post('/filters', [{ expression: 'http.host eq "x" and' }]), '/0/expression');
    expect(e.message).toMatch(/^Filter parsing error \(\d+:\d+\): /);
    expect(await api.filters()).toHaveLength(3);
  });

  it('refuses a duplicate of an existing filter with 10102 and meta.id of that filter', async () => {
    const api = zoneApi(emu(), PRO);
    const r = await api.post('/filters', [{ expression: 'http.host eq "new.pro.example"' }, { expression: IP_EXPRESSION }]);
    const e = expectSingleError(r, 400, DUPLICATE_FILTER);
    expect(e.meta?.id).toBe(P.ipFilter);
    expect(e.source?.pointer).toBe('/1/expression');
    expect(await api.filters()).toHaveLength(3);
  });

  it('refuses a duplicate within the same batch, creating neither', async () => {
    const api = zoneApi(emu(), PRO);
    const twice = 'http.host eq "twice.pro.example"';
    const e = expectSingleError(await api.post('/filters', [{ expression: twice }, { expression: twice }]), 400, DUPLICATE_FILTER);
    expect(e.source?.pointer).toBe('/1/expression');
    expect(expressions(await api.filters())).not.toContain(twice);
  });

  it('accepts an expression of exactly 4,096 multibyte characters and keeps it intact', async () => {
    const api = zoneApi(emu(), PRO);
    const frame = 'http.request.uri.path eq ""';
    // Astral characters are 2 UTF-16 units and 4 UTF-8 bytes: the limit counts characters.
    const expression = `http.request.uri.path eq "${'😀'.repeat(4096 - frame.length)}"`;
    expect([...expression]).toHaveLength(4096);
    const [created] = expectOk(await api.post('/filters', [{ expression }])) as ApiFilter[];
    expect(created!.expression).toBe(expression);
    expect(expectOk(await api.get(`/filters/${created!.id}`)).expression).toBe(expression);
  });

  it('refuses an expression of 4,097 characters as a parse error', async () => {
    const api = zoneApi(emu(), PRO);
    const frame = 'http.request.uri.path eq ""';
    const expression = `http.request.uri.path eq "${'a'.repeat(4097 - frame.length)}"`;
    expect(expression).toHaveLength(4097);
    const e = expectParseError(await api.post('/filters', [{ expression }]), '/0/expression');
    expect(e.message).toContain('longer than 4096 characters');
    expect(await api.filters()).toHaveLength(3);
  });
});

// Filters: update and delete.

describe('PUT /filters/{id}', () => {
  const emu = freshEmulatorPerTest(() => ({ dataset: dataset() }));

  it('replaces the filter, and the rules using it show the change', async () => {
    const api = zoneApi(emu(), PRO);
    const body = { expression: 'http.request.uri.path eq "/admin2"', paused: true, description: 'moved' };
    const updated = expectOk(await api.put(`/filters/${P.adminFilter}`, body));
    expect(updated).toEqual({ id: P.adminFilter, ...body });
    expect(expectOk(await api.get(`/filters/${P.adminFilter}`))).toEqual(updated);
    expect(expectOk(await api.get(`/firewall/rules/${P.adminRule}`)).filter).toEqual(updated);
  });

  it('accepts its own unchanged expression (it is no duplicate of itself)', async () => {
    const api = zoneApi(emu(), PRO);
    const updated = expectOk(await api.put(`/filters/${P.adminFilter}`, { expression: ADMIN_EXPRESSION, description: 'same' }));
    expect(updated).toEqual({ id: P.adminFilter, expression: ADMIN_EXPRESSION, paused: false, description: 'same' });
  });

  it('refuses the expression of another filter with 10102 naming it, changing nothing', async () => {
    const api = zoneApi(emu(), PRO);
    const e = expectSingleError(await api.put(`/filters/${P.adminFilter}`, { expression: IP_EXPRESSION }), 400, DUPLICATE_FILTER);
    expect(e.meta?.id).toBe(P.ipFilter);
    expect(expectOk(await api.get(`/filters/${P.adminFilter}`)).expression).toBe(ADMIN_EXPRESSION);
  });

  it('refuses an unparsable expression, changing nothing', async () => {
    const api = zoneApi(emu(), PRO);
    expectParseError(await api.put(`/filters/${P.adminFilter}`, { expression: 'http.request.uri.path eq /admin' }), '/expression');
    expect(expectOk(await api.get(`/filters/${P.adminFilter}`)).expression).toBe(ADMIN_EXPRESSION);
  });

  it('answers code 1005 for an unknown filter', async () => {
    const api = zoneApi(emu(), PRO);
    const errors = expectFailure(await api.put('/filters/00000000000000000000000000000000', { expression: 'ssl' }), 404);
    expect(errors.map((e) => e.code)).toContain(NOT_FOUND);
    expect(expressions(await api.filters())).not.toContain('ssl');
  });
});

describe('DELETE /filters', () => {
  const emu = freshEmulatorPerTest(() => ({ dataset: dataset() }));

  it('deletes one by id; a rule using it then shows filter {id, deleted: true}', async () => {
    const api = zoneApi(emu(), PRO);
    expect(expectOk(await api.del(`/filters/${P.adminFilter}`))).toEqual({ id: P.adminFilter });
    expectSingleError(await api.get(`/filters/${P.adminFilter}`), 404, NOT_FOUND);
    expect(ids(await api.filters())).toEqual([P.ipFilter, P.sharedFilter].sort());

    const rule = expectOk(await api.get(`/firewall/rules/${P.adminRule}`)) as ApiRule;
    expect(rule.filter).toEqual({ id: P.adminFilter, deleted: true });
    const listed = (await api.rules()).find((r) => r.id === P.adminRule);
    expect(listed?.filter).toEqual({ id: P.adminFilter, deleted: true });
  });

  it('deletes several with ?id=a&id=b', async () => {
    const api = zoneApi(emu(), PRO);
    const result = expectOk(await api.del(`/filters?id=${P.adminFilter}&id=${P.ipFilter}`));
    expect(result).toEqual([{ id: P.adminFilter }, { id: P.ipFilter }]);
    expect(ids(await api.filters())).toEqual([P.sharedFilter]);
    // The rules stay, pointing at deleted filters.
    expect(ids(await api.rules())).toEqual([P.adminRule, P.ipRule, P.sharedRule1, P.sharedRule2].sort());
  });

  it('deletes none when one id of the batch is unknown (404 code 1005)', async () => {
    const api = zoneApi(emu(), PRO);
    expectSingleError(await api.del(`/filters?id=${P.adminFilter}&id=00000000000000000000000000000000`), 404, NOT_FOUND);
    expect(await api.filters()).toHaveLength(3);
  });

  it('refuses a bulk delete without ids (400 code 10014)', async () => {
    const api = zoneApi(emu(), PRO);
    expectSingleError(await api.del('/filters'), 400, VALIDATION);
    expect(await api.filters()).toHaveLength(3);
  });
});

// Firewall rules: create.

describe('POST /firewall/rules', () => {
  const emu = freshEmulatorPerTest(() => ({ dataset: dataset() }));

  it.each([
    ['an object', inlineRule('ssl')],
    ['an empty array', []],
    ['null', null],
  ])('refuses a body that is %s (400 code 10014), creating nothing', async (_, body) => {
    const api = zoneApi(emu(), BUSINESS);
    const e = expectSingleError(await api.post('/firewall/rules', body), 400, VALIDATION);
    expect(e.message).toBe('request body must be a non-empty JSON array');
    expect(await snapshot(api)).toEqual({ filters: [], rules: [] });
  });

  it('creates an inline filter and its rule in one call', async () => {
    const api = zoneApi(emu(), BUSINESS);
    const expression = 'http.request.uri.path eq "/login"';
    const [rule] = expectOk(await api.post('/firewall/rules', [inlineRule(expression, 'managed_challenge', { description: 'login' })])) as ApiRule[];
    expect(rule).toMatchObject({ action: 'managed_challenge', paused: false, priority: null, description: 'login' });
    expect(rule!.filter).toEqual({ id: expect.any(String), expression, paused: false, description: '' });

    expect(await api.filters()).toEqual([rule!.filter]);
    expect(expectOk(await api.get(`/firewall/rules/${rule!.id}`))).toEqual(rule);
    expect(ids(await api.rules())).toEqual([rule!.id]);
  });

  it('creates a rule on an existing filter given as {id}, creating no filter', async () => {
    const api = zoneApi(emu(), PRO);
    const [rule] = expectOk(await api.post('/firewall/rules', [ruleOn(P.ipFilter, 'js_challenge', { priority: 7 })])) as ApiRule[];
    expect(rule).toMatchObject({ action: 'js_challenge', priority: 7 });
    expect(rule!.filter).toEqual({ id: P.ipFilter, expression: IP_EXPRESSION, paused: false, description: '' });
    expect(await api.filters()).toHaveLength(3);
    expect(await api.rules()).toHaveLength(5);
  });

  it('refuses an inline filter that duplicates an existing one (10102, meta.id), creating nothing', async () => {
    const api = zoneApi(emu(), PRO);
    const before = await snapshot(api);
    const e = expectSingleError(await api.post('/firewall/rules', [inlineRule(SHARED_EXPRESSION)]), 400, DUPLICATE_FILTER);
    expect(e.meta?.id).toBe(P.sharedFilter);
    expect(await snapshot(api)).toEqual(before);
  });

  it('creates neither filters nor rules when one item has an invalid action', async () => {
    const api = zoneApi(emu(), BUSINESS);
    const r = await api.post('/firewall/rules', [inlineRule('http.host eq "ok.example"'), inlineRule('http.host eq "bad.example"', 'drop')]);
    expect(expectSingleError(r, 400, VALIDATION).source?.pointer).toBe('/1/action');
    expect(await snapshot(api)).toEqual({ filters: [], rules: [] });
  });

  it('creates neither filters nor rules when one item has an unparsable filter', async () => {
    const api = zoneApi(emu(), BUSINESS);
    const r = await api.post('/firewall/rules', [inlineRule('http.host eq "ok.example"'), inlineRule('http.host equals "x"')]);
    expectParseError(r, '/1/filter/expression');
    expect(await snapshot(api)).toEqual({ filters: [], rules: [] });
  });

  it('creates neither filters nor rules when one item lacks a filter', async () => {
    const api = zoneApi(emu(), BUSINESS);
    const r = await api.post('/firewall/rules', [inlineRule('http.host eq "ok.example"'), { action: 'block' }]);
    expect(expectSingleError(r, 400, VALIDATION).source?.pointer).toBe('/1/filter');
    expect(await snapshot(api)).toEqual({ filters: [], rules: [] });
  });

  it('refuses a reference to an unknown filter id (code 1005), creating nothing', async () => {
    const api = zoneApi(emu(), PRO);
    const before = await snapshot(api);
    const r = await api.post('/firewall/rules', [inlineRule('http.host eq "ok.pro.example"'), ruleOn('00000000000000000000000000000000')]);
    const e = expectSingleError(r, 400, NOT_FOUND);
    expect(e.source?.pointer).toBe('/1/filter/id');
    expect(await snapshot(api)).toEqual(before);
  });

  it('needs products for a bypass rule', async () => {
    const api = zoneApi(emu(), BUSINESS);
    const without = await api.post('/firewall/rules', [inlineRule('http.host eq "a.example"', 'bypass')]);
    expect(expectSingleError(without, 400, VALIDATION).source?.pointer).toBe('/0/products');
    const unknown = await api.post('/firewall/rules', [inlineRule('http.host eq "a.example"', 'bypass', { products: ['everything'] })]);
    expectFailure(unknown, 400).forEach((e) => expect(e.code).toBe(VALIDATION));
    expect(await snapshot(api)).toEqual({ filters: [], rules: [] });

    const [rule] = expectOk(await api.post('/firewall/rules', [inlineRule('http.host eq "a.example"', 'bypass', { products: ['waf', 'uaBlock'] })])) as ApiRule[];
    expect(rule).toMatchObject({ action: 'bypass', products: ['waf', 'uaBlock'] });
    expect(expectOk(await api.get(`/firewall/rules/${rule!.id}`)).products).toEqual(['waf', 'uaBlock']);
  });

  it.each([-1, 2_147_483_648, 1.5, '1'])('refuses priority %j (code 10014)', async (priority) => {
    const api = zoneApi(emu(), BUSINESS);
    const r = await api.post('/firewall/rules', [inlineRule('http.host eq "p.example"', 'block', { priority })]);
    expect(expectSingleError(r, 400, VALIDATION).source?.pointer).toBe('/0/priority');
    expect(await snapshot(api)).toEqual({ filters: [], rules: [] });
  });

  it('accepts priorities 0, 2147483647 and null', async () => {
    const api = zoneApi(emu(), BUSINESS);
    const created = expectOk(
      await api.post('/firewall/rules', [
        inlineRule('http.host eq "p0.example"', 'block', { priority: 0 }),
        inlineRule('http.host eq "pmax.example"', 'block', { priority: 2_147_483_647 }),
        inlineRule('http.host eq "pnull.example"', 'block', { priority: null }),
      ]),
    ) as ApiRule[];
    expect(created.map((r) => r.priority)).toEqual([0, 2_147_483_647, null]);
    expect((await api.rules()).map((r) => r.priority).sort()).toEqual([0, 2_147_483_647, null].sort());
  });

  it('refuses a description over 500 characters and accepts 500 multibyte ones', async () => {
    const api = zoneApi(emu(), BUSINESS);
    const long = await api.post('/firewall/rules', [inlineRule('http.host eq "d.example"', 'block', { description: 'x'.repeat(501) })]);
    expect(expectSingleError(long, 400, VALIDATION).source?.pointer).toBe('/0/description');
    expect(await snapshot(api)).toEqual({ filters: [], rules: [] });

    const description = 'é'.repeat(499) + '😀';
    const [rule] = expectOk(await api.post('/firewall/rules', [inlineRule('http.host eq "d.example"', 'block', { description })])) as ApiRule[];
    expect(expectOk(await api.get(`/firewall/rules/${rule!.id}`)).description).toBe(description);
  });
});

// Firewall rules: partial creation (spec, Errors 5).

describe('POST /firewall/rules over the quota (free plan: 5 rules)', () => {
  const emu = freshEmulatorPerTest(() => ({ dataset: dataset() }));
  const first = 'http.request.uri.path eq "/over/1"';
  const second = 'http.request.uri.path eq "/over/2"';

  /** Two inline rules on a zone with 4 of 5: refused, but the filters stay behind. */
  async function exceedQuota(api: ZoneApi): Promise<{ first: ApiFilter; second: ApiFilter }> {
    const e = expectSingleError(await api.post('/firewall/rules', [inlineRule(first), inlineRule(second)]), 400, QUOTA_EXCEEDED);
    expect(e.message).toContain('quota');
    const filters = await api.filters();
    const find = (expression: string) => {
      const f = filters.find((x) => x.expression === expression);
      if (!f) throw new Error(`leftover filter ${expression} missing`);
      return f;
    };
    return { first: find(first), second: find(second) };
  }

  it('creates the inline filters but no rule', async () => {
    const api = zoneApi(emu(), FREE);
    const before = await snapshot(api);
    const leftovers = await exceedQuota(api);
    expect(leftovers.first).toMatchObject({ expression: first, paused: false });
    const after = await snapshot(api);
    expect(after.rules).toEqual(before.rules);
    expect(after.rules).toHaveLength(FREE_RULES);
    expect(after.filters).toHaveLength(FREE_RULES + 2);
    // Nothing references the leftovers: they are orphans the client must reuse.
    expect(after.rules.map((r) => r.filter.id)).not.toContain(leftovers.first.id);
  });

  it('lets the client find a leftover by re-posting its expression (10102, meta.id)', async () => {
    const api = zoneApi(emu(), FREE);
    const leftovers = await exceedQuota(api);
    const e = expectSingleError(await api.post('/firewall/rules', [inlineRule(first)]), 400, DUPLICATE_FILTER);
    expect(e.meta?.id).toBe(leftovers.first.id);
    expect(await api.rules()).toHaveLength(FREE_RULES);
    expect(await api.filters()).toHaveLength(FREE_RULES + 2);
  });

  it('accepts a rule referencing a leftover up to the quota, then refuses the next with 10019', async () => {
    const api = zoneApi(emu(), FREE);
    const leftovers = await exceedQuota(api);

    const [rule] = expectOk(await api.post('/firewall/rules', [ruleOn(leftovers.first.id)])) as ApiRule[];
    expect(rule!.filter).toEqual(leftovers.first);
    expect(await api.rules()).toHaveLength(5);

    expectSingleError(await api.post('/firewall/rules', [ruleOn(leftovers.second.id)]), 400, QUOTA_EXCEEDED);
    const after = await snapshot(api);
    expect(after.rules).toHaveLength(5);
    expect(after.filters).toHaveLength(FREE_RULES + 2);
  });
});

describe('POST /firewall/rules with a feature the plan lacks', () => {
  const emu = freshEmulatorPerTest(() => ({ dataset: dataset() }));

  it.each([FREE, PRO])('on %s, a regex rule is refused with 10020 but its filter is created', async (zone) => {
    const api = zoneApi(emu(), zone);
    const before = await snapshot(api);
    const e = expectSingleError(await api.post('/firewall/rules', [inlineRule(REGEX_EXPRESSION)]), 400, NOT_ENTITLED);
    expect(e.message).toContain('matches');
    const after = await snapshot(api);
    expect(after.rules).toEqual(before.rules);
    expect(expressions(after.filters)).toEqual(expressions([...before.filters, { expression: REGEX_EXPRESSION } as ApiFilter]));
  });

  it('on pro, referencing the leftover regex filter is still refused with 10020', async () => {
    const api = zoneApi(emu(), PRO);
    expectSingleError(await api.post('/firewall/rules', [inlineRule(REGEX_EXPRESSION)]), 400, NOT_ENTITLED);
    const leftover = (await api.filters()).find((f) => f.expression === REGEX_EXPRESSION)!;
    expectSingleError(await api.post('/firewall/rules', [ruleOn(leftover.id)]), 400, NOT_ENTITLED);
    expect(await api.rules()).toHaveLength(4);
  });

  it('on business, the same regex rule is created', async () => {
    const api = zoneApi(emu(), BUSINESS);
    const [rule] = expectOk(await api.post('/firewall/rules', [inlineRule(REGEX_EXPRESSION)])) as ApiRule[];
    expect((rule!.filter as ApiFilter).expression).toBe(REGEX_EXPRESSION);
    expect(ids(await api.rules())).toEqual([rule!.id]);
  });

  // vendor docs: firewall rules actions. The log action is available on Enterprise plans only.
  it('the log action needs enterprise: 10020 on business (its inline filter is left), created on enterprise', async () => {
    const business = zoneApi(emu(), BUSINESS);
    const e = expectSingleError(await business.post('/firewall/rules', [{ ...inlineRule('ip.src eq 192.0.2.77'), action: 'log' }]), 400, NOT_ENTITLED);
    expect(e.message).toContain('log');
    expect(await business.rules()).toEqual([]);
    expect(expressions(await business.filters())).toEqual(['ip.src eq 192.0.2.77']);
    const enterprise = zoneApi(emu(), ENTERPRISE);
    const [rule] = expectOk(await enterprise.post('/firewall/rules', [{ ...inlineRule('ip.src eq 192.0.2.77'), action: 'log' }])) as ApiRule[];
    expect(rule!.action).toBe('log');
  });

  it('bot management fields need enterprise: 10020 on business, created on enterprise', async () => {
    const business = zoneApi(emu(), BUSINESS);
    expectSingleError(await business.post('/firewall/rules', [inlineRule(BOT_EXPRESSION)]), 400, NOT_ENTITLED);
    expect(await business.rules()).toEqual([]);
    expect(expressions(await business.filters())).toEqual([BOT_EXPRESSION]);

    const enterprise = zoneApi(emu(), ENTERPRISE);
    const [rule] = expectOk(await enterprise.post('/firewall/rules', [inlineRule(BOT_EXPRESSION)])) as ApiRule[];
    expect(expectOk(await enterprise.get(`/firewall/rules/${rule!.id}`)).filter.expression).toBe(BOT_EXPRESSION);
  });
});

// Firewall rules: update and delete.

describe('PUT /firewall/rules/{id}', () => {
  const emu = freshEmulatorPerTest(() => ({ dataset: dataset() }));

  it('pauses a rule', async () => {
    const api = zoneApi(emu(), PRO);
    const updated = expectOk(await api.put(`/firewall/rules/${P.adminRule}`, ruleOn(P.adminFilter, 'block', { paused: true }))) as ApiRule;
    expect(updated).toMatchObject({ id: P.adminRule, paused: true, action: 'block' });
    expect(expectOk(await api.get(`/firewall/rules/${P.adminRule}`)).paused).toBe(true);
    expect(ids(expectOk(await api.get('/firewall/rules?paused=true')))).toEqual([P.adminRule]);
    // Pausing the rule leaves its filter alone.
    expect(expectOk(await api.get(`/filters/${P.adminFilter}`)).paused).toBe(false);
  });

  it('re-points a rule to another filter, keeping the old one', async () => {
    const api = zoneApi(emu(), PRO);
    const updated = expectOk(await api.put(`/firewall/rules/${P.adminRule}`, ruleOn(P.ipFilter, 'allow'))) as ApiRule;
    expect(updated.action).toBe('allow');
    expect(updated.filter).toEqual({ id: P.ipFilter, expression: IP_EXPRESSION, paused: false, description: '' });
    expect(expectOk(await api.get(`/firewall/rules/${P.adminRule}`)).filter.id).toBe(P.ipFilter);
    expect(ids(await api.filters())).toContain(P.adminFilter);
  });

  it('accepts the current filter restated with its unchanged expression', async () => {
    const api = zoneApi(emu(), PRO);
    const body = { action: 'log', filter: { id: P.adminFilter, expression: ADMIN_EXPRESSION } };
    expect(expectOk(await api.put(`/firewall/rules/${P.adminRule}`, body)).action).toBe('log');
  });

  it.each([
    ['its expression', { expression: 'http.request.uri.path eq "/hacked"' }],
    ['its paused flag', { paused: true }],
  ])('refuses to change the filter’s %s through the rule (400 code 10014)', async (_, change) => {
    const api = zoneApi(emu(), PRO);
    const before = await snapshot(api);
    const r = await api.put(`/firewall/rules/${P.adminRule}`, { action: 'log', filter: { id: P.adminFilter, ...change } });
    const e = expectSingleError(r, 400, VALIDATION);
    expect(e.message).toContain('/filters/');
    expect(await snapshot(api)).toEqual(before);
  });

  it('refuses an inline filter without id (filters change only through /filters)', async () => {
    const api = zoneApi(emu(), PRO);
    const before = await snapshot(api);
    expectSingleError(await api.put(`/firewall/rules/${P.adminRule}`, inlineRule('http.host eq "new.example"')), 400, VALIDATION);
    expect(await snapshot(api)).toEqual(before);
  });

  it('refuses an invalid action, changing nothing', async () => {
    const api = zoneApi(emu(), PRO);
    const before = await snapshot(api);
    expectSingleError(await api.put(`/firewall/rules/${P.adminRule}`, ruleOn(P.adminFilter, 'drop')), 400, VALIDATION);
    expect(await snapshot(api)).toEqual(before);
  });

  // These answered 500 before routes/firewall-rules.ts checked that the body is an object.
  it.each([['an array', [ruleOn(P.adminFilter)]], ['a JSON string', '"block"'], ['null', null]])(
    'refuses a body that is %s with 400, changing nothing',
    async (_, body) => {
      const api = zoneApi(emu(), PRO);
      const before = await snapshot(api);
      expectSingleError(await api.put(`/firewall/rules/${P.adminRule}`, body), 400, VALIDATION);
      expect(await snapshot(api)).toEqual(before);
    },
  );

  it('answers code 1005 for an unknown rule', async () => {
    const api = zoneApi(emu(), PRO);
    const errors = expectFailure(await api.put('/firewall/rules/00000000000000000000000000000000', ruleOn(P.adminFilter)), 404);
    expect(errors.map((e) => e.code)).toContain(NOT_FOUND);
    expect(await api.rules()).toHaveLength(4);
  });
});

describe('DELETE /firewall/rules', () => {
  const emu = freshEmulatorPerTest(() => ({ dataset: dataset() }));

  it('deletes a rule and leaves its filter, now orphaned', async () => {
    const api = zoneApi(emu(), PRO);
    expect(expectOk(await api.del(`/firewall/rules/${P.adminRule}`))).toEqual({ id: P.adminRule });
    expectSingleError(await api.get(`/firewall/rules/${P.adminRule}`), 404, NOT_FOUND);
    expect(ids(await api.rules())).toEqual([P.ipRule, P.sharedRule1, P.sharedRule2].sort());
    expect(ids(await api.filters())).toContain(P.adminFilter);
  });

  it('with delete_filter_if_unused=true also deletes a filter no other rule uses', async () => {
    const api = zoneApi(emu(), PRO);
    expectOk(await api.del(`/firewall/rules/${P.adminRule}?delete_filter_if_unused=true`));
    expectSingleError(await api.get(`/filters/${P.adminFilter}`), 404, NOT_FOUND);
    expect(ids(await api.filters())).toEqual([P.ipFilter, P.sharedFilter].sort());
  });

  it('with delete_filter_if_unused=true keeps a filter another rule still uses', async () => {
    const api = zoneApi(emu(), PRO);
    expectOk(await api.del(`/firewall/rules/${P.sharedRule1}?delete_filter_if_unused=true`));
    expect(expectOk(await api.get(`/filters/${P.sharedFilter}`)).expression).toBe(SHARED_EXPRESSION);
    expect(expectOk(await api.get(`/firewall/rules/${P.sharedRule2}`)).filter.id).toBe(P.sharedFilter);
  });

  it('deletes several with ?id=a&id=b, leaving their filters', async () => {
    const api = zoneApi(emu(), PRO);
    const result = expectOk(await api.del(`/firewall/rules?id=${P.adminRule}&id=${P.ipRule}`));
    expect(result).toEqual([{ id: P.adminRule }, { id: P.ipRule }]);
    expect(ids(await api.rules())).toEqual([P.sharedRule1, P.sharedRule2].sort());
    expect(await api.filters()).toHaveLength(3);
  });

  it('deletes both rules of a shared filter in one call and then the filter too', async () => {
    const api = zoneApi(emu(), PRO);
    expectOk(await api.del(`/firewall/rules?id=${P.sharedRule1}&id=${P.sharedRule2}&delete_filter_if_unused=true`));
    expect(ids(await api.filters())).toEqual([P.adminFilter, P.ipFilter].sort());
  });

  // This answered 500 before routes/firewall-rules.ts deduplicated the ids.
  it('tolerates the same id twice in a bulk delete', async () => {
    const api = zoneApi(emu(), PRO);
    const r = await api.del(`/firewall/rules?id=${P.adminRule}&id=${P.adminRule}&delete_filter_if_unused=true`);
    expect(new Set((expectOk(r) as Array<{ id: string }>).map((x) => x.id))).toEqual(new Set([P.adminRule]));
    expect(ids(await api.rules())).toEqual([P.ipRule, P.sharedRule1, P.sharedRule2].sort());
    expect(ids(await api.filters())).toEqual([P.ipFilter, P.sharedFilter].sort());
  });

  it('deletes none when one id of the batch is unknown (404 code 1005)', async () => {
    const api = zoneApi(emu(), PRO);
    expectSingleError(await api.del(`/firewall/rules?id=${P.adminRule}&id=00000000000000000000000000000000`), 404, NOT_FOUND);
    expect(await api.rules()).toHaveLength(4);
  });

  it('refuses a bulk delete without ids (400 code 10014)', async () => {
    const api = zoneApi(emu(), PRO);
    expectSingleError(await api.del('/firewall/rules'), 400, VALIDATION);
    expect(await api.rules()).toHaveLength(4);
  });
});

// Request bodies.

describe('JSON bodies', () => {
  const emu = freshEmulatorPerTest(() => ({ dataset: dataset() }));

  const validBody: Record<string, unknown> = {
    'POST /firewall/rules': [inlineRule('http.host eq "body.pro.example"')],
    'POST /filters': [{ expression: 'http.host eq "body.pro.example"' }],
    [`PUT /filters/${P.adminFilter}`]: { expression: 'http.host eq "body.pro.example"' },
    [`PUT /firewall/rules/${P.adminRule}`]: ruleOn(P.ipFilter, 'log'),
  };
  const routes = Object.keys(validBody);

  /** Sends bytes exactly as given: `raw` would add a JSON content type. */
  async function send(api: ZoneApi, route: string, body: string, contentType: string | null): Promise<RawAnswer> {
    const [method, path] = route.split(' ') as [string, string];
    const headers: Record<string, string> = { authorization: 'Bearer emulator-token' };
    if (contentType !== null) headers['content-type'] = contentType;
    const res = await fetch(`${emu().url}${api.base}${path}`, { method, headers, body: Buffer.from(body) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: JSON.parse(text) };
  }

  it.each(routes)('%s refuses a JSON body sent as text/plain (6007), changing nothing', async (route) => {
    const api = zoneApi(emu(), PRO);
    const before = await snapshot(api);
    const e = expectSingleError(await send(api, route, JSON.stringify(validBody[route]), 'text/plain'), 400, MALFORMED_JSON);
    expect(e.message).toContain('Content-Type');
    expect(await snapshot(api)).toEqual(before);
  });

  it.each(routes)('%s refuses a JSON body without any Content-Type (6007)', async (route) => {
    const api = zoneApi(emu(), PRO);
    const before = await snapshot(api);
    expectSingleError(await send(api, route, JSON.stringify(validBody[route]), null), 400, MALFORMED_JSON);
    expect(await snapshot(api)).toEqual(before);
  });

  it.each(routes)('%s refuses malformed JSON (6007)', async (route) => {
    const api = zoneApi(emu(), PRO);
    const before = await snapshot(api);
    const e = expectSingleError(await send(api, route, '[{"action": "block", "filter": {', 'application/json'), 400, MALFORMED_JSON);
    expect(e.message).toContain('Malformed JSON');
    expect(await snapshot(api)).toEqual(before);
  });

  it('the same body with the JSON content type is accepted (the control case)', async () => {
    const api = zoneApi(emu(), PRO);
    const created = expectOk(await send(api, 'POST /filters', JSON.stringify(validBody['POST /filters']), 'application/json; charset=utf-8'));
    expect(created).toHaveLength(1);
    expect(await api.filters()).toHaveLength(4);
  });
});
