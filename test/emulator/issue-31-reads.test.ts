/**
 * The reads issue 31's checks need, over real HTTP against the emulator: the six new zone settings
 * (with development mode's `time_remaining`), bot management in the shape of the zone's bot product,
 * zone-level authenticated origin pulls, the rate limiting phase's entry point and its item in the
 * rulesets list, and a managed entry point executing the OWASP Core Ruleset. Also the dataset
 * loader's refusals for these keys, and the tests' organisation's cases for them.
 */
import { describe, expect, it } from 'vitest';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import { buildOrganisation } from '../../src/emulator/datasets/index.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorPerDescribe, get, NOW, zoneId } from '../support/http.js';
import { expectFailure, expectOk } from '../support/envelope.js';

const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';

const dataset: DatasetFile = {
  version: 1,
  accounts: [
    {
      name: 'Example',
      type: 'enterprise',
      zones: [
        { name: 'plain-free.example', plan: 'free' },
        { name: 'plain-pro.example', plan: 'pro' },
        { name: 'plain-business.example', plan: 'business' },
        { name: 'plain-enterprise.example', plan: 'enterprise' },
        {
          name: 'set.example',
          plan: 'business',
          migration: { state: 'none' },
          security: {
            settings: { development_mode: 'on', always_online: 'on', email_obfuscation: 'off', hotlink_protection: 'on', ip_geolocation: 'off', challenge_ttl: 86400, security_level: 'under_attack' },
            settings_modified_on: { development_mode: 'now-1h', security_level: 'now-2d' },
            bot_management: { sbfm_definitely_automated: 'block', sbfm_likely_automated: 'managed_challenge', enable_js: true },
            origin_pulls: true,
            ratelimit_rules: [
              { action: 'block', expression: 'http.request.uri.path eq "/login"', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 10, mitigation_timeout: 600 } },
            ],
            ratelimit_rules_since: 'now-5d',
            managed_rules: [
              { action: 'execute', expression: 'true', action_parameters: { id: MANAGED } },
              { action: 'execute', expression: 'true', action_parameters: { id: OWASP } },
            ],
          },
        },
        { name: 'fight.example', plan: 'free', security: { bot_management: { fight_mode: true } } },
        { name: 'bm.example', plan: 'enterprise', security: { bot_management: { subscription: true, suppress_session_score: true } } },
        { name: 'bm-pinned.example', plan: 'enterprise', security: { bot_management: { subscription: true, auto_update_model: false, using_latest_model: false, enable_js: true } } },
        { name: 'expired.example', plan: 'pro', security: { settings: { development_mode: 'on' }, settings_modified_on: { development_mode: 'now-2h' } } },
      ],
    },
  ],
};

const NOW_ISO = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
const HOUR = 3_600_000;

describe('issue 31 reads', () => {
  const emulator = emulatorPerDescribe({ dataset });
  const path = (zone: string, rest: string) => `/zones/${zoneId(emulator(), zone)}${rest}`;
  const setting = async (zone: string, id: string) => expectOk(await get(emulator(), path(zone, `/settings/${id}`)));

  it('serves the vendor defaults of the new settings for a zone the dataset says nothing about, on every plan', async () => {
    // vendor's API reference (zone settings): development_mode off until entered; email_obfuscation on,
    // hotlink_protection off, ip_geolocation on, challenge_ttl 1800 (vendor docs: Challenge Passage,
    // 30 minutes by default). always_online: no documented default, the emulator's choice is off.
    for (const zone of ['plain-free.example', 'plain-enterprise.example']) {
      const values: Record<string, unknown> = {};
      for (const id of ['development_mode', 'always_online', 'email_obfuscation', 'hotlink_protection', 'ip_geolocation', 'challenge_ttl']) {
        const answer = await setting(zone, id);
        // vendor docs: every plan offers these settings (a plan that did not would answer editable: false).
        expect(answer.editable).toBe(true);
        values[id] = answer.value;
      }
      expect(values).toEqual({ development_mode: 'off', always_online: 'off', email_obfuscation: 'on', hotlink_protection: 'off', ip_geolocation: 'on', challenge_ttl: 1800 });
    }
  });

  it('answers development mode with time_remaining: 0 when off, the seconds left when on', async () => {
    // vendor's API reference (development_mode): time_remaining is the interval in seconds until it expires; it lasts 3 hours.
    const off = await setting('plain-pro.example', 'development_mode');
    expect(off).toMatchObject({ id: 'development_mode', value: 'off', time_remaining: 0 });
    const on = await setting('set.example', 'development_mode');
    expect(on).toMatchObject({ id: 'development_mode', value: 'on', editable: true, modified_on: NOW_ISO(-HOUR) });
    // Entered an hour ago: two hours left, less the real seconds the test has taken.
    expect(on.time_remaining).toBeLessThanOrEqual(7200);
    expect(on.time_remaining).toBeGreaterThan(7200 - 60);
  });

  it('carries development_mode in the zone list and the zone: seconds left, 0 if never on', async () => {
    // vendor's API reference (zones): development_mode, "the interval (in seconds) from when
    // development mode expires (positive integer) or last expired (negative integer)"; 0 if never
    // enabled (api-facts: the zone list carries it).
    const list = expectOk(await get(emulator(), '/zones?per_page=50')) as Array<{ name: string; development_mode: number }>;
    const byName = new Map(list.map((z) => [z.name, z.development_mode]));
    expect(byName.get('plain-pro.example')).toBe(0);
    const left = byName.get('set.example')!;
    expect(left).toBeLessThanOrEqual(7200);
    expect(left).toBeGreaterThan(7200 - 60);
    // expired.example entered it 2 hours before the start: an hour left.
    expect(byName.get('expired.example')).toBeGreaterThan(3600 - 60);
    const one = expectOk(await get(emulator(), path('set.example', '')));
    expect(one.development_mode).toBeGreaterThan(7200 - 60);
  });

  it('turns development mode off 3 hours after it was entered, with a negative time_remaining', async () => {
    // The clock only moves forward; the tests after this one read no time-dependent answer.
    emulator().org.clock.advance(2 * HOUR);
    // vendor's API reference: development mode toggles itself off after 3 hours; time_remaining is
    // negative since it last expired. expired.example entered it 2 hours before the start: ended 1 hour after.
    const ended = await setting('expired.example', 'development_mode');
    expect(ended).toMatchObject({ value: 'off', modified_on: NOW_ISO(HOUR) });
    expect(ended.time_remaining).toBeLessThanOrEqual(-3600);
    // The zone list says the same: negative, since it last expired.
    const list = expectOk(await get(emulator(), '/zones?per_page=50')) as Array<{ name: string; development_mode: number }>;
    expect(list.find((z) => z.name === 'expired.example')!.development_mode).toBeLessThanOrEqual(-3600);
  });

  it('serves the settings a dataset sets, under_attack with its modified_on', async () => {
    // vendor docs: security level: under_attack is one of its values; modified_on says since when.
    expect(await setting('set.example', 'security_level')).toEqual({ id: 'security_level', value: 'under_attack', editable: true, modified_on: NOW_ISO(-2 * 24 * HOUR) });
    expect((await setting('set.example', 'always_online')).value).toBe('on');
    expect((await setting('set.example', 'email_obfuscation')).value).toBe('off');
    expect((await setting('set.example', 'hotlink_protection')).value).toBe('on');
    expect((await setting('set.example', 'ip_geolocation')).value).toBe('off');
    // vendor's API reference (challenge_ttl): a number of seconds, 86400 among the allowed values.
    expect((await setting('set.example', 'challenge_ttl')).value).toBe(86400);
  });

  it("answers bot management in the shape of the plan's bot product", async () => {
    // vendor docs (bots, plans): Free has Bot Fight Mode; vendor's API reference: its configuration
    // carries fight_mode and enable_js; JavaScript detections are always on with Bot Fight Mode.
    const free = expectOk(await get(emulator(), path('plain-free.example', '/bot_management')));
    expect(free).toEqual({ fight_mode: false, enable_js: true, ai_bots_protection: 'disabled', crawler_protection: 'disabled', is_robots_txt_managed: false, cf_robots_variant: 'off', using_latest_model: true });
    expect(expectOk(await get(emulator(), path('fight.example', '/bot_management'))).fight_mode).toBe(true);
    // Pro: Super Bot Fight Mode with definitely automated, no likely automated, no fight_mode.
    const pro = expectOk(await get(emulator(), path('plain-pro.example', '/bot_management')));
    expect(pro).toMatchObject({ sbfm_definitely_automated: 'allow', sbfm_verified_bots: 'allow', sbfm_static_resource_protection: false, optimize_wordpress: false });
    expect(pro).not.toHaveProperty('sbfm_likely_automated');
    expect(pro).not.toHaveProperty('fight_mode');
    // Business, and Enterprise without Bot Management (vendor docs, bots plans: "Enterprise customers without Bot Management"): likely automated too.
    for (const zone of ['plain-business.example', 'plain-enterprise.example']) {
      expect(expectOk(await get(emulator(), path(zone, '/bot_management')))).toMatchObject({ sbfm_definitely_automated: 'allow', sbfm_likely_automated: 'allow' });
    }
    expect(expectOk(await get(emulator(), path('set.example', '/bot_management')))).toMatchObject({ sbfm_definitely_automated: 'block', sbfm_likely_automated: 'managed_challenge', enable_js: true });
    // Bot Management for Enterprise: the subscription configuration (auto_update_model, bm_cookie_enabled defaults to true, suppress_session_score).
    const bm = expectOk(await get(emulator(), path('bm.example', '/bot_management')));
    expect(bm).toMatchObject({ auto_update_model: true, bm_cookie_enabled: true, suppress_session_score: true, using_latest_model: true });
    // vendor docs (bot scores, the engines of Enterprise Bot Management): JavaScript detections are enabled by default, and optional.
    expect(bm.enable_js).toBe(true);
    expect(bm).not.toHaveProperty('sbfm_definitely_automated');
    expect(bm).not.toHaveProperty('fight_mode');
    // vendor docs (machine learning models): with auto-updates off a Bot Management zone can stay on an older model.
    expect(expectOk(await get(emulator(), path('bm-pinned.example', '/bot_management')))).toMatchObject({ auto_update_model: false, using_latest_model: false, enable_js: true });
    // Captured Super Bot Fight Mode answers (cf-terraforming, 2025) carry suppress_session_score and using_latest_model, never auto_update_model.
    expect(pro).toMatchObject({ suppress_session_score: false, using_latest_model: true });
    expect(pro).not.toHaveProperty('auto_update_model');
  });

  it('answers zone-level authenticated origin pulls as {enabled}', async () => {
    // vendor's API reference: zone-level authenticated origin pulls, get enablement setting: {enabled}.
    expect(expectOk(await get(emulator(), path('set.example', '/origin_tls_client_auth/settings')))).toEqual({ enabled: true });
    expect(expectOk(await get(emulator(), path('plain-free.example', '/origin_tls_client_auth/settings')))).toEqual({ enabled: false });
  });

  it('serves the http_ratelimit entry point of a zone with rate limiting rules, and 404 10003 elsewhere', async () => {
    // vendor docs (rate limiting rules): rules of the http_ratelimit phase with a ratelimit object.
    const ruleset = expectOk(await get(emulator(), path('set.example', '/rulesets/phases/http_ratelimit/entrypoint')));
    expect(ruleset).toMatchObject({ phase: 'http_ratelimit', kind: 'zone', version: '1', last_updated: NOW_ISO(-5 * 24 * HOUR) });
    expect(ruleset.rules).toHaveLength(1);
    expect(ruleset.rules[0]).toMatchObject({
      action: 'block',
      expression: 'http.request.uri.path eq "/login"',
      enabled: true,
      ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 10, mitigation_timeout: 600 },
    });
    // vendor docs (rulesets): a phase entry point that does not exist answers 404 code 10003.
    expectFailure(await get(emulator(), path('plain-pro.example', '/rulesets/phases/http_ratelimit/entrypoint')), 404, 10003);
    // vendor's API reference (list zone rulesets): the list shows the entry point, with its version.
    const list = expectOk(await get(emulator(), path('set.example', '/rulesets'))) as Array<{ id: string; phase: string; kind: string; version: string }>;
    expect(list.filter((r) => r.phase === 'http_ratelimit')).toEqual([expect.objectContaining({ id: ruleset.id, kind: 'zone', version: '1' })]);
    const plain = expectOk(await get(emulator(), path('plain-pro.example', '/rulesets'))) as Array<{ phase: string }>;
    expect(plain.some((r) => r.phase === 'http_ratelimit')).toBe(false);
  });

  it('serves a managed entry point that executes the OWASP Core Ruleset', async () => {
    // vendor docs (WAF managed rules): the Cloudflare OWASP Core Ruleset is 4814384a9e5d4991b9815dcfc25d2f1f,
    // the Cloudflare Managed Ruleset efb7b8c949ac4650a09736fc376e9aee, each deployed with an execute rule.
    const entrypoint = expectOk(await get(emulator(), path('set.example', '/rulesets/phases/http_request_firewall_managed/entrypoint')));
    expect(entrypoint.rules.map((r: { action: string; action_parameters: { id: string } }) => [r.action, r.action_parameters.id])).toEqual([
      ['execute', MANAGED],
      ['execute', OWASP],
    ]);
  });
});

describe('issue 31 dataset keys', () => {
  const load = (security: unknown, plan = 'pro') => () =>
    buildOrganisation({ version: 1, accounts: [{ name: 'A', zones: [{ name: 'a.example', plan, migration: { state: 'none' }, security }] }] } as unknown as DatasetFile, NOW);

  it('refuses impossible values with the field named', () => {
    // vendor's API reference (challenge_ttl): only the listed numbers of seconds.
    expect(load({ settings: { challenge_ttl: 1000 } })).toThrow(/security\.settings\.challenge_ttl: expected one of 300, 900, 1800/);
    expect(load({ settings: { hotlink_protection: 'yes' } })).toThrow(/security\.settings\.hotlink_protection: expected one of on, off/);
    // Development mode lasts 3 hours (vendor's API reference): it cannot still be on after 4.
    expect(load({ settings: { development_mode: 'on' }, settings_modified_on: { development_mode: 'now-4h' } })).toThrow(/development mode turns itself off 3 hours after/);
  });

  it("refuses bot fields the plan's product does not have", () => {
    // vendor docs (bots, plans): fight_mode is Bot Fight Mode (Free); a Pro zone has Super Bot Fight Mode.
    expect(load({ bot_management: { fight_mode: true } })).toThrow(/security\.bot_management\.fight_mode: not a setting of Super Bot Fight Mode \(Pro\)/);
    expect(load({ bot_management: { sbfm_likely_automated: 'block' } })).toThrow(/sbfm_likely_automated: not a setting/);
    // vendor docs (JavaScript detections): always on with Bot Fight Mode.
    expect(load({ bot_management: { enable_js: false } }, 'free')).toThrow(/enable_js: JavaScript detections cannot be disabled/);
    expect(load({ bot_management: { subscription: true } }, 'business')).toThrow(/subscription: Bot Management for Enterprise is an add-on of Enterprise zones/);
    // vendor docs (machine learning models): only Bot Management zones choose their model, and auto-updates keep it the latest.
    expect(load({ bot_management: { using_latest_model: false } })).toThrow(/using_latest_model: only Bot Management for Enterprise zones choose their model/);
    expect(load({ bot_management: { subscription: true, using_latest_model: false } }, 'enterprise')).toThrow(/using_latest_model: a zone with auto_update_model on runs the latest model/);
  });

  it('refuses a rate limiting rule without its mandatory parts', () => {
    // vendor docs (rate limiting parameters): cf.colo.id is a mandatory characteristic; requests per period is required.
    const rule = (ratelimit: unknown, action = 'block') => ({ ratelimit_rules: [{ action, expression: 'true', ratelimit }] });
    expect(load(rule({ characteristics: ['ip.src'], requests_per_period: 5 }))).toThrow(/ratelimit_rules\[0\]\.ratelimit\.characteristics: must include cf\.colo\.id/);
    expect(load(rule({ characteristics: ['cf.colo.id'] }))).toThrow(/ratelimit\.requests_per_period: is required/);
    expect(load(rule({ requests_per_period: 5 }, 'skip'))).toThrow(/ratelimit_rules\[0\]\.action: expected one of block, challenge, managed_challenge, js_challenge, log/);
    expect(load({ ratelimit_rules_since: 'now-1d' })).toThrow(/ratelimit_rules_since: only with ratelimit_rules/);
  });
});

describe("issue 31 cases of the tests' organisation", () => {
  const emulator = emulatorPerDescribe({ dataset: caseDataset() });
  const path = (zone: string, rest: string) => `/zones/${zoneId(emulator(), zone)}${rest}`;
  const value = async (zone: string, id: string) => expectOk(await get(emulator(), path(zone, `/settings/${id}`))).value;

  it('has a failing and a passing zone for each new setting', async () => {
    expect(await value('northwind-staging.example', 'development_mode')).toBe('on');
    expect(await value('fabrikam.example', 'development_mode')).toBe('off');
    const underAttack = expectOk(await get(emulator(), path('northwind-shop.example', '/settings/security_level')));
    expect(underAttack).toMatchObject({ value: 'under_attack', modified_on: NOW_ISO(-3 * 24 * HOUR) });
    expect(expectOk(await get(emulator(), path('fabrikam-stores.example', '/settings/security_level')))).toMatchObject({ value: 'under_attack', modified_on: NOW_ISO(-2 * HOUR) });
    expect([await value('pet-photos.example.org', 'always_online'), await value('tinkerer.test', 'always_online')]).toEqual(['on', 'off']);
    expect([await value('weekend-hack.test', 'email_obfuscation'), await value('tinkerer.test', 'email_obfuscation')]).toEqual(['off', 'on']);
    expect([await value('tinkerer.test', 'hotlink_protection'), await value('acme-bank.example', 'hotlink_protection')]).toEqual(['off', 'on']);
    expect([await value('acme-invest.example', 'ip_geolocation'), await value('acme-bank.example', 'ip_geolocation')]).toEqual(['off', 'on']);
    expect([await value('acme-cards.example', 'challenge_ttl'), await value('acme-bank.example', 'challenge_ttl')]).toEqual([86400, 1800]);
  });

  it('has bot fight mode off and on, JavaScript detections, AI bots and model updates off and on, origin pulls on one exposed zone, rate limiting rules on one zone', async () => {
    const bots = async (zone: string) => expectOk(await get(emulator(), path(zone, '/bot_management')));
    expect((await bots('pet-photos.example.org')).fight_mode).toBe(false);
    expect((await bots('tinkerer.test')).fight_mode).toBe(true);
    expect(await bots('fabrikam.example')).toMatchObject({ sbfm_definitely_automated: 'block', sbfm_likely_automated: 'managed_challenge', enable_js: true, ai_bots_protection: 'block' });
    // JavaScript detections, AI bots and the Bot Management model: a failing and a passing zone each (the case map).
    expect(await bots('contoso-clinic.example')).toMatchObject({ auto_update_model: true, using_latest_model: true, enable_js: true, ai_bots_protection: 'block' });
    expect(await bots('contoso-records.example')).toMatchObject({ auto_update_model: false, using_latest_model: false, enable_js: false, ai_bots_protection: 'disabled' });
    expect((await bots('fabrikam-stores.example')).ai_bots_protection).toBe('only_on_ad_pages');
    expect(expectOk(await get(emulator(), path('acme-bank.example', '/origin_tls_client_auth/settings')))).toEqual({ enabled: true });
    expect(expectOk(await get(emulator(), path('northwind.example', '/origin_tls_client_auth/settings')))).toEqual({ enabled: false });
    expect(expectOk(await get(emulator(), path('fabrikam.example', '/rulesets/phases/http_ratelimit/entrypoint'))).rules).toHaveLength(1);
    expectFailure(await get(emulator(), path('fabrikam-shop-eu.example', '/rulesets/phases/http_ratelimit/entrypoint')), 404, 10003);
  });

  it('has custom rules that block and custom rules that only log, and the OWASP ruleset executed or not', async () => {
    const actions = async (zone: string) => expectOk(await get(emulator(), path(zone, '/rulesets/phases/http_request_firewall_custom/entrypoint'))).rules.map((r: { action: string }) => r.action);
    expect(await actions('contoso-records.example')).toEqual(['log']);
    expect(await actions('acme-bank.example')).toContain('block');
    const executed = async (zone: string) =>
      expectOk(await get(emulator(), path(zone, '/rulesets/phases/http_request_firewall_managed/entrypoint'))).rules.filter((r: { action: string }) => r.action === 'execute').map((r: { action_parameters: { id: string } }) => r.action_parameters.id);
    expect(await executed('fabrikam.example')).toContain(OWASP);
    expect(await executed('fabrikam-outlet.example')).not.toContain(OWASP);
  });
});
