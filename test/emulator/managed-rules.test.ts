/**
 * The situations of the API in late 2026 that the emulator must express: the managed phase entry
 * point of any zone, zones that never had the previous WAF (state none), the account-level managed
 * entry point, `ssl: origin_pull`, CAA records with `data` and no `content`, and a certificate pack
 * still initializing without `created_on`. Over real HTTP; datasets inline.
 */
import { describe, expect, it } from 'vitest';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import { buildOrganisation } from '../../src/emulator/datasets/index.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorPerDescribe, get, raw, zoneId } from '../support/http.js';
import { expectFailure, expectOk } from '../support/envelope.js';

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const ENTRYPOINT = '/rulesets/phases/http_request_firewall_managed/entrypoint';
const CODE = { rulesetNotFound: 10003, authentication: 10000, legacyWafGone: 10601, migrationRefused: 10600 };

const dataset: DatasetFile = {
  version: 1,
  accounts: [
    {
      name: 'Enterprise',
      type: 'enterprise',
      managed_rules: [
        { action: 'execute', expression: 'cf.zone.name eq "deployed.example"', action_parameters: { id: MANAGED } },
        { action: 'execute', expression: 'cf.zone.name in {"deployed.example" "partial.example"}', action_parameters: { id: OWASP }, enabled: false },
      ],
      managed_rules_since: 'now-5d',
      zones: [
        { name: 'deployed.example', plan: 'enterprise', migration: { state: 'none' }, security: { managed_rules: [] } },
        { name: 'partial.example', type: 'partial', plan: 'enterprise', migration: { state: 'none' } },
      ],
    },
    { name: 'Enterprise without rules', type: 'enterprise', zones: [] },
    {
      name: 'Standard',
      zones: [
        {
          name: 'skips.example',
          plan: 'business',
          migration: { state: 'none' },
          security: {
            settings: { ssl: 'origin_pull' },
            managed_rules: [
              { action: 'skip', expression: 'http.host eq "skips.example"', action_parameters: { ruleset: 'current' }, description: 'too broad' },
              { action: 'skip', expression: 'ip.src eq 203.0.113.9', action_parameters: { rules: { [MANAGED]: ['5de7edfa648c4d6891dc3e7f84534ffa'] } } },
              { action: 'execute', expression: 'http.request.uri.path contains "/shop/"', action_parameters: { id: MANAGED, overrides: { action: 'log' } } },
              { action: 'log', expression: 'true', enabled: false },
            ],
            managed_rules_since: 'now-2d',
          },
        },
        { name: 'native-pro.example', plan: 'pro', migration: { state: 'none' } },
        { name: 'native-free.example', plan: 'free', migration: { state: 'none' } },
        { name: 'not-started.example', plan: 'pro', waf: { enabled: true }, migration: { state: 'start' } },
        {
          name: 'caa.example',
          dns_records: [
            { type: 'A', name: '@', content: '192.0.2.10' },
            { type: 'CAA', name: '@', data: { flags: 0, tag: 'iodef', value: 'mailto:security@caa.example' } },
            { type: 'CAA', name: '@', content: '128 tbs "unknown"', data: { flags: 128, tag: 'tbs', value: 'unknown' } },
          ],
          certificate_packs: [
            { hosts: ['caa.example', '*.caa.example'], certificate_authority: 'google' },
            { type: 'advanced', hosts: ['caa.example'], status: 'initializing', created_on: null, certificates: [{ expires_on: null }] },
          ],
        },
      ],
    },
  ],
};

describe('managed phase entry point of any zone', () => {
  const emulator = emulatorPerDescribe({ dataset });
  const zone = (name: string, rest: string) => `/zones/${zoneId(emulator(), name)}${rest}`;

  it('serves the dataset rules in order with the vendor reference shapes', async () => {
    // vendor's API reference, rulesets: get a zone entry point ruleset: {id, name, description, kind, phase,
    // version, last_updated, rules}; each rule {id, version, action, expression, description, last_updated,
    // ref, enabled, action_parameters}. vendor docs, WAF: skip options ruleset "current", rulesets, rules;
    // execute overrides (ruleset-level action, enabled, categories, rules).
    const ruleset = expectOk(await get(emulator(), zone('skips.example', ENTRYPOINT)));
    expect(ruleset).toMatchObject({ kind: 'zone', phase: 'http_request_firewall_managed', version: '1', last_updated: '2026-10-30T12:00:00.000000Z', name: expect.any(String), description: '' });
    expect(ruleset.rules.map((r: { action: string; enabled: boolean }) => [r.action, r.enabled])).toEqual([
      ['skip', true],
      ['skip', true],
      ['execute', true],
      ['log', false],
    ]);
    for (const rule of ruleset.rules) {
      expect(Object.keys(rule).sort()).toEqual(
        ['action', 'description', 'enabled', 'expression', 'id', 'last_updated', 'ref', 'version', ...(rule.action === 'log' ? [] : ['action_parameters'])].sort(),
      );
    }
    expect(ruleset.rules[0]).toMatchObject({ expression: 'http.host eq "skips.example"', action_parameters: { ruleset: 'current' }, description: 'too broad' });
    expect(ruleset.rules[2].action_parameters).toEqual({ id: MANAGED, overrides: { action: 'log' } });
  });

  it('executes the managed ruleset on every request for a paid zone that never had the previous WAF', async () => {
    // API facts (late 2026): every zone created since 2022-09 has the new managed rules; emulator: a paid
    // zone's entry point then runs the managed ruleset on `true`, as the migration deploys it.
    const ruleset = expectOk(await get(emulator(), zone('native-pro.example', ENTRYPOINT)));
    expect(ruleset.rules).toHaveLength(1);
    expect(ruleset.rules[0]).toMatchObject({ action: 'execute', expression: 'true', enabled: true, action_parameters: { id: MANAGED } });
  });

  it('answers 404 code 10003 where no entry point was written, and an empty ruleset for managed_rules: []', async () => {
    // vendor docs, rulesets: a phase entry point that does not exist answers 404 (code 10003 in the wild).
    expectFailure(await get(emulator(), zone('native-free.example', ENTRYPOINT)), 404, CODE.rulesetNotFound);
    expectFailure(await get(emulator(), zone('not-started.example', ENTRYPOINT)), 404, CODE.rulesetNotFound);
    expect(expectOk(await get(emulator(), zone('deployed.example', ENTRYPOINT))).rules).toEqual([]);
  });
});

describe('zones that never had the previous WAF (migration state none)', () => {
  const emulator = emulatorPerDescribe({ dataset });
  const zone = (name: string, rest: string) => `/zones/${zoneId(emulator(), name)}${rest}`;

  it('answers the status with both switches and no migration_state', async () => {
    // API facts (late 2026): zones created since 2022-09 have no migration state. The vendor publishes no
    // schema for the status: the two switches without migration_state are the emulator's guess.
    expect(expectOk(await get(emulator(), zone('native-pro.example', '/waf_migration/status')))).toEqual({ old_waf_status: 'disabled', new_waf_status: 'enabled' });
  });

  it('answers the check as compatible without a state, and refuses a migration PUT', async () => {
    // Emulator's guess (no published schema): nothing blocks such a zone; there is nothing to migrate.
    expect(expectOk(await get(emulator(), zone('native-pro.example', '/waf_migration/check?phase_two=1')))).toEqual({ compatible: true });
    const put = await raw(emulator(), 'PUT', zone('native-pro.example', `${ENTRYPOINT}?waf_migration=pending&phase_two=1`), { body: { name: 'default', rules: [] } });
    expectFailure(put, 400, CODE.migrationRefused);
  });

  it('answers the previous WAF endpoints as for a migrated zone', async () => {
    // API spec, States rule 2: the previous managed rules' endpoints stop working for a migrated zone.
    expectFailure(await get(emulator(), zone('native-pro.example', '/firewall/waf/packages')), 400, CODE.legacyWafGone);
  });
});

describe('account-level managed entry point', () => {
  const emulator = emulatorPerDescribe({ dataset });
  const account = (name: string) => emulator().org.state.accounts.find((a) => a.name === name)!.id;

  it('serves an Enterprise account its root ruleset, rules narrowed by cf.zone.name', async () => {
    // vendor's API reference, rulesets: get an account entry point ruleset (kind root); vendor docs, WAF: deploy
    // a managed ruleset at the account level with an expression on cf.zone.name (Enterprise).
    const ruleset = expectOk(await get(emulator(), `/accounts/${account('Enterprise')}${ENTRYPOINT}`));
    expect(ruleset).toMatchObject({ kind: 'root', phase: 'http_request_firewall_managed', version: '1', last_updated: '2026-10-27T12:00:00.000000Z' });
    expect(ruleset.rules.map((r: { expression: string; enabled: boolean }) => [r.expression, r.enabled])).toEqual([
      ['cf.zone.name eq "deployed.example"', true],
      ['cf.zone.name in {"deployed.example" "partial.example"}', false],
    ]);
  });

  it('answers 404 code 10003 without rules, and 403 code 10000 for a standard account', async () => {
    // vendor docs, rulesets: no entry point yet answers 404 (10003 in the wild). The 403 with code 10000 for an
    // account without the Enterprise feature is the emulator's guess (the vendor does not publish it).
    expectFailure(await get(emulator(), `/accounts/${account('Enterprise without rules')}${ENTRYPOINT}`), 404, CODE.rulesetNotFound);
    expectFailure(await get(emulator(), `/accounts/${account('Standard')}${ENTRYPOINT}`), 403, CODE.authentication);
  });
});

describe('zone types, settings, CAA and packs', () => {
  const emulator = emulatorPerDescribe({ dataset });
  const zone = (name: string, rest: string) => `/zones/${zoneId(emulator(), name)}${rest}`;

  it('serves a partial zone with its type, DNSSEC status and settings like any zone', async () => {
    // API facts: zone type full | partial | secondary; the DNSSEC endpoint answers its status for any zone.
    expect(expectOk(await get(emulator(), zone('partial.example', ''))).type).toBe('partial');
    expect(expectOk(await get(emulator(), zone('partial.example', '/dnssec'))).status).toBe('disabled');
  });

  it('accepts and serves ssl origin_pull', async () => {
    // vendor docs (SSL/TLS encryption modes, late 2026): ssl also takes origin_pull, validated as Full (strict).
    expect(expectOk(await get(emulator(), zone('skips.example', '/settings/ssl'))).value).toBe('origin_pull');
  });

  it('serves CAA records with data, without content when the dataset gives none', async () => {
    // Answers in the wild (the vendor's Terraform exporter's recorded CAA answers): CAA records carry
    // data {flags, tag, value} and may have no content. RFC 8659 4: flags 128 marks a critical tag.
    const records = expectOk(await get(emulator(), zone('caa.example', '/dns_records?type=CAA')));
    expect(records).toHaveLength(2);
    expect(records[0].data).toEqual({ flags: 0, tag: 'iodef', value: 'mailto:security@caa.example' });
    expect(records[0]).not.toHaveProperty('content');
    expect(records[1]).toMatchObject({ content: '128 tbs "unknown"', data: { flags: 128, tag: 'tbs', value: 'unknown' } });
  });

  it('reports the universal CA of the zone pack, and serves an initializing pack without created_on', async () => {
    // Answers in the wild: GET /ssl/universal/settings adds certificate_authority to {enabled}. API facts:
    // a pack being issued may lack dates; the emulator serves created_on absent when the dataset says null.
    expect(expectOk(await get(emulator(), zone('caa.example', '/ssl/universal/settings')))).toEqual({ enabled: true, certificate_authority: 'google' });
    const packs = expectOk(await get(emulator(), zone('caa.example', '/ssl/certificate_packs?status=all')));
    const initializing = packs.find((p: { status: string }) => p.status === 'initializing');
    expect(initializing).toBeDefined();
    expect(initializing).not.toHaveProperty('created_on');
    expect(initializing.certificates[0]).not.toHaveProperty('expires_on');
  });
});

describe('the new situations in the dataset format', () => {
  const load = (file: unknown) => () => buildOrganisation(file as DatasetFile, new Date('2026-11-01T00:00:00Z'));
  const oneZone = (zone: Record<string, unknown>, account: Record<string, unknown> = {}) => ({ version: 1, accounts: [{ name: 'A', ...account, zones: [{ name: 'a.example', ...zone }] }] });

  it('refuses account managed rules on a standard account, and malformed managed rules', () => {
    // vendor docs, WAF: account-level deployment of managed rulesets is an Enterprise feature.
    expect(load({ version: 1, accounts: [{ name: 'A', managed_rules: [] }] })).toThrow(/accounts\[0\]\.managed_rules: .*enterprise/);
    expect(load(oneZone({ security: { managed_rules: [{ action: 'execute', expression: 'true' }] } }))).toThrow(/action_parameters/);
    expect(load(oneZone({ security: { managed_rules: [{ action: 'skip', expression: 'true', action_parameters: { products: ['waf'] } }] } }))).toThrow(/skip rule names what it skips/);
    expect(load(oneZone({ security: { managed_rules: [{ action: 'block', expression: 'true' }] } }))).toThrow(/managed_rules\[0\]\.action/);
  });

  it('refuses enabled managed rules before the migration, and previous-WAF data on a zone that never had it', () => {
    // API facts: before migrating, a zone may store only disabled rules in the managed entry point.
    const enabled = [{ action: 'execute', expression: 'true', action_parameters: { id: MANAGED } }];
    expect(load(oneZone({ plan: 'pro', security: { managed_rules: enabled } }))).toThrow(/disabled rules only/);
    expect(load(oneZone({ plan: 'pro', security: { managed_rules: [{ ...enabled[0], enabled: false }] } }))).not.toThrow();
    expect(load(oneZone({ plan: 'pro', waf: { packages: [{ name: 'p' }] }, migration: { state: 'none' } }))).toThrow(/never had the previous WAF/);
  });

  it('requires content on a record without data', () => {
    expect(load(oneZone({ dns_records: [{ type: 'A', name: '@' }] }))).toThrow(/dns_records\[0\]\.content/);
  });
});

describe("the tests' organisation serves the new situations", () => {
  const emulator = emulatorPerDescribe({ dataset: caseDataset() });
  const zone = (name: string, rest: string) => `/zones/${zoneId(emulator(), name)}${rest}`;

  it('serves the Enterprise account entry point and the zone entry points of its native zones', async () => {
    // vendor's API reference, rulesets: account and zone entry points of phase http_request_firewall_managed.
    const contoso = emulator().org.state.accounts.find((a) => a.name === 'Contoso Health')!;
    const root = expectOk(await get(emulator(), `/accounts/${contoso.id}${ENTRYPOINT}`));
    expect(root.kind).toBe('root');
    expect(root.rules[0].expression).toBe('cf.zone.name eq "contoso-clinic.example"');
    expect(expectOk(await get(emulator(), zone('contoso-clinic.example', ENTRYPOINT))).rules).toEqual([]);
    expectFailure(await get(emulator(), zone('fabrikam-trails.example', ENTRYPOINT)), 404, CODE.rulesetNotFound);
    const outlet = expectOk(await get(emulator(), zone('fabrikam-outlet.example', ENTRYPOINT)));
    expect(outlet.rules[0].action_parameters).toEqual({ id: MANAGED, overrides: { enabled: false } });
  });

  it('answers the native zones status without a migration state, and CAA and packs in the wild shapes', async () => {
    // Guess (no published schema): a zone created since 2022-09 has no migration_state.
    expect(expectOk(await get(emulator(), zone('fabrikam-shop-eu.example', '/waf_migration/status')))).toEqual({ old_waf_status: 'disabled', new_waf_status: 'enabled' });
    const caa = expectOk(await get(emulator(), zone('fabrikam-shop-eu.example', '/dns_records?type=CAA')));
    expect(caa.map((r: { data: unknown }) => r.data)).toContainEqual({ flags: 0, tag: 'issue', value: 'digicert.com' });
    expect(caa.every((r: object) => !('content' in r))).toBe(true);
    expect(expectOk(await get(emulator(), zone('fabrikam-shop-eu.example', '/ssl/universal/settings')))).toEqual({ enabled: true, certificate_authority: 'google' });
    const packs = expectOk(await get(emulator(), zone('fabrikam-shop-eu.example', '/ssl/certificate_packs?status=all')));
    expect(packs.find((p: { status: string }) => p.status === 'initializing')).not.toHaveProperty('created_on');
    // vendor docs, encryption modes: Strict (SSL-only origin pull) is an Enterprise mode: the clinic's.
    expect(expectOk(await get(emulator(), zone('contoso-clinic.example', '/settings/ssl'))).value).toBe('origin_pull');
    expect(expectOk(await get(emulator(), zone('contoso-portal.example', ''))).type).toBe('partial');
  });
});
