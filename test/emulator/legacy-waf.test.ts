/**
 * Conformance of the emulator's previous managed rules (legacy WAF) over real HTTP: packages,
 * groups, rules, their PATCHes, URI-based overrides (Enterprise only), and the end of it all once
 * a zone has migrated. The dataset is inline so counts and modes are known exactly.
 */
import { describe, expect, it } from 'vitest';
import type { DatasetFile, DatasetWaf, DatasetWafPackage, DatasetZone } from '../../src/emulator/datasets/format.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { emulatorPerDescribe, freshEmulatorPerTest, get, raw, zoneId, type RawAnswer } from '../support/http.js';
import { expectFailure, expectOk } from '../support/envelope.js';

/** Emulator error codes (src/emulator/http/envelope.ts), spelled out so a renumbering fails here. */
const CODE = { notFound: 1005, validation: 10014, legacyWafGone: 10601, overridesNotEntitled: 10602 };

const MANAGED = 'pkg-managed';
const OWASP = 'pkg-owasp';

// Dataset.

/**
 * The traditional package: WordPress carries a group override (off, default on) and one rule
 * override; PHP has two rule overrides; Miscellaneous none.
 */
function managedPackage(): DatasetWafPackage {
  return {
    id: MANAGED,
    name: 'Cloudflare Managed Ruleset',
    detection_mode: 'traditional',
    groups: [
      {
        id: 'grp-wp',
        name: 'Cloudflare WordPress',
        mode: 'off',
        default_mode: 'on',
        rules: [
          { id: '100001', description: 'WordPress login brute force' },
          { id: '100002', description: 'WordPress XML-RPC', mode: 'simulate' },
        ],
      },
      {
        id: 'grp-php',
        name: 'Cloudflare PHP',
        rules: [
          { id: '100101', description: 'PHP object injection' },
          { id: '100102', description: 'PHP code injection', mode: 'disable' },
          { id: '100103', description: 'PHP file inclusion', mode: 'challenge' },
        ],
      },
      { id: 'grp-misc', name: 'Cloudflare Miscellaneous', rules: [{ id: '100201', description: 'Generic SQLi' }] },
    ],
  };
}

/** The anomaly package: sensitivity and action mode; rules have on/off modes. */
function owaspPackage(): DatasetWafPackage {
  return {
    id: OWASP,
    name: 'OWASP ModSecurity Core Rule Set',
    detection_mode: 'anomaly',
    sensitivity: 'medium',
    action_mode: 'simulate',
    groups: [
      {
        id: 'grp-xss',
        name: 'OWASP XSS Attacks',
        rules: [
          { id: '958001', description: 'XSS via script tag', mode: 'off' },
          { id: '958002', description: 'XSS via event handler' },
        ],
      },
    ],
  };
}

function legacyWaf(extra: Partial<DatasetWaf> = {}): DatasetWaf {
  return { packages: [managedPackage(), owaspPackage()], ...extra };
}

/** Seven packages given out of name order, to see sorting and paging. */
function manyPackages(): DatasetWafPackage[] {
  return ['E', 'B', 'G', 'A', 'F', 'C', 'D'].map((letter) => ({ id: `pkg-${letter.toLowerCase()}`, name: `Package ${letter}` }));
}

function dataset(): DatasetFile {
  const zones: DatasetZone[] = [
    {
      name: 'legacy-ent.example',
      plan: 'enterprise',
      waf: legacyWaf({
        overrides: [
          { id: 'ovr-export', description: 'CSV export', urls: ['legacy-ent.example/export*'], rules: { '100001': 'disable' } },
          { id: 'ovr-cms', urls: ['legacy-ent.example/cms/*'], paused: true, groups: { 'grp-php': 'off' } },
        ],
      }),
    },
    { name: 'legacy-biz.example', plan: 'business', waf: legacyWaf() },
    { name: 'legacy-many.example', plan: 'enterprise', waf: { packages: manyPackages() } },
    { name: 'legacy-validation.example', plan: 'enterprise', waf: legacyWaf(), migration: { state: 'validation' } },
    { name: 'legacy-done.example', plan: 'enterprise', waf: legacyWaf(), migration: { state: 'complete' } },
  ];
  return { version: 1, accounts: [{ name: 'Legacy Co', type: 'enterprise', zones }] };
}

const ids = (items: Array<{ id: string }>) => items.map((i) => i.id);

/** `/zones/{id}/firewall/waf` of the named zone. */
function wafPath(emu: RunningEmulator, zone: string): string {
  return `/zones/${zoneId(emu, zone)}/firewall/waf`;
}

function packagesPath(emu: RunningEmulator, zone: string, rest = ''): string {
  return `${wafPath(emu, zone)}/packages${rest}`;
}

function patch(emu: RunningEmulator, path: string, body: unknown): Promise<RawAnswer> {
  return raw(emu, 'PATCH', path, { body });
}

// Reads.

describe('legacy WAF reads', () => {
  const emu = emulatorPerDescribe(() => ({ dataset: dataset() }));

  it('lists both packages with their detection mode; only OWASP has sensitivity and action_mode', async () => {
    const r = await get(emu(), packagesPath(emu(), 'legacy-ent.example'));
    const packages = expectOk(r);
    expect(r.json.result_info).toEqual({ page: 1, per_page: 50, count: 2, total_count: 2 });
    const managed = packages.find((p: { id: string }) => p.id === MANAGED);
    const owasp = packages.find((p: { id: string }) => p.id === OWASP);
    expect(managed).toMatchObject({ name: 'Cloudflare Managed Ruleset', detection_mode: 'traditional', zone_id: zoneId(emu(), 'legacy-ent.example') });
    expect(managed).not.toHaveProperty('sensitivity');
    expect(managed).not.toHaveProperty('action_mode');
    expect(owasp).toMatchObject({ name: 'OWASP ModSecurity Core Rule Set', detection_mode: 'anomaly', sensitivity: 'medium', action_mode: 'simulate' });
  });

  it('clamps per_page to 5..100 (default 50) and reports the effective size', async () => {
    const cases: Array<[string, number]> = [
      ['', 50],
      ['?per_page=5', 5],
      ['?per_page=1', 5],
      ['?per_page=100', 100],
      ['?per_page=500', 100],
    ];
    for (const [query, perPage] of cases) {
      const r = await get(emu(), packagesPath(emu(), 'legacy-many.example', query));
      expectOk(r);
      expect(r.json.result_info.per_page, query).toBe(perPage);
      expect(r.json.result_info.total_count).toBe(7);
    }
  });

  it('orders by name in both directions and pages through them', async () => {
    const asc = expectOk(await get(emu(), packagesPath(emu(), 'legacy-many.example', '?order=name&direction=asc&per_page=5')));
    expect(asc.map((p: { name: string }) => p.name)).toEqual(['Package A', 'Package B', 'Package C', 'Package D', 'Package E']);
    const page2 = await get(emu(), packagesPath(emu(), 'legacy-many.example', '?order=name&direction=asc&per_page=5&page=2'));
    expect(ids(expectOk(page2))).toEqual(['pkg-f', 'pkg-g']);
    expect(page2.json.result_info).toEqual({ page: 2, per_page: 5, count: 2, total_count: 7 });
    // The spec's upper-case spelling is accepted too.
    const desc = expectOk(await get(emu(), packagesPath(emu(), 'legacy-many.example', '?order=name&direction=DESC')));
    expect(ids(desc)).toEqual(['pkg-g', 'pkg-f', 'pkg-e', 'pkg-d', 'pkg-c', 'pkg-b', 'pkg-a']);
  });

  it('rejects an unknown order field or direction with 400', async () => {
    expectFailure(await get(emu(), packagesPath(emu(), 'legacy-many.example', '?order=id')), 400, CODE.validation);
    expectFailure(await get(emu(), packagesPath(emu(), 'legacy-many.example', '?direction=sideways')), 400, CODE.validation);
  });

  it('gets one package by id; an unknown id is 404', async () => {
    expect(expectOk(await get(emu(), packagesPath(emu(), 'legacy-ent.example', `/${OWASP}`)))).toMatchObject({ id: OWASP, sensitivity: 'medium' });
    expectFailure(await get(emu(), packagesPath(emu(), 'legacy-ent.example', '/pkg-nope')), 404, CODE.notFound);
  });

  it('lists groups with rules_count and modified_rules_count counting rule overrides', async () => {
    const r = await get(emu(), packagesPath(emu(), 'legacy-ent.example', `/${MANAGED}/groups`));
    const groups = expectOk(r);
    expect(r.json.result_info).toMatchObject({ per_page: 50, count: 3, total_count: 3 });
    const summary = groups.map((g: Record<string, unknown>) => [g['id'], g['mode'], g['rules_count'], g['modified_rules_count']]);
    expect(summary).toEqual([
      ['grp-wp', 'off', 2, 1],
      ['grp-php', 'on', 3, 2],
      ['grp-misc', 'on', 1, 0],
    ]);
    expect(groups[0]).toMatchObject({ name: 'Cloudflare WordPress', package_id: MANAGED, allowed_modes: ['on', 'off'] });
  });

  it('filters groups by mode and gets one group by id', async () => {
    expect(ids(expectOk(await get(emu(), packagesPath(emu(), 'legacy-ent.example', `/${MANAGED}/groups?mode=off`))))).toEqual(['grp-wp']);
    expect(ids(expectOk(await get(emu(), packagesPath(emu(), 'legacy-ent.example', `/${MANAGED}/groups?mode=on`))))).toEqual(['grp-php', 'grp-misc']);
    expect(expectOk(await get(emu(), packagesPath(emu(), 'legacy-ent.example', `/${MANAGED}/groups/grp-php`)))).toMatchObject({ rules_count: 3, modified_rules_count: 2 });
    expectFailure(await get(emu(), packagesPath(emu(), 'legacy-ent.example', `/${MANAGED}/groups/grp-xss`)), 404, CODE.notFound);
  });

  it('lists every rule of a package with mode and default_mode', async () => {
    const r = await get(emu(), packagesPath(emu(), 'legacy-ent.example', `/${MANAGED}/rules`));
    const rules = expectOk(r);
    expect(r.json.result_info).toMatchObject({ per_page: 50, count: 6, total_count: 6 });
    expect(ids(rules)).toEqual(['100001', '100002', '100101', '100102', '100103', '100201']);
    expect(rules[1]).toMatchObject({ mode: 'simulate', default_mode: 'block', group: { id: 'grp-wp', name: 'Cloudflare WordPress' }, package_id: MANAGED });
    // Anomaly (OWASP) rules switch on/off and state no default_mode in the real API
    // (the legacy WAF rules API: default_mode only on rules of the vendor's own packages).
    const owaspRules = expectOk(await get(emu(), packagesPath(emu(), 'legacy-ent.example', `/${OWASP}/rules`)));
    expect(owaspRules.map((x: Record<string, unknown>) => [x['id'], x['mode'], 'default_mode' in x])).toEqual([
      ['958001', 'off', false],
      ['958002', 'on', false],
    ]);
    const one = expectOk(await get(emu(), packagesPath(emu(), 'legacy-ent.example', `/${OWASP}/rules/958001`)));
    expect(one).not.toHaveProperty('default_mode');
  });

  it('filters rules by mode and by group_id (repeated or comma-separated)', async () => {
    const list = async (query: string) => ids(expectOk(await get(emu(), packagesPath(emu(), 'legacy-ent.example', `/${MANAGED}/rules${query}`))));
    expect(await list('?mode=block')).toEqual(['100001', '100101', '100201']);
    expect(await list('?mode=disable')).toEqual(['100102']);
    expect(await list('?group_id=grp-php')).toEqual(['100101', '100102', '100103']);
    expect(await list('?group_id=grp-wp&group_id=grp-misc')).toEqual(['100001', '100002', '100201']);
    expect(await list('?group_id=grp-wp,grp-misc')).toEqual(['100001', '100002', '100201']);
    expect(await list('?group_id=grp-php&mode=challenge')).toEqual(['100103']);
  });

  it('lists URI-based overrides on an Enterprise zone and gets one by id', async () => {
    const r = await get(emu(), `${wafPath(emu(), 'legacy-ent.example')}/overrides`);
    const overrides = expectOk(r);
    expect(r.json.result_info).toMatchObject({ per_page: 50, count: 2, total_count: 2 });
    expect(overrides[0]).toMatchObject({ id: 'ovr-export', urls: ['legacy-ent.example/export*'], rules: { '100001': 'disable' }, paused: false });
    expect(overrides[1]).toMatchObject({ id: 'ovr-cms', paused: true, groups: { 'grp-php': 'off' } });
    expect(expectOk(await get(emu(), `${wafPath(emu(), 'legacy-ent.example')}/overrides/ovr-cms`))).toMatchObject({ id: 'ovr-cms' });
    expectFailure(await get(emu(), `${wafPath(emu(), 'legacy-ent.example')}/overrides/ovr-nope`), 404, CODE.notFound);
  });

  it('answers 403 code 10602 for overrides on a non-Enterprise zone', async () => {
    expectFailure(await get(emu(), `${wafPath(emu(), 'legacy-biz.example')}/overrides`), 403, CODE.overridesNotEntitled);
    expectFailure(await get(emu(), `${wafPath(emu(), 'legacy-biz.example')}/overrides/ovr-export`), 403, CODE.overridesNotEntitled);
    // Packages still work there: only overrides are an Enterprise feature.
    expect(ids(expectOk(await get(emu(), packagesPath(emu(), 'legacy-biz.example'))))).toHaveLength(2);
  });

  it('keeps working in validation mode, where both versions run', async () => {
    expect(ids(expectOk(await get(emu(), packagesPath(emu(), 'legacy-validation.example'))))).toHaveLength(2);
    expectOk(await get(emu(), `${wafPath(emu(), 'legacy-validation.example')}/overrides`));
  });
});

// Writes.

describe('legacy WAF writes', () => {
  const emu = freshEmulatorPerTest(() => ({ dataset: dataset() }));
  const owaspPath = () => packagesPath(emu(), 'legacy-ent.example', `/${OWASP}`);

  it('PATCHes the OWASP sensitivity and action mode, and a re-read shows them', async () => {
    expect(expectOk(await patch(emu(), owaspPath(), { sensitivity: 'low' }))).toMatchObject({ sensitivity: 'low', action_mode: 'simulate' });
    expect(expectOk(await patch(emu(), owaspPath(), { action_mode: 'block' }))).toMatchObject({ sensitivity: 'low', action_mode: 'block' });
    expect(expectOk(await get(emu(), owaspPath()))).toMatchObject({ sensitivity: 'low', action_mode: 'block' });
  });

  it('feeds the new sensitivity into the migration config (low -> PL1, threshold 40)', async () => {
    expectOk(await patch(emu(), owaspPath(), { sensitivity: 'low', action_mode: 'challenge' }));
    const config = expectOk(await get(emu(), `/zones/${zoneId(emu(), 'legacy-ent.example')}/waf_migration/config?phase_two=1`));
    const owasp = config.rules.find((r: { action_parameters?: { id?: string } }) => r.action_parameters?.id === '4814384a9e5d4991b9815dcfc25d2f1f');
    expect(owasp.action_parameters.overrides.rules[0]).toMatchObject({ action: 'challenge', score_threshold: 40 });
    expect(owasp.action_parameters.overrides.categories.map((c: { category: string }) => c.category)).toEqual([
      'paranoia-level-2',
      'paranoia-level-3',
      'paranoia-level-4',
    ]);
  });

  it('rejects invalid sensitivity and action mode values, changing nothing', async () => {
    expectFailure(await patch(emu(), owaspPath(), { sensitivity: 'extreme' }), 400, CODE.validation);
    expectFailure(await patch(emu(), owaspPath(), { action_mode: 'log' }), 400, CODE.validation);
    expect(expectOk(await get(emu(), owaspPath()))).toMatchObject({ sensitivity: 'medium', action_mode: 'simulate' });
  });

  it('applies nothing of a PATCH that is half valid', async () => {
    // A failed request must not leave the valid half behind.
    expectFailure(await patch(emu(), owaspPath(), { sensitivity: 'low', action_mode: 'log' }), 400, CODE.validation);
    expect(expectOk(await get(emu(), owaspPath()))).toMatchObject({ sensitivity: 'medium', action_mode: 'simulate' });
  });

  it('refuses sensitivity and action mode on the traditional package', async () => {
    const path = packagesPath(emu(), 'legacy-ent.example', `/${MANAGED}`);
    expectFailure(await patch(emu(), path, { sensitivity: 'low' }), 400, CODE.validation);
    expectFailure(await patch(emu(), path, { action_mode: 'block' }), 400, CODE.validation);
    expect(expectOk(await get(emu(), path))).not.toHaveProperty('sensitivity');
  });

  it('PATCHes a group mode within allowed_modes; other values are refused', async () => {
    const path = packagesPath(emu(), 'legacy-ent.example', `/${MANAGED}/groups/grp-misc`);
    expect(expectOk(await patch(emu(), path, { mode: 'off' }))).toMatchObject({ id: 'grp-misc', mode: 'off' });
    expect(expectOk(await get(emu(), path)).mode).toBe('off');
    for (const mode of ['disable', 'block', '', 1]) {
      expectFailure(await patch(emu(), path, { mode }), 400, CODE.validation);
    }
    expectFailure(await patch(emu(), path, {}), 400, CODE.validation);
    expect(expectOk(await get(emu(), path)).mode).toBe('off');
  });

  it('PATCHes a traditional rule mode within its allowed_modes and counts it as an override', async () => {
    const rulePath = packagesPath(emu(), 'legacy-ent.example', `/${MANAGED}/rules/100201`);
    const groupPath = packagesPath(emu(), 'legacy-ent.example', `/${MANAGED}/groups/grp-misc`);
    expect(expectOk(await patch(emu(), rulePath, { mode: 'challenge' }))).toMatchObject({ id: '100201', mode: 'challenge', default_mode: 'block' });
    expect(expectOk(await get(emu(), rulePath)).mode).toBe('challenge');
    expect(expectOk(await get(emu(), groupPath)).modified_rules_count).toBe(1);
    // on/off are anomaly modes, not traditional ones.
    expectFailure(await patch(emu(), rulePath, { mode: 'on' }), 400, CODE.validation);
    expect(expectOk(await get(emu(), rulePath)).mode).toBe('challenge');
    // Back to its default mode: no longer an override.
    expectOk(await patch(emu(), rulePath, { mode: 'block' }));
    expect(expectOk(await get(emu(), groupPath)).modified_rules_count).toBe(0);
  });

  it('PATCHes an anomaly rule between on and off only', async () => {
    const rulePath = packagesPath(emu(), 'legacy-ent.example', `/${OWASP}/rules/958002`);
    expect(expectOk(await patch(emu(), rulePath, { mode: 'off' })).mode).toBe('off');
    expectFailure(await patch(emu(), rulePath, { mode: 'block' }), 400, CODE.validation);
    expect(expectOk(await get(emu(), rulePath)).mode).toBe('off');
    expect(expectOk(await get(emu(), packagesPath(emu(), 'legacy-ent.example', `/${OWASP}/groups/grp-xss`))).modified_rules_count).toBe(2);
    // A rule of another package is not found through this one.
    expectFailure(await patch(emu(), packagesPath(emu(), 'legacy-ent.example', `/${OWASP}/rules/100201`), { mode: 'off' }), 404, CODE.notFound);
  });

  it('DELETEs an override, which then disappears from the list', async () => {
    const base = `${wafPath(emu(), 'legacy-ent.example')}/overrides`;
    expect(expectOk(await raw(emu(), 'DELETE', `${base}/ovr-export`))).toEqual({ id: 'ovr-export' });
    expect(ids(expectOk(await get(emu(), base)))).toEqual(['ovr-cms']);
    expectFailure(await raw(emu(), 'DELETE', `${base}/ovr-export`), 404, CODE.notFound);
  });
});

// After the migration.

/** Every legacy endpoint, as [method, path, body] for the named zone. */
function everyLegacyEndpoint(emu: RunningEmulator, zone: string): Array<[string, string, unknown]> {
  const pkg = (rest: string) => packagesPath(emu, zone, rest);
  const overrides = `${wafPath(emu, zone)}/overrides`;
  return [
    ['GET', pkg(''), undefined],
    ['GET', pkg(`/${OWASP}`), undefined],
    ['PATCH', pkg(`/${OWASP}`), { sensitivity: 'low' }],
    ['GET', pkg(`/${MANAGED}/groups`), undefined],
    ['GET', pkg(`/${MANAGED}/groups/grp-wp`), undefined],
    ['PATCH', pkg(`/${MANAGED}/groups/grp-wp`), { mode: 'on' }],
    ['GET', pkg(`/${MANAGED}/rules`), undefined],
    ['GET', pkg(`/${MANAGED}/rules/100001`), undefined],
    ['PATCH', pkg(`/${MANAGED}/rules/100001`), { mode: 'simulate' }],
    ['GET', overrides, undefined],
    ['GET', `${overrides}/ovr-export`, undefined],
    ['DELETE', `${overrides}/ovr-export`, undefined],
  ];
}

describe('legacy WAF after the migration', () => {
  const emu = freshEmulatorPerTest(() => ({ dataset: dataset() }));

  async function expectAllGone(zone: string): Promise<void> {
    for (const [method, path, body] of everyLegacyEndpoint(emu(), zone)) {
      const r = await raw(emu(), method, path, body === undefined ? {} : { body });
      expect(r.status, `${method} ${path}`).toBe(400);
      expect(r.json.success).toBe(false);
      expect(r.json.errors[0].code, `${method} ${path}`).toBe(CODE.legacyWafGone);
    }
  }

  it('answers 400 code 10601 on every legacy endpoint of a zone migrated in the dataset', async () => {
    await expectAllGone('legacy-done.example');
  });

  it('answers 400 code 10601 once a zone migrates over HTTP, having worked just before', async () => {
    const zone = 'legacy-biz.example';
    expectOk(await get(emu(), packagesPath(emu(), zone)));
    const base = `/zones/${zoneId(emu(), zone)}`;
    const config = expectOk(await get(emu(), `${base}/waf_migration/config?phase_two=1`));
    expectOk(await raw(emu(), 'PUT', `${base}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=pending&phase_two=1`, { body: config }));
    await expectAllGone(zone);
  });
});
