/**
 * Conformance of the emulator's zone security reads over real HTTP: settings one by one with the
 * vendor's answer shape, a plan-gated setting answering an error, DNSSEC, universal SSL, and the
 * custom-rules entry point (404 code 10003 until a rule exists). Datasets are inline.
 */
import { describe, expect, it } from 'vitest';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import { buildOrganisation } from '../../src/emulator/datasets/index.js';
import { emulatorPerDescribe, get, zoneId } from '../support/http.js';
import { expectFailure, expectOk } from '../support/envelope.js';

const CODE = { rulesetNotFound: 10003, noRoute: 7003 };

const dataset: DatasetFile = {
  version: 1,
  accounts: [
    {
      name: 'Example',
      zones: [
        { name: 'plain.example', plan: 'free' },
        {
          name: 'hardened.example',
          plan: 'business',
          waf: { enabled: true },
          security: {
            settings: { ssl: 'strict', min_tls_version: '1.2', always_use_https: 'on', security_header: { enabled: true, max_age: 31536000, include_subdomains: true } },
            settings_modified_on: { ssl: 'now-2d' },
            settings_locked: ['min_tls_version'],
            dnssec: 'pending',
            dnssec_since: 'now-10d',
            universal_ssl: false,
            custom_rules: [
              { action: 'block', expression: 'ip.src eq 192.0.2.1', description: 'a scanner' },
              { action: 'skip', expression: 'true', action_parameters: { ruleset: 'current' }, enabled: false },
            ],
          },
        },
      ],
    },
  ],
};

describe('zone security reads', () => {
  const emulator = emulatorPerDescribe({ dataset });
  const path = (zone: string, rest: string) => `/zones/${zoneId(emulator(), zone)}${rest}`;

  it('answers each setting as {id, value, editable, modified_on}', async () => {
    // vendor docs: zone settings: GET /zones/{zone_id}/settings/{setting_id}.
    const ssl = expectOk(await get(emulator(), path('hardened.example', '/settings/ssl')));
    expect(ssl).toEqual({ id: 'ssl', value: 'strict', editable: true, modified_on: '2026-10-30T12:00:00.000000Z' });
    const hsts = expectOk(await get(emulator(), path('hardened.example', '/settings/security_header')));
    expect(hsts.value).toEqual({ strict_transport_security: { enabled: true, max_age: 31536000, include_subdomains: true, preload: false, nosniff: false } });
  });

  it('answers a locked setting with its value and editable false', async () => {
    // vendor's API reference, zone settings: `editable` says whether the value can be changed; a value
    // the plan or an account policy holds is answered as it applies, not as the default.
    const tls = expectOk(await get(emulator(), path('hardened.example', '/settings/min_tls_version')));
    expect(tls).toEqual({ id: 'min_tls_version', value: '1.2', editable: false, modified_on: expect.any(String) });
    expect(expectOk(await get(emulator(), path('hardened.example', '/settings/always_use_https'))).editable).toBe(true);
    expect(expectOk(await get(emulator(), path('plain.example', '/settings/min_tls_version'))).editable).toBe(true);
  });

  it('serves the vendor defaults of a new zone where the dataset says nothing', async () => {
    // docs/api-surface.md, Zone security reads: the settings of a zone the dataset says nothing about.
    const values: Record<string, unknown> = {};
    for (const id of ['ssl', 'min_tls_version', 'tls_1_3', 'always_use_https', 'automatic_https_rewrites', 'security_level', 'browser_check']) {
      values[id] = expectOk(await get(emulator(), path('plain.example', `/settings/${id}`))).value;
    }
    expect(values).toEqual({ ssl: 'full', min_tls_version: '1.0', tls_1_3: 'on', always_use_https: 'off', automatic_https_rewrites: 'on', security_level: 'medium', browser_check: 'on' });
  });

  it('answers a setting the plan does not offer as not editable, and an unknown setting as unroutable', async () => {
    // vendor's API reference, zone settings: every setting answers {id, value, editable, modified_on}; `editable`
    // is false when the zone's plan does not offer the setting (waf is a paid-plan setting). The earlier
    // expectation (400 code 1007) was the emulator's own guess; the reference shows a 200 answer.
    expect(expectOk(await get(emulator(), path('plain.example', '/settings/waf')))).toEqual({ id: 'waf', value: 'off', editable: false, modified_on: expect.any(String) });
    expect(expectOk(await get(emulator(), path('hardened.example', '/settings/waf'))).value).toBe('on');
    // The API's routing error (codes 7003 and 7000) for a setting id that does not exist: a 404 with 7003 is a
    // routing error, not "not offered". The 404 status is the emulator's guess.
    const unknown = await get(emulator(), path('plain.example', '/settings/nonsense'));
    expectFailure(unknown, 404, CODE.noRoute);
    expect(unknown.json.errors.map((e: { code: number }) => e.code)).toEqual([7003, 7000]);
  });

  it('answers DNSSEC with key material once signed, nulls while disabled', async () => {
    // vendor docs: API reference, DNSSEC details: {status, flags, algorithm, key_type, digest_type, digest_algorithm,
    // digest, ds, key_tag, public_key, modified_on}; its example key: flags 257, algorithm 13, DS TTL 3600.
    // emulator: the key fields null while disabled (the reference marks them optional).
    const pending = expectOk(await get(emulator(), path('hardened.example', '/dnssec')));
    expect(pending).toMatchObject({ status: 'pending', flags: 257, algorithm: '13', modified_on: '2026-10-22T12:00:00.000000Z' });
    expect(pending.ds).toMatch(/^hardened\.example\. 3600 IN DS \d+ 13 2 [0-9A-F]+$/);
    expect(expectOk(await get(emulator(), path('plain.example', '/dnssec')))).toMatchObject({ status: 'disabled', ds: null, key_tag: null });
  });

  it('answers the universal SSL switch and its certificate authority', async () => {
    // vendor docs: API reference, universal SSL settings details: {enabled}; answers in the wild add
    // certificate_authority (e.g. lets_encrypt). Emulator: Let's Encrypt when the zone has no universal pack.
    expect(expectOk(await get(emulator(), path('hardened.example', '/ssl/universal/settings')))).toEqual({ enabled: false, certificate_authority: 'lets_encrypt' });
    expect(expectOk(await get(emulator(), path('plain.example', '/ssl/universal/settings')))).toEqual({ enabled: true, certificate_authority: 'lets_encrypt' });
  });

  it('answers the custom-rules entry point, or 404 code 10003 before any rule exists', async () => {
    // vendor docs: rulesets: a GET of a phase entry point before any rule exists answers 404 code 10003; the entry
    // point is a ruleset {id, name, description, kind: zone, phase, version, last_updated, rules}, each rule with
    // id, ref, version, action, expression, description, enabled and last_updated.
    const ep = '/rulesets/phases/http_request_firewall_custom/entrypoint';
    expectFailure(await get(emulator(), path('plain.example', ep)), 404, CODE.rulesetNotFound);
    const ruleset = expectOk(await get(emulator(), path('hardened.example', ep)));
    expect(ruleset).toMatchObject({ kind: 'zone', phase: 'http_request_firewall_custom', version: '1' });
    expect(ruleset.rules.map((r: { action: string; enabled: boolean }) => [r.action, r.enabled])).toEqual([
      ['block', true],
      ['skip', false],
    ]);
    expect(ruleset.rules[0]).toMatchObject({ id: expect.any(String), ref: expect.any(String), last_updated: expect.any(String), description: 'a scanner' });
  });
});

describe('zone security in the dataset format', () => {
  const zoneWith = (security: unknown): DatasetFile => ({ version: 1, accounts: [{ name: 'A', zones: [{ name: 'a.example', security } as never] }] });
  const load = (security: unknown) => () => buildOrganisation(zoneWith(security), new Date('2026-11-01T00:00:00Z'));

  it('refuses undocumented values with the path of the field', () => {
    expect(load({ settings: { ssl: 'maximum' } })).toThrow(/security\.settings\.ssl/);
    expect(load({ settings: { colour: 'red' } })).toThrow(/colour/);
    // The legacy switch has one source, the zone's waf.enabled, which the migration status also reports.
    expect(load({ settings: { waf: 'on' } })).toThrow(/waf\.enabled/);
    expect(load({ managed_ruleset_disabled: true })).toThrow(/only a zone whose managed entry point executes the managed ruleset/);
    expect(load({ dnssec: 'on' })).toThrow(/security\.dnssec/);
  });

  it('refuses a locked setting it cannot serve, with the path of the entry', () => {
    expect(load({ settings_locked: ['min_tls_version', 'colour'] })).toThrow(/security\.settings_locked\[1\]: unknown setting "colour"/);
    // A Free zone is not offered the legacy switch: its answer is editable false already.
    expect(load({ settings_locked: ['waf'] })).toThrow(/settings_locked\[0\]: waf is not offered on the free plan/);
    expect(load({ settings_locked: ['ssl', 'ssl'] })).toThrow(/settings_locked\[1\]: ssl is listed twice/);
    expect(load({ settings_locked: 'ssl' })).toThrow(/settings_locked: expected an array of strings/);
  });

  it('requires a skip rule to say what it skips', () => {
    expect(load({ custom_rules: [{ action: 'skip', expression: 'true' }] })).toThrow(/action_parameters/);
  });
});
